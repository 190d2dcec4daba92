import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';

/** Trades, base and quote volume per spot market since `since` (the operators' dashboard). */
export async function marketVolumes(q: Queryable, since: Date) {
  const rows = await q.query<{ symbol: string; trades: number; base_volume: string; quote_volume: string }>(
    `SELECT upper(m.symbol) AS symbol, count(t.id)::int AS trades, COALESCE(sum(t.qty), 0)::text AS base_volume,
            COALESCE(sum(t.amount), 0)::text AS quote_volume
       FROM markets m LEFT JOIN trades t ON t.market_id = m.id AND t.created_at >= $1
      WHERE m.enabled GROUP BY m.id, m.symbol, m.sort ORDER BY m.sort, m.id`,
    [since],
  );
  return rows.map((r) => ({ ...r, base_volume: canon(r.base_volume), quote_volume: canon(r.quote_volume) }));
}
