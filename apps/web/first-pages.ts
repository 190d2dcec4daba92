/**
 * The pages other than Home that the first-load work is measured on (docs/bench.md, issue 18),
 * by hash path, with their files under src/features. Their code is in chunks of their own
 * (page-chunks.ts), and src/early.ts preloads them when the app opens on one of them. Home is in the main chunk.
 */
export const FIRST_PAGES: Readonly<Record<string, string>> = {
  '/pages/trade/index': 'market/MarketListPage.tsx',
  '/pages/trade/kline': 'market/KlinePage.tsx',
  '/pages/assets/index': 'wallet/AssetsPage.tsx',
};

/**
 * Of those, the pages whose texts are all in the first part of a language (locale-split.ts): they
 * open without the rest (app/routes.tsx), so src/early.ts does not fetch it beside them.
 */
export const FIRST_TEXT_PAGES: readonly string[] = ['/pages/trade/index'];

/** The id of index.html's data block naming the files src/early.ts preloads (vite.config.ts). */
export const EARLY_FILES_ID = 'early-files';

export interface EarlyFiles {
  /** Hash path → the page's chunks beyond the main chunk. */
  pages: Record<string, string[]>;
  /** Language → its two text chunks (locale-split.ts): the first screen's, and the rest. */
  texts: Record<string, { first: string; rest: string }>;
}
