import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';

/** A user's latest spot orders as the operators' user detail lists them (spot owns spot_orders). */
export async function userSpotOrders(q: Queryable, userId: number, limit = 50) {
  const rows = await q.query<{
    id: string;
    symbol: string;
    side: string;
    type: string;
    status: string;
    price: string | null;
    qty: string | null;
    amount: string | null;
    filled_qty: string;
    created_at: Date;
  }>(
    `SELECT o.id::text, upper(m.symbol) AS symbol, o.side, o.type, o.status, o.price::text, o.qty::text,
            o.amount::text, o.filled_qty::text, o.created_at
       FROM spot_orders o JOIN markets m ON m.id = o.market_id
      WHERE o.user_id = $1 ORDER BY o.id DESC LIMIT $2`,
    [userId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.symbol,
    status: r.status,
    amount: canon(r.qty ?? r.amount ?? '0'),
    detail: `${r.side} ${r.type}${r.price ? ` @ ${canon(r.price)}` : ''} · filled ${canon(r.filled_qty)}`,
    created_at: r.created_at,
  }));
}
