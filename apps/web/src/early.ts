/**
 * A script written inline in index.html's head (vite.config.ts), run while the HTML is parsed:
 * beside the main chunk (about 120 KB), it starts what the opening page will ask for only once
 * that chunk has run: the first part of the language's texts, the page's chunks (market list,
 * chart, assets), and those pages' first API answers. shared/api.ts takes the answer
 * (shared/early-requests.ts) when the page asks for the same thing with the same language and
 * session; the chunks are modulepreloads, which the page's import then finds. It imports only
 * constants, so it stays a script of about 1.4 KB: the paths and keys below are the app's
 * (checked in early.test.ts).
 */
import { EARLY_FILES_ID, type EarlyFiles } from '../first-pages';

export interface EarlyRequest {
  method: 'GET' | 'POST';
  /** As shared/api.ts builds it: /api/<path>. */
  url: string;
  lang: string;
  token: string | null;
  at: number;
  response: Promise<Response>;
}

declare global {
  interface Window {
    __verdantEarly?: EarlyRequest[];
  }
}

/**
 * Hash paths and the requests their first render makes; `auth` ones only with a session, `query`
 * the names of the address's parameters passed on (in that order, as the page passes them;
 * without one of them nothing is asked).
 */
export const EARLY_PAGES: Record<
  string,
  readonly {
    method: 'GET' | 'POST';
    path: string;
    auth?: boolean;
    query?: readonly string[];
  }[]
> = {
  '/pages/trade/index': [{ method: 'GET', path: 'currency/quotation_new' }],
  '/pages/trade/kline': [{ method: 'GET', path: 'currency/deal', query: ['symbol'] }],
  '/pages/assets/index': [
    { method: 'POST', path: 'wallet/list', auth: true },
    { method: 'GET', path: 'wallet/demo_funds', auth: true },
    { method: 'GET', path: 'wallet/currencies', auth: true },
  ],
};
export const EARLY_LANGS = ['th', 'en', 'ja', 'ko', 'es', 'zh', 'hk'];
export const EARLY_DEFAULT_LANG = 'th';
export const EARLY_API_BASE = '/api';

function stored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled: the page asks itself
  }
}

/** A script as a module preload; a stylesheet linked (Vite's loader then finds it and adds none). */
function preload(doc: Document, href: string): void {
  const link = doc.createElement('link');
  link.rel = href.endsWith('.css') ? 'stylesheet' : 'modulepreload';
  link.crossOrigin = ''; // as Vite's own links, so the page's import finds this fetch
  link.href = href;
  doc.head.append(link);
}

/** The files of index.html's data block: chunks of the pages and of the languages. */
function earlyFiles(doc: Document): EarlyFiles | null {
  try {
    return JSON.parse(doc.getElementById(EARLY_FILES_ID)?.textContent ?? 'null') as EarlyFiles | null;
  } catch {
    return null;
  }
}

/** Starts the requests of the page at the address (the app's own start is not waited for). */
export function startEarlyRequests(win: Window = window): void {
  const path = win.location.hash.slice(1).split('?')[0] || '/';
  const storedLang = stored('lang');
  const lang = storedLang && EARLY_LANGS.includes(storedLang) ? storedLang : EARLY_DEFAULT_LANG;
  const files = earlyFiles(win.document);
  const texts = files?.texts[lang];
  // the first part of the texts on every page (every first page needs no more: first-pages.ts)
  if (texts) preload(win.document, texts);
  for (const f of files?.pages[path] ?? []) preload(win.document, f);
  const page = EARLY_PAGES[path];
  if (!page) return;
  const token = stored('token');
  const params = new URLSearchParams(win.location.hash.split('?')[1] ?? '');
  const list: EarlyRequest[] = [];
  for (const r of page) {
    if (r.auth && !token) continue;
    const query = new URLSearchParams();
    for (const name of r.query ?? []) {
      const v = params.get(name);
      if (v !== null) query.append(name, v);
    }
    if (r.query && [...query.keys()].length < r.query.length) continue;
    const url = `${EARLY_API_BASE}/${r.path}${r.query ? `?${query}` : ''}`;
    const headers: Record<string, string> = { lang, Accept: 'application/json' };
    if (token) headers.Authorization = token;
    const response = win.fetch(url, { method: r.method, headers });
    response.catch(() => {}); // the page asks again (shared/api.ts)
    list.push({ method: r.method, url, lang, token, at: Date.now(), response });
  }
  win.__verdantEarly = list;
}

startEarlyRequests();
