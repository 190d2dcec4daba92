import type { TrustOrderStatus, TrustPenaltyRuleName, TrustProductState } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';

// The trust tables' rows in and out (trust_products, trust_orders). Nothing here decides anything.

export interface ProductRow {
  id: number;
  name: Record<string, string>;
  currency_id: number;
  term_days: number;
  min_amount: string;
  daily_rate: string;
  state: TrustProductState;
  capacity: string;
  sold: string;
  penalty_rule: TrustPenaltyRuleName;
  penalty_rate: string;
}

export interface OrderRow {
  id: string;
  user_id: number;
  product_id: number;
  currency_id: number;
  amount: string;
  term_days: number;
  daily_rate: string;
  daily_interest: string;
  penalty_rule: TrustPenaltyRuleName;
  penalty_rate: string;
  started_at: string;
  days_paid: number;
  interest_paid: string;
  status: TrustOrderStatus;
  penalty: string | null;
  ended_at: string | null;
}

const PRODUCT_SELECT = `id, name, currency_id, term_days, min_amount::text, daily_rate::text, state,
  capacity::text, sold::text, penalty_rule, penalty_rate::text`;
const ms = (col: string) => `(extract(epoch FROM ${col}) * 1000)::bigint::text`;
/** An order's columns (table alias `o`), its moments as epoch milliseconds in text. */
export const ORDER_SELECT = `o.id::text, o.user_id, o.product_id, o.currency_id, o.amount::text, o.term_days,
  o.daily_rate::text, o.daily_interest::text, o.penalty_rule, o.penalty_rate::text,
  ${ms('o.started_at')} AS started_at, o.days_paid, o.interest_paid::text, o.status, o.penalty::text,
  ${ms('o.ended_at')} AS ended_at`;

export const productRows = (q: Queryable) =>
  q.query<ProductRow>(`SELECT ${PRODUCT_SELECT} FROM trust_products ORDER BY sort, id`);

export async function productRow(q: Queryable, id: number): Promise<ProductRow | undefined> {
  const [p] = await q.query<ProductRow>(`SELECT ${PRODUCT_SELECT} FROM trust_products WHERE id = $1`, [id]);
  return p;
}

export const orderRows = (q: Queryable, ids: string[]) =>
  q.query<OrderRow>(
    `SELECT ${ORDER_SELECT} FROM trust_orders o WHERE o.id = ANY ($1::bigint[]) ORDER BY o.id`,
    [ids],
  );

/** A user's order, locked for the rest of the transaction. */
export async function ownOrderForUpdate(
  q: Queryable,
  id: string,
  userId: number,
): Promise<OrderRow | undefined> {
  const [o] = await q.query<OrderRow>(
    `SELECT ${ORDER_SELECT} FROM trust_orders o WHERE o.id = $1 AND o.user_id = $2 FOR UPDATE`,
    [id, userId],
  );
  return o;
}

/**
 * Takes `amount` of the product's capacity in one conditional UPDATE (parallel purchases never
 * oversell). Answers null when taken, else what the product has left.
 */
export async function takeCapacity(q: Queryable, productId: number, amount: string): Promise<string | null> {
  const taken = await q.query(
    `UPDATE trust_products SET sold = sold + $2 WHERE id = $1 AND state = 'ongoing' AND sold + $2 <= capacity
     RETURNING id`,
    [productId, amount],
  );
  if (taken.length > 0) return null;
  const [left] = await q.query<{ left: string }>(
    'SELECT (capacity - sold)::text AS left FROM trust_products WHERE id = $1',
    [productId],
  );
  return left?.left ?? '0';
}

export async function insertOrder(
  q: Queryable,
  o: {
    userId: number;
    p: ProductRow;
    amount: string;
    dailyInterest: string;
    startedAt: Date;
    maturesAt: Date;
  },
): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO trust_orders (user_id, product_id, currency_id, amount, term_days, daily_rate, daily_interest,
                               penalty_rule, penalty_rate, started_at, matures_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id::text`,
    [
      o.userId,
      o.p.id,
      o.p.currency_id,
      o.amount,
      o.p.term_days,
      o.p.daily_rate,
      o.dailyInterest,
      o.p.penalty_rule,
      o.p.penalty_rate,
      o.startedAt.toISOString(),
      o.maturesAt.toISOString(),
    ],
  );
  return row!.id;
}

export async function markRedeemed(q: Queryable, id: string, penalty: string, at: Date): Promise<void> {
  await q.query(
    `UPDATE trust_orders SET status = 'redeemed', penalty = $2, ended_at = $3 WHERE id = $1 AND status = 'hosting'`,
    [id, penalty, at.toISOString()],
  );
}

/** Per currency: principal still hosted and interest received; and the user's orders per status. */
export async function reportRows(q: Queryable, userId: number) {
  const [sums, counts] = await Promise.all([
    q.query<{ currency_id: number; hosted: string | null; income: string | null }>(
      `SELECT currency_id, sum(amount) FILTER (WHERE status = 'hosting')::text AS hosted,
              sum(interest_paid)::text AS income
         FROM trust_orders WHERE user_id = $1 GROUP BY currency_id ORDER BY currency_id`,
      [userId],
    ),
    q.query<{ status: TrustOrderStatus; n: number }>(
      'SELECT status, count(*)::int AS n FROM trust_orders WHERE user_id = $1 GROUP BY status',
      [userId],
    ),
  ]);
  return { sums, counts };
}
