import type { LaunchpadOrderStatus } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';

// The launchpad tables' rows in and out (launchpad_projects, launchpad_orders). Nothing here
// decides anything.

export interface ProjectRow {
  id: number;
  name: Record<string, string>;
  intro: Record<string, string>;
  coin_currency_id: number;
  pay_currency_id: number;
  issue_price: string;
  total_supply: string;
  subscribed: string;
  user_min: string;
  user_max: string;
  starts_at: Date;
  ends_at: Date;
  launch_at: Date;
  lockup_days: number;
  expected_return: string;
  recommend: boolean;
  tick_size: string;
  lot_size: string;
  market_id: number | null;
}

export interface OrderRow {
  id: string;
  user_id: number;
  project_id: number;
  amount: string;
  status: LaunchpadOrderStatus;
  quantity: string | null;
  cost: string | null;
  refund: string | null;
  unlock_at: Date | null;
  redeemed_at: Date | null;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  reason: string | null;
  created_at: Date;
}

const PROJECT_SELECT = `id, name, intro, coin_currency_id, pay_currency_id, issue_price::text, total_supply::text,
  subscribed::text, user_min::text, user_max::text, starts_at, ends_at, launch_at, lockup_days,
  expected_return::text, recommend, tick_size::text, lot_size::text, market_id`;
/** A subscription's columns (table alias `o`). */
export const ORDER_SELECT = `o.id::text, o.user_id, o.project_id, o.amount::text, o.status, o.quantity::text, o.cost::text,
  o.refund::text, o.unlock_at, o.redeemed_at, o.reviewed_by, o.reviewed_at, o.reason, o.created_at`;

export const projectRows = (q: Queryable) =>
  q.query<ProjectRow>(`SELECT ${PROJECT_SELECT} FROM launchpad_projects ORDER BY sort, id`);

/** One project; with `forUpdate` its row stays locked for the rest of the transaction. */
export async function projectRow(q: Queryable, id: number | string, forUpdate = false) {
  const [p] = await q.query<ProjectRow>(
    `SELECT ${PROJECT_SELECT} FROM launchpad_projects WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return p;
}

export const orderRows = (q: Queryable, ids: string[]) =>
  q.query<OrderRow>(`SELECT ${ORDER_SELECT} FROM launchpad_orders o WHERE o.id = ANY ($1::bigint[])`, [ids]);

/** A subscription locked for the transaction; with `userId`, only that user's. */
export async function orderForUpdate(
  q: Queryable,
  id: string,
  userId?: number,
): Promise<OrderRow | undefined> {
  const [o] =
    userId === undefined
      ? await q.query<OrderRow>(`SELECT ${ORDER_SELECT} FROM launchpad_orders o WHERE o.id = $1 FOR UPDATE`, [
          id,
        ])
      : await q.query<OrderRow>(
          `SELECT ${ORDER_SELECT} FROM launchpad_orders o WHERE o.id = $1 AND o.user_id = $2 FOR UPDATE`,
          [id, userId],
        );
  return o;
}

/** What a user has subscribed to a project, rejected subscriptions aside (null: nothing). */
export async function userSubscribed(
  q: Queryable,
  userId: number,
  projectId: number,
): Promise<string | null> {
  const [m] = await q.query<{ s: string | null }>(
    `SELECT sum(amount)::text AS s FROM launchpad_orders WHERE user_id = $1 AND project_id = $2 AND status <> 'rejected'`,
    [userId, projectId],
  );
  return m?.s ?? null;
}

/** Takes `amount` of a project's capacity (its row locked by the caller). */
export async function addSubscribed(q: Queryable, projectId: number, amount: string): Promise<void> {
  await q.query('UPDATE launchpad_projects SET subscribed = subscribed + $2 WHERE id = $1', [
    projectId,
    amount,
  ]);
}

/** Frees `amount` of a project's capacity (a refund). */
export async function freeSubscribed(q: Queryable, projectId: number, amount: string): Promise<void> {
  await q.query('UPDATE launchpad_projects SET subscribed = subscribed - $2 WHERE id = $1', [
    projectId,
    amount,
  ]);
}

export async function insertOrder(
  q: Queryable,
  userId: number,
  projectId: number,
  amount: string,
  at: Date,
): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO launchpad_orders (user_id, project_id, amount, created_at) VALUES ($1, $2, $3, $4) RETURNING id::text`,
    [userId, projectId, amount, at.toISOString()],
  );
  return row!.id;
}

