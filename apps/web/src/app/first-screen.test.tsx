import { screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FIRST_PAGES } from '../../first-pages';
import { FIRST_SCREEN_SECTIONS } from '../../locale-split';
import en from '../locales/en.json';
import th from '../locales/th.json';
import { paths } from '../shared/paths';
import { clearSession, setSession } from '../shared/session';
import { fetchStub, ok, renderRoutes } from '../test/render';
import { ticker } from '../test/tickers';
import { routes } from './routes';

afterEach(() => {
  clearSession();
  i18next.options.saveMissing = false;
  i18next.options.missingKeyHandler = false;
  i18next.addResourceBundle('en', 'translation', en, true, true);
  i18next.addResourceBundle('th', 'translation', th, true, true);
});

vi.mock('klinecharts', () => ({ init: () => null, dispose: () => {}, registerLocale: () => {} }));
vi.mock('socket.io-client', async () => ({ io: (await import('../test/fake-socket')).fakeIo }));

// The rest of a language never comes here: a page that waits for it (lazy-page.ts) never renders.
vi.mock('../shared/i18n', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../shared/i18n')>()),
  loadAllTexts: () => new Promise<void>(() => {}),
}));

/** i18next holds what the app starts with: the first part of English, no rest, no Thai fallback. */
function firstPartOnly(): string[] {
  i18next.removeResourceBundle('en', 'translation');
  i18next.removeResourceBundle('th', 'translation');
  const first = Object.fromEntries(Object.entries(en).filter(([k]) => FIRST_SCREEN_SECTIONS.includes(k)));
  i18next.addResourceBundle('en', 'translation', first);
  const missing: string[] = [];
  i18next.options.saveMissing = true;
  i18next.options.missingKeyHandler = (_lngs, _ns, key) => {
    missing.push(key);
  };
  vi.stubGlobal(
    'fetch',
    fetchStub({
      'currency/quotation_new': ok([
        ticker('btcusdt', 'BTC', '50000', '1.2'),
        ticker('ethusdt', 'ETH', '3000', '-4'),
      ]),
      'currency/deal': ok({ buy: [], sell: [], trades: [] }),
      'wallet/list': ok({
        total_usdt: '250.5',
        valued: true,
        accounts: [{ type: 'spot', total_usdt: '250.5', valued: true, currencies: [] }],
      }),
      'wallet/demo_funds': ok({ offered: false }),
      'wallet/currencies': ok([]),
    }).fn,
  );
  return missing;
}

describe('the first screen', () => {
  it("draws the app shell and Home with the first part of the language's texts alone", async () => {
    const missing = firstPartOnly();
    renderRoutes(routes, '/');
    expect((await screen.findByTestId('price-btcusdt')).textContent).toBe('50,000.00');
    expect(screen.getByText(en.tabs.home)).toBeTruthy();
    expect(missing).toEqual([]);
  });

  it('opens the market list, the chart page and the assets page with the first part alone (first-pages.ts)', async () => {
    expect(Object.keys(FIRST_PAGES)).toEqual([paths.trade, paths.kline, paths.assets]);
    const missing = firstPartOnly();
    const market = renderRoutes(routes, paths.trade);
    expect((await screen.findByTestId('price-ethusdt')).textContent).toBe('3,000.00');
    expect(screen.getByRole('tab', { name: en.market.favourites })).toBeTruthy();
    market.unmount();

    const chart = renderRoutes(routes, `${paths.kline}?symbol=btcusdt`);
    expect(await screen.findByRole('button', { name: en.trade.loginToSell })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'BTC/USDT' })).toBeTruthy();
    chart.unmount();

    setSession('tok-1', { id: 1 } as never);
    renderRoutes(routes, paths.assets);
    await waitFor(() => expect(screen.getByTestId('assets-total').textContent).toContain('250.5'));
    expect(await screen.findByRole('tab', { name: en.wallet.account.spot })).toBeTruthy();
    expect(missing).toEqual([]);
  });
});
