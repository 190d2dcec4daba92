import { compareDecimal, daysAccrued, dec } from '@verdant/engine';
import type { Queryable } from '../../db/client.ts';
import { type Posting, postMany } from '../../ledger/ledger.ts';
import { ORDER_SELECT, type OrderRow } from './store.ts';

// Daily interest and maturity: what an order is owed by a moment, and paying it in the
// transaction that moves the order forward (the accrual job and early redemption share this).

/** How often the accrual job looks for payouts that fell due (payout times are start + k days). */
export const ACCRUAL_INTERVAL_MS = 60_000;
/** Orders paid per transaction by the job. */
export const ACCRUAL_BATCH = 500;

/** What one order is owed by `now`: days not yet paid, their interest, and whether it matures. */
export function dueOf(o: OrderRow, now: number, dayMs: number) {
  const days = daysAccrued(Number(o.started_at), now, o.term_days, dayMs);
  const newDays = Math.max(0, days - o.days_paid);
  return {
    days,
    newDays,
    interest: dec(o.daily_interest).times(newDays).toFixed(),
    matures: days === o.term_days,
  };
}

/**
 * The postings that bring an order up to `now`: the interest of the days not yet paid, from the
 * trust pool to the user's trust account, and at maturity the principal unfrozen. Empty when
 * nothing is due.
 */
function accrualPostings(o: OrderRow, now: number, dayMs: number): Posting[] {
  const d = dueOf(o, now, dayMs);
  const account = { userId: o.user_id, type: 'trust' as const, currencyId: o.currency_id };
  const out: Posting[] = [];
  if (d.newDays > 0 && compareDecimal(d.interest, '0') > 0)
    out.push({
      reason: 'trust_interest',
      refType: 'trust_order',
      refId: o.id,
      legs: [
        { account, available: d.interest },
        { account: { house: 'trust_pool', currencyId: o.currency_id }, available: `-${d.interest}` },
      ],
    });
  if (d.matures)
    out.push({
      reason: 'trust_maturity',
      refType: 'trust_order',
      refId: o.id,
      legs: [
        { account, frozen: `-${o.amount}` },
        { account, available: o.amount },
      ],
    });
  return out;
}

/**
 * Hosting orders with a payout time at or before `now` (the next payout of each order is
 * started_at + (days_paid + 1) days), at most ACCRUAL_BATCH, locked for the transaction.
 */
export function dueForUpdate(q: Queryable, now: number, dayMs: number): Promise<OrderRow[]> {
  return q.query<OrderRow>(
    `SELECT ${ORDER_SELECT} FROM trust_orders o
      WHERE o.status = 'hosting' AND o.started_at + (o.days_paid + 1) * $2::int * interval '1 millisecond' <= $1
      ORDER BY o.id LIMIT ${ACCRUAL_BATCH} FOR UPDATE`,
    [new Date(now).toISOString(), dayMs],
  );
}

/**
 * Brings locked orders (rows read FOR UPDATE in this transaction) up to `now`: money through the
 * ledger and the rows moved forward in the same transaction. Answers the orders that changed.
 */
export async function accrueLocked(
  q: Queryable,
  rows: OrderRow[],
  now: number,
  dayMs: number,
): Promise<OrderRow[]> {
  const changed = rows.filter((o) => o.status === 'hosting' && dueOf(o, now, dayMs).newDays > 0);
  if (changed.length === 0) return [];
  const postings = changed.flatMap((o) => accrualPostings(o, now, dayMs));
  if (postings.length > 0) {
    const results = await postMany(q, postings);
    // interest and maturity only credit users or unfreeze what the order froze: a refusal is a bug
    if (results.some((r) => !r.ok)) throw new Error('trust accrual: a posting was refused');
  }
  const days = changed.map((o) => dueOf(o, now, dayMs).days);
  await q.query(
    `UPDATE trust_orders o
        SET days_paid = u.days, interest_paid = o.daily_interest * u.days,
            status = CASE WHEN u.days = o.term_days THEN 'completed' ELSE o.status END,
            ended_at = CASE WHEN u.days = o.term_days THEN o.matures_at ELSE o.ended_at END
       FROM unnest($1::bigint[], $2::int[]) AS u(id, days)
      WHERE o.id = u.id AND o.status = 'hosting' AND o.days_paid < u.days`,
    [changed.map((o) => o.id), days],
  );
  return changed;
}
