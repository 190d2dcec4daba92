import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';

/** A user's deposit products as the operators' user detail lists them (trust owns trust_orders). */
export async function userTrustOrders(q: Queryable, userId: number, limit = 50) {
  const rows = await q.query<{
    id: string;
    product_id: number;
    status: string;
    amount: string;
    term_days: number;
    days_paid: number;
    interest_paid: string;
    started_at: Date;
  }>(
    `SELECT id::text, product_id, status, amount::text, term_days, days_paid, interest_paid::text, started_at
       FROM trust_orders WHERE user_id = $1 ORDER BY id DESC LIMIT $2`,
    [userId, limit],
  );
  return rows.map((r) => ({
    id: r.id,
    title: `#${r.product_id} · ${r.term_days}d`,
    status: r.status,
    amount: canon(r.amount),
    detail: `${r.days_paid}/${r.term_days} days · interest ${canon(r.interest_paid)}`,
    created_at: r.started_at,
  }));
}
