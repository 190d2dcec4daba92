import type { Queryable } from '../../db/client.ts';
import { type Paging, pageOf } from '../../db/paging.ts';

// The operators' reads of deposit and withdrawal requests: the tables are this module's, so
// the operators' module asks here instead of selecting from them.

export type MoneyRequestKind = 'deposit' | 'withdrawal';

const TABLE: Record<MoneyRequestKind, string> = { deposit: 'deposits', withdrawal: 'withdrawals' };
// the stored columns (amounts without trailing zeros): what the operators see and the audit log keeps
const COLUMNS: Record<MoneyRequestKind, string> = {
  deposit: `t.id, t.user_id, t.currency_id, t.chain, t.address, trim_scale(t.amount)::text AS amount, t.image,
    t.status, t.reject_reason, t.reviewed_by, t.reviewed_at, t.created_at`,
  withdrawal: `t.id, t.user_id, t.currency_id, t.chain, t.address, t.bank_card_id, t.bank_snapshot,
    trim_scale(t.amount)::text AS amount, trim_scale(t.fee)::text AS fee, t.remark, t.status, t.tx_ref,
    t.reject_reason, t.reviewed_by, t.reviewed_at, t.created_at`,
};

/** A request as stored, column by column. */
export type StoredMoneyRequest = Record<string, unknown> & { user_id: number; currency_id: number };

/** One request by id, or null; `lock` locks its row in the caller's transaction. */
export async function moneyRequest(
  q: Queryable,
  kind: MoneyRequestKind,
  id: number,
  lock = false,
): Promise<StoredMoneyRequest | null> {
  const [row] = await q.query<StoredMoneyRequest>(
    `SELECT ${COLUMNS[kind]} FROM ${TABLE[kind]} t WHERE t.id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return row ?? null;
}

/** One page of requests in a status (all with null): pending oldest first, the others newest first. */
export async function moneyRequestPage(
  q: Queryable,
  kind: MoneyRequestKind,
  status: string | null,
  paging: Paging,
): Promise<{ rows: StoredMoneyRequest[]; total: number }> {
  const cond = status ? 'WHERE t.status = $1' : '';
  return pageOf<StoredMoneyRequest>(
    q,
    {
      count: `SELECT count(*)::int AS n FROM ${TABLE[kind]} t ${cond}`,
      list: `SELECT ${COLUMNS[kind]} FROM ${TABLE[kind]} t ${cond}
              ORDER BY t.id ${status === 'pending' ? 'ASC' : 'DESC'}`,
    },
    status ? [status] : [],
    paging,
  );
}

/** Per currency: the requests pending, and those approved since `since` (the operators' dashboard). */
export async function moneyRequestTotals(q: Queryable, kind: MoneyRequestKind, since: Date) {
  const rows = await q.query<{
    bucket: 'pending' | 'approved';
    currency_id: number;
    count: number;
    amount: string;
  }>(
    `SELECT CASE WHEN t.status = 'pending' THEN 'pending' ELSE 'approved' END AS bucket, t.currency_id,
            count(*)::int AS count, trim_scale(sum(t.amount))::text AS amount
       FROM ${TABLE[kind]} t
      WHERE t.status = 'pending' OR (t.status = 'approved' AND t.reviewed_at >= $1)
      GROUP BY 1, 2 ORDER BY 1, 2`,
    [since],
  );
  return rows;
}

/** The demo funds a user took, or null (the wallet's demo_funds table). */
export async function demoFundsOf(q: Queryable, userId: number) {
  const [row] = await q.query<{ currency_id: number; amount: string; created_at: Date }>(
    'SELECT currency_id, trim_scale(amount)::text AS amount, created_at FROM demo_funds WHERE user_id = $1',
    [userId],
  );
  return row ?? null;
}
