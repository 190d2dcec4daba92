import { API_BASE, DEFAULT_LANG, LANGS, Paths } from '@verdant/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EARLY_FILES_ID, FIRST_PAGES } from '../first-pages';
import { pageAt } from './app/page-meta';
import { EARLY_API_BASE, EARLY_DEFAULT_LANG, EARLY_LANGS, EARLY_PAGES, startEarlyRequests } from './early';
import { paths } from './shared/paths';

// early.ts imports nothing of the app's to stay small: its copies must stay the app's
describe('early requests', () => {
  afterEach(() => {
    localStorage.clear();
    window.location.hash = '';
    delete window.__verdantEarly;
    document.getElementById(EARLY_FILES_ID)?.remove();
    for (const l of document.querySelectorAll('link[rel="modulepreload"]')) l.remove();
  });

  it('names the pages, requests and keys the app uses', () => {
    expect(Object.keys(EARLY_PAGES).sort()).toEqual([paths.assets, paths.kline, paths.trade].sort());
    // the same method and path as tickersQuery, dealQuery, walletListQuery, demoFundsQuery and
    // currenciesQuery
    expect(EARLY_PAGES[paths.trade]).toEqual([{ method: 'GET', path: Paths.quotations }]);
    expect(EARLY_PAGES[paths.kline]).toEqual([{ method: 'GET', path: Paths.deal, query: ['symbol'] }]);
    expect(EARLY_PAGES[paths.assets]).toEqual([
      { method: 'POST', path: Paths.walletList, auth: true },
      { method: 'GET', path: Paths.demoFunds, auth: true },
      { method: 'GET', path: Paths.currencies, auth: true },
    ]);
    expect(EARLY_LANGS).toEqual([...LANGS]);
    expect(EARLY_DEFAULT_LANG).toBe(DEFAULT_LANG);
    expect(EARLY_API_BASE).toBe(API_BASE);
  });

  it("asks for the market list's tickers in the stored language", () => {
    const fetch = vi.fn(async () => new Response('{}'));
    localStorage.setItem('lang', 'ja');
    window.location.hash = `#${paths.trade}?from=home`;
    startEarlyRequests(Object.assign(Object.create(window) as Window, { fetch, location: window.location }));
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledWith('/api/currency/quotation_new', {
      method: 'GET',
      headers: { lang: 'ja', Accept: 'application/json' },
    });
  });

  it('asks for the balances only with a session, and nothing on other pages', () => {
    const fetch = vi.fn(async () => new Response('{}'));
    const win = Object.assign(Object.create(window) as Window, { fetch, location: window.location });
    window.location.hash = `#${paths.assets}`;
    startEarlyRequests(win);
    expect(fetch).not.toHaveBeenCalled();
    localStorage.setItem('token', 'tok-1');
    localStorage.setItem('lang', 'xx'); // not a language: the default, as the app does
    startEarlyRequests(win);
    expect(fetch.mock.calls.map((c) => (c as unknown[])[0])).toEqual([
      '/api/wallet/list',
      '/api/wallet/demo_funds',
      '/api/wallet/currencies',
    ]);
    expect(win.__verdantEarly?.map((r) => [r.method, r.lang, r.token])).toEqual([
      ['POST', 'th', 'tok-1'],
      ['GET', 'th', 'tok-1'],
      ['GET', 'th', 'tok-1'],
    ]);
    fetch.mockClear();
    window.location.hash = '#/pages/assets/record';
    startEarlyRequests(win);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("asks for the chart's trades of the address's pair, and nothing on Home", () => {
    const fetch = vi.fn(async () => new Response('{}'));
    const win = Object.assign(Object.create(window) as Window, { fetch, location: window.location });
    window.location.hash = '';
    startEarlyRequests(win);
    expect(fetch).not.toHaveBeenCalled();
    fetch.mockClear();
    window.location.hash = `#${paths.kline}?symbol=ethusdt&from=market`;
    startEarlyRequests(win);
    expect(fetch.mock.calls.map((c) => (c as unknown[])[0])).toEqual(['/api/currency/deal?symbol=ethusdt']);
    fetch.mockClear();
    window.location.hash = `#${paths.kline}`; // no pair: the page picks one, nothing is guessed
    startEarlyRequests(win);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("names the app's pages in first-pages.ts", () => {
    expect(Object.keys(FIRST_PAGES).map((p) => pageAt(p))).toEqual(['trade', 'kline', 'assets']);
    expect(FIRST_PAGES[paths.trade]).toBe('market/MarketListPage.tsx');
  });

  it("preloads the first part of the language's texts, and the page's chunks and stylesheets", () => {
    const data = document.createElement('script');
    data.type = 'application/json';
    data.id = EARLY_FILES_ID;
    data.textContent = JSON.stringify({
      pages: {
        [paths.trade]: ['/h5/static/js/pages-1.js', '/h5/static/js/pages-2.js', '/h5/static/css/pages-1.css'],
      },
      texts: { th: '/h5/th-1.js', en: '/h5/en-1.js' },
    });
    document.head.append(data);
    const win = Object.assign(Object.create(window) as Window, {
      fetch: async () => new Response('{}'),
      location: window.location,
      document,
    });
    const preloads = () =>
      [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) =>
        l.getAttribute('href'),
      );
    startEarlyRequests(win); // Home: its texts only
    expect(preloads()).toEqual(['/h5/th-1.js']);
    for (const l of document.querySelectorAll('link[rel="modulepreload"]')) l.remove();
    localStorage.setItem('lang', 'en');
    window.location.hash = `#${paths.trade}`;
    startEarlyRequests(win);
    expect(preloads()).toEqual(['/h5/en-1.js', '/h5/static/js/pages-1.js', '/h5/static/js/pages-2.js']);
    // the page's stylesheet linked before it renders (Vite's loader then finds it and adds none)
    const sheets = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
    expect(sheets.map((l) => l.getAttribute('href'))).toEqual(['/h5/static/css/pages-1.css']);
    for (const l of sheets) l.remove();
  });
});