export async function markRedeemed(q: Queryable, id: string, at: Date): Promise<void> {
  await q.query('UPDATE launchpad_orders SET redeemed_at = $2 WHERE id = $1', [id, at.toISOString()]);
}

/** Decided once: the UPDATE itself requires the review state (the row lock guards it too). */
function decidedOnce(rows: unknown[]): void {
  if (rows.length === 0) throw new AppError('ALREADY_REVIEWED', 'launchpad.alreadyReviewed', {}, 'id');
}

export async function markPassed(
  q: Queryable,
  id: string,
  a: { quantity: string; cost: string; refund: string; unlockAt: Date; opId: number; at: Date },
): Promise<void> {
  decidedOnce(
    await q.query(
      `UPDATE launchpad_orders SET status = 'passed', quantity = $2, cost = $3, refund = $4, unlock_at = $5,
              reviewed_by = $6, reviewed_at = $7 WHERE id = $1 AND status = 'review' RETURNING id`,
      [id, a.quantity, a.cost, a.refund, a.unlockAt.toISOString(), a.opId, a.at.toISOString()],
    ),
  );
}

export async function markRejected(q: Queryable, id: string, reason: string, opId: number, at: Date) {
  decidedOnce(
    await q.query(
      `UPDATE launchpad_orders SET status = 'rejected', reason = $2, reviewed_by = $3, reviewed_at = $4
        WHERE id = $1 AND status = 'review' RETURNING id`,
      [id, reason, opId, at.toISOString()],
    ),
  );
}

/** The users' login accounts (email, else mobile), for operators' lists. */
export const accountsOf = (q: Queryable, userIds: number[]) =>
  q.query<{ id: number; account: string | null }>(
    'SELECT id, coalesce(email, mobile) AS account FROM users WHERE id = ANY ($1::int[])',
    [userIds],
  );

/** Launched projects (launch_at passed) whose market is not added yet. */
export const unlistedLaunched = (q: Queryable, at: Date) =>
  q.query<{ id: number }>(
    'SELECT id FROM launchpad_projects WHERE market_id IS NULL AND launch_at <= $1 ORDER BY id',
    [at.toISOString()],
  );

/** The earliest launch time of a project not yet listed, or null. */
export async function nextLaunch(q: Queryable): Promise<Date | null> {
  const [r] = await q.query<{ at: string | null }>(
    `SELECT (extract(epoch FROM min(launch_at)) * 1000)::bigint::text AS at
       FROM launchpad_projects WHERE market_id IS NULL`,
  );
  return r?.at ? new Date(Number(r.at)) : null;
}

export async function setMarket(q: Queryable, projectId: number, marketId: number): Promise<void> {
  await q.query('UPDATE launchpad_projects SET market_id = $2 WHERE id = $1', [projectId, marketId]);
}

/** The market already trading this pair, if any. */
export async function marketOfPair(q: Queryable, base: number, quote: number): Promise<number | undefined> {
  const [m] = await q.query<{ id: number }>(
    'SELECT id FROM markets WHERE base_currency_id = $1 AND quote_currency_id = $2',
    [base, quote],
  );
  return m?.id;
}

/** The price of a market's latest trade, if it traded. */
export async function lastTradePrice(q: Queryable, marketId: number): Promise<string | undefined> {
  const [t] = await q.query<{ price: string }>(
    'SELECT price::text AS price FROM trades WHERE market_id = $1 ORDER BY id DESC LIMIT 1',
    [marketId],
  );
  return t?.price;
}
