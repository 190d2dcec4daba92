import type { Queryable } from '../db/client.ts';
import { type Paging, pageOf } from '../db/paging.ts';
import { canon } from '../db/values.ts';
import type { UserAccountType } from './ledger.ts';

/** One entry of a user's statement: what changed, after which posting, and the balance after it. */
export interface StatementEntry {
  id: string;
  journal_id: string;
  type: UserAccountType;
  currency_id: number;
  symbol: string;
  decimals: number;
  reason: string;
  ref_type: string | null;
  ref_id: string | null;
  operator_id: number | null;
  /** Canonical decimal strings. */
  delta_available: string;
  delta_frozen: string;
  available_after: string;
  frozen_after: string;
  created_at: Date;
}

export interface StatementFilter {
  userId: number;
  type?: UserAccountType | undefined;
  currencyId?: number | undefined;
}

/**
 * A user's ledger entries, newest first, one page: the wallet's account flows and the operators'
 * ledger view read the same rows.
 */
export async function statement(
  q: Queryable,
  filter: StatementFilter,
  paging: Paging,
): Promise<{ rows: StatementEntry[]; total: number }> {
  const cond = ['a.user_id = $1'];
  const params: unknown[] = [filter.userId];
  if (filter.type !== undefined) {
    params.push(filter.type);
    cond.push(`a.type = $${params.length}`);
  }
  if (filter.currencyId !== undefined) {
    params.push(filter.currencyId);
    cond.push(`a.currency_id = $${params.length}`);
  }
  const where = cond.join(' AND ');
  const { rows, total } = await pageOf<StatementEntry>(
    q,
    {
      count: `SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
               WHERE ${where}`,
      list: `SELECT e.id::text AS id, e.journal_id::text AS journal_id, a.type, a.currency_id, c.symbol, c.decimals,
                    j.reason, j.ref_type, j.ref_id, j.operator_id,
                    e.delta_available::text AS delta_available, e.delta_frozen::text AS delta_frozen,
                    e.available_after::text AS available_after, e.frozen_after::text AS frozen_after, e.created_at
               FROM ledger_entries e
               JOIN ledger_accounts a ON a.id = e.account_id
               JOIN ledger_journals j ON j.id = e.journal_id
               JOIN currencies c ON c.id = a.currency_id
              WHERE ${where}
              ORDER BY e.id DESC`,
    },
    params,
    paging,
  );
  return {
    rows: rows.map((r) => ({
      ...r,
      delta_available: canon(r.delta_available),
      delta_frozen: canon(r.delta_frozen),
      available_after: canon(r.available_after),
      frozen_after: canon(r.frozen_after),
    })),
    total,
  };
}

/** A user's balance in one account type and currency, as canonical decimal strings. */
export interface UserBalance {
  type: UserAccountType;
  currency_id: number;
  available: string;
  frozen: string;
}

/** Every account the user has used (an account never used has no row: its balance is zero). */
export async function userBalances(q: Queryable, userId: number): Promise<UserBalance[]> {
  const rows = await q.query<UserBalance>(
    `SELECT type, currency_id, available::text AS available, frozen::text AS frozen
       FROM ledger_accounts WHERE user_id = $1`,
    [userId],
  );
  return rows.map((r) => ({ ...r, available: canon(r.available), frozen: canon(r.frozen) }));
}

/** The balances (available + frozen) of these house accounts, per currency, as decimal strings. */
export async function houseBalances(
  q: Queryable,
  houses: readonly string[],
): Promise<{ house: string; currency_id: number; balance: string }[]> {
  const rows = await q.query<{ house: string; currency_id: number; balance: string }>(
    `SELECT house, currency_id, (available + frozen)::text AS balance FROM ledger_accounts
      WHERE house = ANY($1::text[]) ORDER BY house, currency_id`,
    [houses],
  );
  return rows.map((r) => ({ ...r, balance: canon(r.balance) }));
}
