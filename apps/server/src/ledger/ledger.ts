import type { WalletAccountType } from '@verdant/api';
import { fromScaled, parseDecimal, toScaled } from '@verdant/engine';
import type { Queryable } from '../db/client.ts';
import { plainArray, textArray } from '../db/values.ts';
import { AppError } from '../http/errors.ts';

/** A user's account: one of the wallet's four (the list is the contract's WALLET_ACCOUNT_TYPES). */
export type UserAccountType = WalletAccountType;

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
  // the platform's own capital: funds the house market maker and the demo funds of newcomers
  'treasury',
  // the other side of manual balance adjustments approved by two operators
  'adjustments',
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

/**
 * NUMERIC(36, 18): a delta with more places would be rounded by the database behind our back.
 * Amounts are held as bigint counts of 10^-18 (exact, and cheap on the order path).
 */
const PLACES = 18;
// zero is most entries' frozen or available side: skip the conversion
const str = (v: bigint) => (v === 0n ? '0' : fromScaled(v, PLACES));
/**
 * The same amount as the database reads it: the count with an exponent ("1500e-18"), which
 * NUMERIC parses exactly. No decimal point to place, so no padding and trimming per amount
 * (four per entry written: a tenth of the CPU of a 5,000-posting write was fromScaled).
 */
const sqlAmount = (v: bigint) => (v === 0n ? '0' : `${v}e-${PLACES}`);

function amount(v: string | undefined): bigint {
  if (v === undefined) return 0n;
  const out = toScaled(v.trim(), PLACES);
  if (out !== null) return out;
  if (parseDecimal(v) === null) throw new Error(`ledger: not a decimal amount: ${v}`);
  throw new Error(`ledger: more than ${PLACES} decimals: ${v}`);
}

interface MergedLeg {
  account: AccountRef;
  key: string;
  available: bigint;
  frozen: bigint;
}

/**
 * The rules every posting obeys, in one place for post() and postMany(): legs on the same
 * account merge, each currency sums to zero (value is moved, never made), and a posting moves
 * something. Throws on a broken rule: that is a bug of the caller, not a user's mistake.
 */
function legsOf(p: Posting): MergedLeg[] {
  const merged = new Map<string, MergedLeg>();
  const perCurrency = new Map<number, bigint>();
  for (const leg of p.legs) {
    const av = amount(leg.available);
    const fr = amount(leg.frozen);
    const key = keyOf(leg.account);
    const m = merged.get(key);
    if (m) {
      m.available += av;
      m.frozen += fr;
    } else merged.set(key, { account: leg.account, key, available: av, frozen: fr });
    const c = leg.account.currencyId;
    perCurrency.set(c, (perCurrency.get(c) ?? 0n) + av + fr);
  }
  for (const [currency, sum] of perCurrency) {
    if (sum !== 0n)
      throw new Error(
        `ledger: posting '${p.reason}' does not sum to zero in currency ${currency}: ${str(sum)}`,
      );
  }
  const legs = [...merged.values()].filter((l) => l.available !== 0n || l.frozen !== 0n);
  if (legs.length === 0) throw new Error(`ledger: posting '${p.reason}' moves nothing`);
  return legs;
}

interface LockedAccount {
  id: string;
  /** The id as a number for ordering (bigserial values stay far below 2^53). */
  order: number;
  house: boolean;
  available: bigint;
  frozen: bigint;
}

interface AccountRow {
  id: string;
  user_id: number | null;
  type: string;
  house: string | null;
  currency_id: number;
  available: string;
  frozen: string;
}

const rowKey = (r: AccountRow) =>
  r.house !== null ? `h:${r.house}:${r.currency_id}` : `u:${r.user_id}:${r.type}:${r.currency_id}`;

/**
 * Locks the accounts (creating missing rows) in id order, so concurrent postings cannot
 * deadlock, and answers them by key. Two statements when every account exists, four otherwise.
 */
