/**
 * The USDT price of a currency, for valuations (the assets tab's total). USDT and Bank (US
 * dollars) count one to one. Other coins have no honest price source yet: they answer null and
 * the valuation says so (`valued: false`) rather than invent a number. The markets issue plugs
 * the index feed in here.
 */
export const USDT_CURRENCY_ID = 3;
const BANK_USD = 9999;

export function usdtPrice(currencyId: number): string | null {
  if (currencyId === USDT_CURRENCY_ID || currencyId === BANK_USD) return '1';
  return null;
}
