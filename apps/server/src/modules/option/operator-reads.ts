import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';

/** A user's latest options as the operators' user detail lists them (option owns option_orders). */
export async function userOptionOrders(q: Queryable, userId: number, limit = 50) {
  const rows = await q.query<{
    id: string;
    symbol: string;
    direction: string;
    seconds: number;
    status: string;
    result: string | null;
    amount: string;
    pnl: string | null;
    created_at: Date;
  }>(
    `SELECT o.id::text, upper(m.symbol) AS symbol, o.direction, o.seconds, o.status, o.result,
            o.amount::text, o.pnl::text, o.created_at
       FROM option_orders o JOIN markets m ON m.id = o.market_id
      WHERE o.user_id = $1 ORDER BY o.id DESC LIMIT $2`,
    [userId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.symbol,
    status: r.result ?? r.status,
    amount: canon(r.amount),
    detail: `${r.direction} ${r.seconds}s${r.pnl === null ? '' : ` · pnl ${canon(r.pnl)}`}`,
    created_at: r.created_at,
  }));
}
