/**
 * The pages other than Home that the first-load work is measured on (docs/bench.md, issue 18),
 * by hash path, with their files under src/features. Their code is one chunk (page-chunks.ts).
 * Home is in the main chunk.
 */
export const FIRST_PAGES: Readonly<Record<string, string>> = {
  '/pages/trade/index': 'market/MarketListPage.tsx',
  '/pages/trade/kline': 'market/KlinePage.tsx',
  '/pages/assets/index': 'wallet/AssetsPage.tsx',
};

