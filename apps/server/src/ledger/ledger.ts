import { dec, parseDecimal } from '@verdant/engine';
import type { Queryable } from '../db/client.ts';
import { AppError } from '../http/errors.ts';

export const USER_ACCOUNT_TYPES = ['spot', 'option', 'contract', 'trust'] as const;
export type UserAccountType = (typeof USER_ACCOUNT_TYPES)[number];

/**
 * The platform's side of every movement. `deposits` is credited money arriving from outside
 * (it goes negative by what users were credited), `withdrawals` what was paid out, `fees` what
 * was charged, the pools the counterparties of products.
 */
export const HOUSE_ACCOUNTS = [
  'deposits',
  'withdrawals',
  'fees',
  'option_pool',
  'contract_pool',
  'trust_pool',
  'launchpad',
] as const;
export type HouseAccount = (typeof HOUSE_ACCOUNTS)[number];

export type AccountRef =
  | { userId: number; type: UserAccountType; currencyId: number }
  | { house: HouseAccount; currencyId: number };

export interface Leg {
  account: AccountRef;
  /** Change of the available amount, a decimal string ("-12.5"). */
  available?: string;
  /** Change of the frozen amount. */
  frozen?: string;
}

export interface Posting {
  /** What happened, e.g. 'deposit', 'withdraw_freeze', 'transfer'. */
  reason: string;
  refType?: string;
  refId?: string | number;
  operatorId?: number;
  legs: Leg[];
}

/** A user account would go below zero: the caller words it for its screen ("insufficient sellable balance"). */
export class InsufficientFunds extends AppError {
  constructor(readonly accountId: string) {
    super('INSUFFICIENT_BALANCE', 'ledger.insufficient', {}, 'amount');
  }
}

const keyOf = (a: AccountRef) =>
  'house' in a ? `h:${a.house}:${a.currencyId}` : `u:${a.userId}:${a.type}:${a.currencyId}`;

/** The account's id, creating the row on first use. */
export async function accountId(q: Queryable, a: AccountRef): Promise<string> {
  if ('house' in a) {
    await q.query(
      `INSERT INTO ledger_accounts (house, type, currency_id) VALUES ($1, 'house', $2)
       ON CONFLICT (house, currency_id) WHERE house IS NOT NULL DO NOTHING`,
      [a.house, a.currencyId],
    );
    const [row] = await q.query<{ id: string }>(
      'SELECT id::text FROM ledger_accounts WHERE house = $1 AND currency_id = $2',
      [a.house, a.currencyId],
    );
    return row!.id;
  }
  await q.query(
    `INSERT INTO ledger_accounts (user_id, type, currency_id) VALUES ($1, $2, $3)
     ON CONFLICT (user_id, type, currency_id) WHERE user_id IS NOT NULL DO NOTHING`,
    [a.userId, a.type, a.currencyId],
  );
  const [row] = await q.query<{ id: string }>(
    'SELECT id::text FROM ledger_accounts WHERE user_id = $1 AND type = $2 AND currency_id = $3',
    [a.userId, a.type, a.currencyId],
  );
  return row!.id;
}

function amount(v: string | undefined): string {
  if (v === undefined) return '0';
  const d = parseDecimal(v);
  if (d === null) throw new Error(`ledger: not a decimal amount: ${v}`);
  return d;
}

/**
 * The one way a balance changes. Inside the caller's transaction it applies every leg and
 * writes one entry per leg under one journal. Legs must sum to zero per currency (value is
 * moved, never made); a user account that would go below zero fails the whole posting with
 * InsufficientFunds. Accounts are locked in id order, so concurrent postings cannot deadlock.
 */
export async function post(q: Queryable, p: Posting): Promise<string> {
  const merged = new Map<
    string,
    { account: AccountRef; available: ReturnType<typeof dec>; frozen: ReturnType<typeof dec> }
  >();
  const perCurrency = new Map<number, ReturnType<typeof dec>>();
  for (const leg of p.legs) {
    const av = dec(amount(leg.available));
    const fr = dec(amount(leg.frozen));
    const k = keyOf(leg.account);
    const m = merged.get(k);
    if (m) {
      m.available = m.available.plus(av);
      m.frozen = m.frozen.plus(fr);
    } else merged.set(k, { account: leg.account, available: av, frozen: fr });
    const c = leg.account.currencyId;
    perCurrency.set(c, (perCurrency.get(c) ?? dec('0')).plus(av).plus(fr));
  }
  for (const [currency, sum] of perCurrency) {
    if (!sum.isZero())
      throw new Error(
        `ledger: posting '${p.reason}' does not sum to zero in currency ${currency}: ${sum.toFixed()}`,
      );
  }
  const legs = [...merged.values()].filter((l) => !l.available.isZero() || !l.frozen.isZero());
  if (legs.length === 0) throw new Error(`ledger: posting '${p.reason}' moves nothing`);

  const withIds = await Promise.all(legs.map(async (l) => ({ ...l, id: await accountId(q, l.account) })));
  withIds.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));

  const [journal] = await q.query<{ id: string }>(
    'INSERT INTO ledger_journals (reason, ref_type, ref_id, operator_id) VALUES ($1, $2, $3, $4) RETURNING id::text',
    [p.reason, p.refType ?? null, p.refId === undefined ? null : String(p.refId), p.operatorId ?? null],
  );
  for (const l of withIds) {
    let after: { available: string; frozen: string } | undefined;
    try {
      [after] = await q.query<{ available: string; frozen: string }>(
        `UPDATE ledger_accounts SET available = available + $2, frozen = frozen + $3, updated_at = now()
          WHERE id = $1 RETURNING available::text, frozen::text`,
        [l.id, l.available.toFixed(), l.frozen.toFixed()],
      );
    } catch (e) {
      if ((e as { code?: string }).code === '23514') throw new InsufficientFunds(l.id);
      throw e;
    }
    await q.query(
      `INSERT INTO ledger_entries (journal_id, account_id, delta_available, delta_frozen, available_after, frozen_after)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [journal!.id, l.id, l.available.toFixed(), l.frozen.toFixed(), after!.available, after!.frozen],
    );
  }
  return journal!.id;
}

export interface Balance {
  available: string;
  frozen: string;
}

/** A balance as it stands (zero when the account was never used). */
export async function balanceOf(q: Queryable, a: AccountRef, forUpdate = false): Promise<Balance> {
  const where =
    'house' in a
      ? { sql: 'house = $1 AND currency_id = $2', params: [a.house, a.currencyId] }
      : { sql: 'user_id = $1 AND type = $2 AND currency_id = $3', params: [a.userId, a.type, a.currencyId] };
  const [row] = await q.query<Balance>(
    `SELECT available::text, frozen::text FROM ledger_accounts WHERE ${where.sql}${forUpdate ? ' FOR UPDATE' : ''}`,
    where.params,
  );
  return row ?? { available: '0', frozen: '0' };
}
