import { CURRENCY_IDS } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { latestIndexPrices } from '../market/service.ts';

/**
 * USDT prices of currencies, for valuations (the assets tab's total). USDT and Bank (US dollars)
 * count one to one. A coin is valued at the latest recorded index tick of its USDT market (the
 * same recorded prices the charts show); a coin without a USDT market or without any tick yet
 * has no price, and the valuation says so (`valued: false`) rather than invent a number.
 */
export type UsdtPrices = ReadonlyMap<number, string>;

export async function usdtPrices(q: Queryable): Promise<UsdtPrices> {
  const prices = await latestIndexPrices(q, CURRENCY_IDS.USDT);
  prices.set(CURRENCY_IDS.USDT, '1');
  prices.set(CURRENCY_IDS.BANK, '1');
  return prices;
}
