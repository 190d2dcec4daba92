import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';

/**
 * The latest recorded index price of every market quoted in `quoteCurrencyId`, by its base
 * currency id (other modules value balances with it instead of reading markets and ticks).
 * A market without any tick yet is absent.
 */
export async function latestIndexPrices(q: Queryable, quoteCurrencyId: number): Promise<Map<number, string>> {
  const rows = await q.query<{ currency_id: number; price: string }>(
    `SELECT m.base_currency_id AS currency_id, t.price::text AS price
       FROM markets m
       JOIN LATERAL (SELECT price FROM index_ticks WHERE market_id = m.id
                      ORDER BY created_at DESC, id DESC LIMIT 1) t ON true
      WHERE m.quote_currency_id = $1`,
    [quoteCurrencyId],
  );
  return new Map(rows.map((r) => [r.currency_id, canon(r.price)]));
}