async function lockAccounts(
  q: Queryable,
  refs: Map<string, AccountRef>,
): Promise<Map<string, LockedAccount>> {
  const users = { user: [] as number[], type: [] as string[], currency: [] as number[] };
  const houses = { house: [] as string[], currency: [] as number[] };
  for (const a of refs.values()) {
    if ('house' in a) {
      houses.house.push(a.house);
      houses.currency.push(a.currencyId);
    } else {
      users.user.push(a.userId);
      users.type.push(a.type);
      users.currency.push(a.currencyId);
    }
  }
  // The ids as one array, computed once (an InitPlan): a lock that had to wait for another
  // transaction rechecks each row it waited for against that array, where an IN (subquery)
  // would run the whole join again per row (measured: ~6 ms for a spot batch behind another).
  // The rows come back as one JSON array: PGlite parses each field of each result row in
  // JavaScript, a third of this statement's time for the 1,000 accounts of a settlement batch.
  const select = async (): Promise<AccountRow[]> => {
    const [r] = await q.query<{ rows: string | null }>(
      `SELECT json_agg(json_build_object('id', a.id::text, 'user_id', a.user_id, 'type', a.type, 'house', a.house,
                                         'currency_id', a.currency_id, 'available', a.available::text,
                                         'frozen', a.frozen::text))::text AS rows
         FROM (SELECT * FROM ledger_accounts a
                WHERE a.id = ANY (ARRAY(
                  SELECT l.id FROM ledger_accounts l
                    JOIN unnest($1::int[], $2::text[], $3::int[]) AS u(user_id, type, currency_id)
                      ON l.user_id = u.user_id AND l.type = u.type AND l.currency_id = u.currency_id
                  UNION ALL
                  SELECT l.id FROM ledger_accounts l
                    JOIN unnest($4::text[], $5::int[]) AS h(house, currency_id)
                      ON l.house = h.house AND l.currency_id = h.currency_id))
                ORDER BY a.id
                  FOR UPDATE) a`,
      [
        plainArray(users.user),
        plainArray(users.type),
        plainArray(users.currency),
        plainArray(houses.house),
        plainArray(houses.currency),
      ],
    );
    return JSON.parse(r?.rows ?? '[]') as AccountRow[];
  };
  let rows = await select();
  if (rows.length < refs.size) {
    // First use of some accounts: create the missing rows, then lock the whole set again in
    // id order (rows locked by the first SELECT stay locked: we already hold them).
    if (users.user.length > 0)
      await q.query(
        `INSERT INTO ledger_accounts (user_id, type, currency_id)
         SELECT * FROM unnest($1::int[], $2::text[], $3::int[]) ORDER BY 1, 2, 3
         ON CONFLICT (user_id, type, currency_id) WHERE user_id IS NOT NULL DO NOTHING`,
        [users.user, users.type, users.currency],
      );
    if (houses.house.length > 0)
      await q.query(
        `INSERT INTO ledger_accounts (house, type, currency_id)
         SELECT h, 'house', c FROM unnest($1::text[], $2::int[]) AS x(h, c) ORDER BY 1, 2
         ON CONFLICT (house, currency_id) WHERE house IS NOT NULL DO NOTHING`,
        [houses.house, houses.currency],
      );
    rows = await select();
  }
  const out = new Map<string, LockedAccount>();
  for (const r of rows)
    out.set(rowKey(r), {
      id: r.id,
      order: Number(r.id),
      house: r.house !== null,
      available: toScaled(r.available, PLACES)!,
      frozen: toScaled(r.frozen, PLACES)!,
    });
  return out;
}

/** What postMany() did with one posting. */
export type PostResult =
  | { ok: true; journalId: string }
  /** Not applied: this user account would have gone below zero. Nothing of it was written. */
  | { ok: false; accountId: string };

/** What LedgerBatch.post() did with one posting (its journal is numbered when written). */
export type Applied = { ok: true } | { ok: false; accountId: string };

/**
 * Accounts locked for the rest of a transaction, postings applied to them in memory in order,
 * and all of it written by one statement. postMany() is lock → post → write; a caller that posts
 * in steps inside one transaction (a spot batch: the freezes, then the fills) locks the accounts
 * it will need in one statement and writes once at the end. Same rules as post() (legsOf), and
 * the CHECK constraints of ledger_accounts stay the last word.
 */
