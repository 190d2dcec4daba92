/**
 * The pages other than Home that the first-load work is measured on (docs/bench.md, issue 18),
 * by hash path, with their files under src/features. Their code is in chunks of their own
 * (page-chunks.ts), and src/early.ts preloads them when the app opens on one of them. Home is in the main chunk.
 * Like Home, they render with the first part of a language's texts (locale-split.ts; checked in
 * app/first-screen.test.tsx), so no first page waits for the rest.
 */
export const FIRST_PAGES: Readonly<Record<string, string>> = {
  '/pages/trade/index': 'market/MarketListPage.tsx',
  '/pages/trade/kline': 'market/KlinePage.tsx',
  '/pages/assets/index': 'wallet/AssetsPage.tsx',
};

/** The id of index.html's data block naming the files src/early.ts preloads (vite.config.ts). */
export const EARLY_FILES_ID = 'early-files';

export interface EarlyFiles {
  /** Hash path → the page's chunks beyond the main chunk, then their stylesheets. */
  pages: Record<string, string[]>;
  /** Language → the chunk of its first part of the texts (locale-split.ts). */
  texts: Record<string, string>;
}
