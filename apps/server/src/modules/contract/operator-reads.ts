import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';

/** A user's latest contract positions as the operators' user detail lists them. */
export async function userContractPositions(q: Queryable, userId: number, limit = 50) {
  const rows = await q.query<{
    id: string;
    symbol: string;
    direction: string;
    status: string;
    lots: number;
    multiple: number;
    margin: string;
    price: string;
    pnl: string | null;
    created_at: Date;
  }>(
    `SELECT p.id::text, upper(m.symbol) AS symbol, p.direction, p.status, p.lots, p.multiple,
            p.margin::text, p.price::text, p.pnl::text, p.created_at
       FROM contract_positions p JOIN contract_markets c ON c.id = p.contract_id
       JOIN markets m ON m.id = c.market_id
      WHERE p.user_id = $1 ORDER BY p.id DESC LIMIT $2`,
    [userId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.symbol,
    status: r.status,
    amount: canon(r.margin),
    detail: `${r.direction} ${r.lots} lots ×${r.multiple} @ ${canon(r.price)}${r.pnl === null ? '' : ` · pnl ${canon(r.pnl)}`}`,
    created_at: r.created_at,
  }));
}

/** Open interest per contract market: positions holding, their lots and margin. */
export async function openInterest(q: Queryable) {
  const rows = await q.query<{ symbol: string; positions: number; lots: number; margin: string }>(
    `SELECT upper(m.symbol) AS symbol, count(p.id)::int AS positions, COALESCE(sum(p.lots), 0)::int AS lots,
            COALESCE(sum(p.margin), 0)::text AS margin
       FROM contract_markets c JOIN markets m ON m.id = c.market_id
       LEFT JOIN contract_positions p ON p.contract_id = c.id AND p.status = 'holding'
      GROUP BY c.id, m.symbol, c.sort ORDER BY c.sort, c.id`,
  );
  return rows.map((r) => ({ ...r, margin: canon(r.margin) }));
}