export class LedgerBatch {
  private readonly accounts = new Map<string, LockedAccount>();
  private readonly changed = new Set<LockedAccount>();
  private readonly journals: Posting[] = [];
  private readonly entries = {
    journal: [] as number[],
    account: [] as string[],
    da: [] as string[],
    df: [] as string[],
    aa: [] as string[],
    fa: [] as string[],
  };

  constructor(private readonly q: Queryable) {}

  /**
   * Locks the accounts not yet held (creating missing rows), in id order: one statement when
   * they all exist. post() locks what it lacks by itself; locking up front saves that statement.
   */
  async lock(refs: Iterable<AccountRef>): Promise<void> {
    const missing = new Map<string, AccountRef>();
    for (const a of refs) {
      const key = keyOf(a);
      if (!this.accounts.has(key)) missing.set(key, a);
    }
    if (missing.size === 0) return;
    for (const [key, a] of await lockAccounts(this.q, missing)) this.accounts.set(key, a);
  }

  /**
   * Applies `postings` in order (locking first any account not yet held). A posting that would
   * take a user account below zero is left out and reported, so one order's shortfall does not
   * abort the others; later postings see the balances without it.
   */
  async post(postings: readonly Posting[]): Promise<Applied[]> {
    const all = postings.map(legsOf);
    const refs: AccountRef[] = [];
    for (const legs of all) for (const l of legs) if (!this.accounts.has(l.key)) refs.push(l.account);
    if (refs.length > 0) await this.lock(refs);
    const results: Applied[] = [];
    const e = this.entries;
    for (let i = 0; i < all.length; i++) {
      const legs = all[i]!;
      let short: string | null = null;
      for (const l of legs) {
        const a = this.accounts.get(l.key)!;
        if (a.house) continue;
        if (a.available + l.available < 0n || a.frozen + l.frozen < 0n) {
          short = a.id;
          break;
        }
      }
      if (short !== null) {
        results.push({ ok: false, accountId: short });
        continue;
      }
      // Entries in account-id order within a posting, as post() always wrote them.
      const ordered = legs
        .map((l) => ({ l, a: this.accounts.get(l.key)! }))
        .sort((x, y) => x.a.order - y.a.order);
      const journal = this.journals.length + 1;
      for (const { l, a } of ordered) {
        a.available += l.available;
        a.frozen += l.frozen;
        this.changed.add(a);
        e.journal.push(journal);
        e.account.push(a.id);
        e.da.push(sqlAmount(l.available));
        e.df.push(sqlAmount(l.frozen));
        e.aa.push(sqlAmount(a.available));
        e.fa.push(sqlAmount(a.frozen));
      }
      this.journals.push(postings[i]!);
      results.push({ ok: true });
    }
    return results;
  }

