import type { Queryable } from '../../db/client.ts';

/**
 * USDT prices of currencies, for valuations (the assets tab's total). USDT and Bank (US dollars)
 * count one to one. A coin is valued at the latest recorded index tick of its USDT market (the
 * same recorded prices the charts show); a coin without a USDT market or without any tick yet
 * has no price, and the valuation says so (`valued: false`) rather than invent a number.
 */
export const USDT_CURRENCY_ID = 3;
const BANK_USD = 9999;

export type UsdtPrices = ReadonlyMap<number, string>;

export async function usdtPrices(q: Queryable): Promise<UsdtPrices> {
  const rows = await q.query<{ currency_id: number; price: string }>(
    `SELECT m.base_currency_id AS currency_id, t.price::text AS price
       FROM markets m
       JOIN LATERAL (SELECT price FROM index_ticks WHERE market_id = m.id
                      ORDER BY created_at DESC, id DESC LIMIT 1) t ON true
      WHERE m.quote_currency_id = $1`,
    [USDT_CURRENCY_ID],
  );
  const prices = new Map<number, string>(rows.map((r) => [r.currency_id, r.price]));
  prices.set(USDT_CURRENCY_ID, '1');
  prices.set(BANK_USD, '1');
  return prices;
}