  /**
   * Writes everything posted so far in one statement: the balances, the journals and their
   * entries; answers the journals' ids in posting order. Ids come from the sequences in posting
   * order (nextval over sorted rows), so every account's entries follow the order the postings
   * were applied in, as its balance-after column requires. Each sequence is looked up once per
   * statement (a sub-select, run once), not per row: a catalog look-up per row cost ~6 µs each
   * on PostgreSQL, more on PGlite (17,500 rows for 5,000 option settlements).
   */
  async write(): Promise<string[]> {
    const n = this.journals.length;
    if (n === 0) return [];
    // Taken now, before the statement is even sent: a caller that does not await write() (a
    // spot batch, whose writes leave together) may post again, and that goes in the next write.
    const touched = [...this.changed];
    const js = this.journals.splice(0);
    const e = Object.fromEntries(
      Object.entries(this.entries).map(([k, list]) => [k, list.splice(0)]),
    ) as typeof this.entries;
    this.changed.clear();
    const [written] = await this.q.query<{ journals: string[] }>(
      `WITH balances AS (
         UPDATE ledger_accounts a SET available = u.available, frozen = u.frozen, updated_at = now()
           FROM unnest($1::bigint[], $2::numeric[], $3::numeric[]) AS u(id, available, frozen)
          WHERE a.id = u.id AND (a.available <> u.available OR a.frozen <> u.frozen)
          RETURNING a.id
       ), jid AS (
         SELECT n, nextval((SELECT pg_get_serial_sequence('ledger_journals', 'id')::regclass)) AS id
           FROM (SELECT n FROM generate_series(1, $4::int) AS g(n) ORDER BY n OFFSET 0) g
       ), journals AS (
         INSERT INTO ledger_journals (id, reason, ref_type, ref_id, operator_id) OVERRIDING SYSTEM VALUE
         SELECT jid.id, x.reason, x.ref_type, x.ref_id, x.operator_id
           FROM unnest($5::text[], $6::text[], $7::text[], $8::int[]) WITH ORDINALITY AS x(reason, ref_type, ref_id, operator_id, n)
           JOIN jid ON jid.n = x.n
         RETURNING id
       ), entries AS (
         INSERT INTO ledger_entries (id, journal_id, account_id, delta_available, delta_frozen, available_after, frozen_after)
         OVERRIDING SYSTEM VALUE
         SELECT nextval((SELECT pg_get_serial_sequence('ledger_entries', 'id')::regclass)), s.journal_id, s.account_id, s.da, s.df, s.aa, s.fa
           FROM (SELECT jid.id AS journal_id, y.account_id, y.da, y.df, y.aa, y.fa
                   FROM unnest($9::int[], $10::bigint[], $11::numeric[], $12::numeric[], $13::numeric[], $14::numeric[])
                        WITH ORDINALITY AS y(jn, account_id, da, df, aa, fa, n)
                   JOIN jid ON jid.n = y.jn
                  ORDER BY y.n OFFSET 0) s
         RETURNING id
       )
       SELECT ARRAY(SELECT id::text FROM jid ORDER BY n) AS journals,
              (SELECT count(*) FROM balances) + (SELECT count(*) FROM journals) + (SELECT count(*) FROM entries) AS rows`,
      [
        plainArray(touched.map((a) => a.id)),
        plainArray(touched.map((a) => sqlAmount(a.available))),
        plainArray(touched.map((a) => sqlAmount(a.frozen))),
        n,
        textArray(js.map((p) => p.reason)),
        textArray(js.map((p) => p.refType)),
        textArray(js.map((p) => p.refId)),
        plainArray(js.map((p) => (p.operatorId == null ? 'NULL' : p.operatorId))),
        plainArray(e.journal),
        plainArray(e.account),
        plainArray(e.da),
        plainArray(e.df),
        plainArray(e.aa),
        plainArray(e.fa),
      ],
    );
    return written!.journals;
  }
}

/**
 * Many postings in one go, in a constant number of statements (two when every account exists):
 * the accounts are locked once (in id order), each posting is applied in order in memory with
 * exact decimals, and the results are written in one statement (LedgerBatch).
 */
export async function postMany(q: Queryable, postings: readonly Posting[]): Promise<PostResult[]> {
  if (postings.length === 0) return [];
  const batch = new LedgerBatch(q);
  const applied = await batch.post(postings);
  const ids = await batch.write();
  let next = 0;
  return applied.map((r) => (r.ok ? { ok: true, journalId: ids[next++]! } : r));
}

/**
 * The one way a balance changes. Inside the caller's transaction it applies every leg and
 * writes one entry per leg under one journal. Legs must sum to zero per currency (value is
 * moved, never made); a user account that would go below zero fails the whole posting with
 * InsufficientFunds. Accounts are locked in id order, so concurrent postings cannot deadlock.
 * It is postMany() of one posting: one set of rules.
 */
export async function post(q: Queryable, p: Posting): Promise<string> {
  const [r] = await postMany(q, [p]);
  if (!r!.ok) throw new InsufficientFunds(r!.accountId);
  return r!.journalId;
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
