import {
  type AddWithdrawAddressBody,
  type BankDetails,
  type CurrencyBalance,
  type CurrencyInfo,
  type DepositAddress,
  type DepositAddressBody,
  type DepositRecord,
  type DepositRequestBody,
  type Lang,
  type LedgerFlow,
  type LegalLogBody,
  MONEY_REQUEST_DISPLAY,
  type MoneyRequestState,
  Paths,
  type TransferBody,
  type TransferHistoryQuery,
  type TransferRecord,
  WALLET_ACCOUNT_TYPES,
  type WalletAccount,
  type WalletDetail,
  type WalletDetailBody,
  type WalletList,
  type WalletPageQuery,
  WITHDRAWALS_PER_DAY,
  type WithdrawAddress,
  type WithdrawalLogQuery,
  type WithdrawalRecord,
  type WithdrawBody,
  type WithdrawInfo,
} from '@verdant/api';
import { addDecimal, compareDecimal, dec, parseDecimal, subDecimal, truncateDecimal } from '@verdant/engine';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { type Paging, pageOf, parsePaging } from '../../db/paging.ts';
import { canon, isUniqueViolation } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { codeChannel, codeTarget, parseFundPassword, parseReason, parseTxRef } from '../../http/parse.ts';
import { hasMessage, t } from '../../i18n/index.ts';
import { type AccountRef, InsufficientFunds, post, type UserAccountType } from '../../ledger/ledger.ts';
import { codesService } from '../codes/service.ts';
import { uploadsService } from '../uploads/service.ts';
import { userService } from '../user/service.ts';
import { addressFor, chainFamily, normalizeAddress } from './addresses.ts';
import { type DepositKeys, depositPath } from './keys.ts';
import { USDT_CURRENCY_ID, type UsdtPrices, usdtPrices } from './prices.ts';

/** Amounts stop below NUMERIC(36,18)'s 18 integer digits, so no input can overflow a column. */
const MAX_AMOUNT = '1000000000000000';
const ADDRESS_REMARK_MAX = 50;
const WITHDRAW_REMARK_MAX = 100;
/** Saved withdrawal addresses per user, all currencies together. */
const ADDRESSES_MAX = 50;
const DETAIL_FLOWS = 20;
const ARRIVAL_KEY = 'wallet.arrival';
/** Namespace of the per-user advisory lock that serialises a user's withdrawal requests. */
const WITHDRAW_LOCK_NS = 7253;

interface CurrencyRow {
  id: number;
  symbol: string;
  name: string;
  decimals: number;
  chains: string[];
  is_fiat: boolean;
  min_deposit: string;
  min_withdraw: string;
  withdraw_fee: string;
  can_deposit: boolean;
  can_withdraw: boolean;
}

const CURRENCY_COLUMNS = `id, symbol, name, decimals, chains, is_fiat, min_deposit::text AS min_deposit,
  min_withdraw::text AS min_withdraw, withdraw_fee::text AS withdraw_fee, can_deposit, can_withdraw`;

const show = (v: string, decimals: number): string => truncateDecimal(v, decimals);
const negate = (v: string): string => subDecimal('0', v);
const iso = (d: Date | string): string => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null): string | null => (d === null ? null : iso(d));

/** A balance the user cannot cover: the wallet's own words for it. */
function insufficient(e: unknown): never {
  if (e instanceof InsufficientFunds)
    throw new AppError('INSUFFICIENT_BALANCE', 'wallet.insufficient', {}, 'amount');
  throw e;
}

/** A positive whole id that fits an integer column, or null. */
function parseId(input: string | number | undefined): number | null {
  const s = String(input ?? '').trim();
  if (!/^\d{1,10}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= 2_147_483_647 ? n : null;
}

function parseAccountType(input: string | undefined, field: string): UserAccountType {
  const v = (input ?? '').trim();
  if ((WALLET_ACCOUNT_TYPES as readonly string[]).includes(v)) return v as UserAccountType;
  throw invalid('wallet.accountTypeInvalid', field);
}

function parseAmount(input: string | undefined, cur: CurrencyRow, field = 'amount'): string {
  const s = (input ?? '').trim();
  if (!s) throw invalid('wallet.amountRequired', field);
  const amount = parseDecimal(s, { positive: true, maxDecimals: cur.decimals });
  if (amount === null || compareDecimal(amount, MAX_AMOUNT) >= 0)
    throw invalid('wallet.amountInvalid', field, { decimals: cur.decimals });
  return amount;
}

function parseRemark(input: string | undefined, max: number, field = 'remark'): string | null {
  const s = (input ?? '').trim();
  if (!s) return null;
  if ([...s].length > max || /\p{Cc}/u.test(s)) throw invalid('wallet.remarkTooLong', field, { max });
  return s;
}

const REASON_KEYS = { required: 'wallet.rejectReasonRequired', tooLong: 'wallet.rejectReasonTooLong' };
const TX_REF_KEYS = { required: 'wallet.txRefRequired', tooLong: 'wallet.txRefTooLong' };

const statusText = (lang: Lang, status: MoneyRequestState) => t(lang, `wallet.status.${status}`);

function reasonText(lang: Lang, reason: string): string {
  const key = `wallet.reason.${reason}`;
  return hasMessage(key) ? t(lang, key) : reason;
}

function toCurrencyInfo(c: CurrencyRow): CurrencyInfo {
  return {
    id: c.id,
    symbol: c.symbol,
    name: c.name,
    decimals: c.decimals,
    chains: c.chains,
    is_fiat: c.is_fiat,
    min_deposit: show(c.min_deposit, c.decimals),
    min_withdraw: show(c.min_withdraw, c.decimals),
    withdraw_fee: show(c.withdraw_fee, c.decimals),
    can_deposit: c.can_deposit,
    can_withdraw: c.can_withdraw,
  };
}

// ---- the platform's bank account ---------------------------------------------------------

const BANK_FIELDS = ['bank_name', 'account_name', 'account_number', 'swift'] as const;

/**
 * The bank account users send bank deposits to, from BANK_DETAILS (JSON with bank_name,
 * account_name, account_number, swift, and optionally bank_address and remark). Unset: values
 * that say plainly they are placeholders, with `configured: false`. A malformed value stops
 * the server at start, where the operator sees it.
 */
export function parseBankDetails(raw: string | undefined): BankDetails {
  if (!raw) {
    return {
      bank_name: 'Example Bank (placeholder: set BANK_DETAILS)',
      account_name: 'Verdant (placeholder)',
      account_number: '000-0-00000-0',
      swift: 'XXXXXXXX',
      bank_address: '',
      remark: 'Placeholder bank details: the operator has not configured BANK_DETAILS yet',
      configured: false,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('BANK_DETAILS is not valid JSON');
  }
  const o = (parsed ?? {}) as Record<string, unknown>;
  const text = (k: string) => (typeof o[k] === 'string' ? (o[k] as string).trim() : '');
  const missing = BANK_FIELDS.filter((k) => !text(k));
  if (typeof parsed !== 'object' || Array.isArray(parsed) || missing.length > 0) {
    throw new Error(
      `BANK_DETAILS must be a JSON object with non-empty ${BANK_FIELDS.join(', ')} (missing: ${missing.join(', ')})`,
    );
  }
  return {
    bank_name: text('bank_name'),
    account_name: text('account_name'),
    account_number: text('account_number'),
    swift: text('swift'),
    bank_address: text('bank_address'),
    remark: text('remark'),
    configured: true,
  };
}

// ---- review functions for the operators' module -------------------------------------------

/** A deposit request as stored (operators' view). */
export interface DepositRow {
  id: number;
  user_id: number;
  currency_id: number;
  chain: string | null;
  address: string | null;
  amount: string;
  image: string;
  status: MoneyRequestState;
  reject_reason: string | null;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  created_at: Date;
}

/** A withdrawal request as stored (operators' view). */
export interface WithdrawalRow {
  id: number;
  user_id: number;
  currency_id: number;
  chain: string | null;
  address: string | null;
  bank_card_id: number | null;
  bank_snapshot: Record<string, unknown> | null;
  amount: string;
  fee: string;
  remark: string | null;
  status: MoneyRequestState;
  tx_ref: string | null;
  reject_reason: string | null;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  created_at: Date;
}

const DEPOSIT_ROW = `id, user_id, currency_id, chain, address, amount::text AS amount, image, status,
  reject_reason, reviewed_by, reviewed_at, created_at`;
const WITHDRAWAL_ROW = `id, user_id, currency_id, chain, address, bank_card_id, bank_snapshot,
  amount::text AS amount, fee::text AS fee, remark, status, tx_ref, reject_reason, reviewed_by, reviewed_at,
  created_at`;

function canonRow<T extends { amount: string; fee?: string }>(row: T): T {
  return { ...row, amount: canon(row.amount), ...(row.fee !== undefined ? { fee: canon(row.fee) } : {}) };
}

async function lockPending<T extends { status: MoneyRequestState }>(
  q: Queryable,
  table: 'deposits' | 'withdrawals',
  columns: string,
  idInput: number,
): Promise<T> {
  const id = parseId(idInput);
  const [row] =
    id === null ? [] : await q.query<T>(`SELECT ${columns} FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
  if (!row) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
  if (row.status !== 'pending') throw new AppError('ALREADY_REVIEWED', 'wallet.alreadyReviewed', {}, 'id');
  return row;
}

const spot = (userId: number, currencyId: number): AccountRef => ({ userId, type: 'spot', currencyId });

/**
 * Approves a pending deposit inside the caller's transaction: one posting credits the user's
 * spot account from the house 'deposits' account. Throws ALREADY_REVIEWED when not pending.
 */
export async function approveDeposit(
  q: Queryable,
  depositId: number,
  operatorId: number,
): Promise<DepositRow> {
  const d = await lockPending<DepositRow>(q, 'deposits', DEPOSIT_ROW, depositId);
  await post(q, {
    reason: 'deposit',
    refType: 'deposit',
    refId: d.id,
    operatorId,
    legs: [
      { account: spot(d.user_id, d.currency_id), available: d.amount },
      { account: { house: 'deposits', currencyId: d.currency_id }, available: negate(d.amount) },
    ],
  });
  const [row] = await q.query<DepositRow>(
    `UPDATE deposits SET status = 'approved', reviewed_by = $2, reviewed_at = now() WHERE id = $1
     RETURNING ${DEPOSIT_ROW}`,
    [d.id, operatorId],
  );
  return canonRow(row!);
}

/** Rejects a pending deposit with a reason (nothing was credited, so no money moves). */
export async function rejectDeposit(
  q: Queryable,
  depositId: number,
  operatorId: number,
  reason: string,
): Promise<DepositRow> {
  const why = parseReason(reason, REASON_KEYS);
  const d = await lockPending<DepositRow>(q, 'deposits', DEPOSIT_ROW, depositId);
  const [row] = await q.query<DepositRow>(
    `UPDATE deposits SET status = 'rejected', reject_reason = $3, reviewed_by = $2, reviewed_at = now()
      WHERE id = $1 RETURNING ${DEPOSIT_ROW}`,
    [d.id, operatorId, why],
  );
  return canonRow(row!);
}

/**
 * Approves a pending withdrawal, paid out with the transaction reference `txRef`: one posting
 * takes amount + fee out of the user's frozen spot balance, the amount to the house
 * 'withdrawals' account and the fee to 'fees'.
 */
export async function approveWithdrawal(
  q: Queryable,
  id: number,
  operatorId: number,
  txRef: string,
): Promise<WithdrawalRow> {
  const ref = parseTxRef(txRef, TX_REF_KEYS);
  const w = await lockPending<WithdrawalRow>(q, 'withdrawals', WITHDRAWAL_ROW, id);
  await post(q, {
    reason: 'withdraw',
    refType: 'withdrawal',
    refId: w.id,
    operatorId,
    legs: [
      { account: spot(w.user_id, w.currency_id), frozen: negate(addDecimal(w.amount, w.fee)) },
      { account: { house: 'withdrawals', currencyId: w.currency_id }, available: w.amount },
      { account: { house: 'fees', currencyId: w.currency_id }, available: w.fee },
    ],
  });
  const [row] = await q.query<WithdrawalRow>(
    `UPDATE withdrawals SET status = 'approved', tx_ref = $3, reviewed_by = $2, reviewed_at = now()
      WHERE id = $1 RETURNING ${WITHDRAWAL_ROW}`,
    [w.id, operatorId, ref],
  );
  return canonRow(row!);
}

/** Rejects a pending withdrawal: one posting unfreezes amount + fee back to available. */
export async function rejectWithdrawal(
  q: Queryable,
  id: number,
  operatorId: number,
  reason: string,
): Promise<WithdrawalRow> {
  const why = parseReason(reason, REASON_KEYS);
  const w = await lockPending<WithdrawalRow>(q, 'withdrawals', WITHDRAWAL_ROW, id);
  const total = addDecimal(w.amount, w.fee);
  await post(q, {
    reason: 'withdraw_reject',
    refType: 'withdrawal',
    refId: w.id,
    operatorId,
    legs: [{ account: spot(w.user_id, w.currency_id), available: total, frozen: negate(total) }],
  });
  const [row] = await q.query<WithdrawalRow>(
    `UPDATE withdrawals SET status = 'rejected', reject_reason = $3, reviewed_by = $2, reviewed_at = now()
      WHERE id = $1 RETURNING ${WITHDRAWAL_ROW}`,
    [w.id, operatorId, why],
  );
  return canonRow(row!);
}

// ---- the user's wallet --------------------------------------------------------------------

interface FlowRow {
  id: string;
  created_at: Date;
  type: UserAccountType;
  currency_id: number;
  symbol: string;
  decimals: number;
  reason: string;
  ref_type: string | null;
  ref_id: string | null;
  delta_available: string;
  delta_frozen: string;
  available_after: string;
  frozen_after: string;
}

interface DepositListRow {
  id: number;
  currency_id: number;
  symbol: string;
  decimals: number;
  chain: string | null;
  address: string | null;
  amount: string;
  image: string;
  status: MoneyRequestState;
  reject_reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
}

interface WithdrawalListRow {
  id: number;
  currency_id: number;
  symbol: string;
  decimals: number;
  chain: string | null;
  address: string | null;
  bank_card_id: number | null;
  amount: string;
  fee: string;
  remark: string | null;
  status: MoneyRequestState;
  tx_ref: string | null;
  reject_reason: string | null;
  created_at: Date;
  reviewed_at: Date | null;
}

interface UserFacts {
  verification: string;
  has_fund_password: boolean;
  email: string | null;
  area_code: string | null;
  mobile: string | null;
}

export function walletService(ctx: AppContext, keys: DepositKeys) {
  const { db } = ctx;
  const users = userService(ctx);
  const codes = codesService(ctx);
  const uploads = uploadsService(ctx);
  const bank = parseBankDetails(ctx.config.bankDetails);

  async function currencies(): Promise<CurrencyRow[]> {
    return db.query<CurrencyRow>(`SELECT ${CURRENCY_COLUMNS} FROM currencies ORDER BY sort, id`);
  }

  async function currency(input: string | undefined, field = 'currency_id'): Promise<CurrencyRow> {
    const s = (input ?? '').trim();
    if (!s) throw invalid('wallet.currencyRequired', field);
    const id = parseId(s);
    const [row] =
      id === null
        ? []
        : await db.query<CurrencyRow>(`SELECT ${CURRENCY_COLUMNS} FROM currencies WHERE id = $1`, [id]);
    if (!row) throw new AppError('CURRENCY_UNAVAILABLE', 'wallet.currencyInvalid', {}, field);
    return row;
  }

  /** One of the currency's chains; may be left out when it has only one. */
  function chainOf(cur: CurrencyRow, input: string | undefined): string {
    const s = (input ?? '').trim().toUpperCase();
    if (!s) {
      if (cur.chains.length === 1) return cur.chains[0]!;
      throw invalid('wallet.chainRequired', 'chain');
    }
    const chain = cur.chains.find((c) => c.toUpperCase() === s);
    if (!chain) throw invalid('wallet.chainInvalid', 'chain', { chain: s.slice(0, 20), symbol: cur.symbol });
    return chain;
  }

  async function userFacts(userId: number): Promise<UserFacts> {
    const [u] = await db.query<UserFacts>(
      `SELECT verification, fund_password_hash IS NOT NULL AS has_fund_password, email, area_code, mobile
         FROM users WHERE id = $1`,
      [userId],
    );
    if (!u) throw new AppError('NOT_FOUND', 'errors.notFound');
    return u;
  }

  /** The user's address for a currency and chain: made once, then always the same. */
  async function depositAddressOf(userId: number, cur: CurrencyRow, chain: string): Promise<string> {
    const find = async () =>
      (
        await db.query<{ address: string }>(
          'SELECT address FROM deposit_addresses WHERE user_id = $1 AND currency_id = $2 AND chain = $3',
          [userId, cur.id, chain],
        )
      )[0]?.address;
    const existing = await find();
    if (existing) return existing;
    const family = chainFamily(chain);
    if (!family)
      throw new AppError(
        'CURRENCY_UNAVAILABLE',
        'wallet.chainUnsupported',
        { chain, symbol: cur.symbol },
        'chain',
      );
    const fk = keys[family];
    // non-hardened children of an extended public key: <key>/<currency id>/<user id>
    const child = fk.key.deriveChild(cur.id).deriveChild(userId);
    const address = addressFor(family, child.publicKey!);
    await db.query(
      `INSERT INTO deposit_addresses (user_id, currency_id, chain, address, key_fingerprint, derivation_path)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [userId, cur.id, chain, address, fk.fingerprint, depositPath(fk, cur.id, userId)],
    );
    const made = await find();
    // only a key reused across families or a changed key could collide with another user's address
    if (!made) throw new Error(`deposit address for user ${userId} ${cur.symbol}/${chain} collides`);
    return made;
  }

  function flow(r: FlowRow, lang: Lang): LedgerFlow {
    return {
      id: r.id,
      time: iso(r.created_at),
      type: r.type,
      currency_id: r.currency_id,
      symbol: r.symbol,
      reason: r.reason,
      reason_text: reasonText(lang, r.reason),
      delta_available: show(r.delta_available, r.decimals),
      delta_frozen: show(r.delta_frozen, r.decimals),
      available_after: show(r.available_after, r.decimals),
      frozen_after: show(r.frozen_after, r.decimals),
      ref_type: r.ref_type,
      ref_id: r.ref_id,
    };
  }

  async function flows(
    userId: number,
    filter: { type?: UserAccountType; currencyId?: number },
    paging: Paging,
    lang: Lang,
  ) {
    const cond = ['a.user_id = $1'];
    const params: unknown[] = [userId];
    if (filter.type) {
      params.push(filter.type);
      cond.push(`a.type = $${params.length}`);
    }
    if (filter.currencyId !== undefined) {
      params.push(filter.currencyId);
      cond.push(`a.currency_id = $${params.length}`);
    }
    const where = cond.join(' AND ');
    const { rows, total } = await pageOf<FlowRow>(
      db,
      {
        count: `SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE ${where}`,
        list: `SELECT e.id::text AS id, e.created_at, a.type, a.currency_id, c.symbol, c.decimals, j.reason, j.ref_type,
              j.ref_id, e.delta_available::text AS delta_available, e.delta_frozen::text AS delta_frozen,
              e.available_after::text AS available_after, e.frozen_after::text AS frozen_after
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
    return { list: rows.map((r) => flow(r, lang)), total };
  }

  async function balances(userId: number) {
    const rows = await db.query<{
      type: UserAccountType;
      currency_id: number;
      available: string;
      frozen: string;
    }>(
      `SELECT type, currency_id, available::text AS available, frozen::text AS frozen
         FROM ledger_accounts WHERE user_id = $1`,
      [userId],
    );
    return new Map(rows.map((r) => [`${r.type}:${r.currency_id}`, r]));
  }

  /** One currency in one account: exact total, and its display with the USDT value. */
  function balanceOf(
    c: CurrencyRow,
    b: { available: string; frozen: string } | undefined,
    usdtDecimals: number,
    prices: UsdtPrices,
  ): { view: CurrencyBalance; exactUsdt: string | null; total: string } {
    const available = canon(b?.available ?? '0');
    const frozen = canon(b?.frozen ?? '0');
    const total = addDecimal(available, frozen);
    const price = prices.get(c.id) ?? null;
    const exactUsdt = price === null ? null : dec(total).times(price).toFixed();
    return {
      total,
      exactUsdt,
      view: {
        currency_id: c.id,
        symbol: c.symbol,
        name: c.name,
        decimals: c.decimals,
        total: show(total, c.decimals),
        available: show(available, c.decimals),
        frozen: show(frozen, c.decimals),
        usdt_value: exactUsdt === null ? null : show(exactUsdt, usdtDecimals),
      },
    };
  }

  function depositRecord(r: DepositListRow, lang: Lang): DepositRecord {
    return {
      id: r.id,
      currency_id: r.currency_id,
      symbol: r.symbol,
      chain: r.chain,
      address: r.address,
      amount: show(r.amount, r.decimals),
      image: r.image,
      image_url: `/api/${Paths.upload}/${r.image}`,
      status: r.status,
      status_code: MONEY_REQUEST_DISPLAY[r.status],
      status_text: statusText(lang, r.status),
      reject_reason: r.reject_reason,
      created_at: iso(r.created_at),
      reviewed_at: isoOrNull(r.reviewed_at),
    };
  }

  function withdrawalRecord(r: WithdrawalListRow, lang: Lang): WithdrawalRecord {
    return {
      id: r.id,
      currency_id: r.currency_id,
      symbol: r.symbol,
      chain: r.chain,
      address: r.address,
      bank_card_id: r.bank_card_id,
      amount: show(r.amount, r.decimals),
      fee: show(r.fee, r.decimals),
      total: show(addDecimal(r.amount, r.fee), r.decimals),
      remark: r.remark,
      status: r.status,
      status_code: MONEY_REQUEST_DISPLAY[r.status],
      status_text: statusText(lang, r.status),
      tx_ref: r.tx_ref,
      reject_reason: r.reject_reason,
      created_at: iso(r.created_at),
      reviewed_at: isoOrNull(r.reviewed_at),
    };
  }

  const DEPOSIT_LIST = `SELECT d.id, d.currency_id, c.symbol, c.decimals, d.chain, d.address, d.amount::text AS amount,
      d.image, d.status, d.reject_reason, d.created_at, d.reviewed_at
    FROM deposits d JOIN currencies c ON c.id = d.currency_id`;
  const WITHDRAWAL_LIST = `SELECT w.id, w.currency_id, c.symbol, c.decimals, w.chain, w.address, w.bank_card_id,
      w.amount::text AS amount, w.fee::text AS fee, w.remark, w.status, w.tx_ref, w.reject_reason, w.created_at,
      w.reviewed_at
    FROM withdrawals w JOIN currencies c ON c.id = w.currency_id`;

  async function withdrawalsToday(q: Queryable, userId: number): Promise<number> {
    const [r] = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM withdrawals
        WHERE user_id = $1 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
      [userId],
    );
    return r?.n ?? 0;
  }

  /** Where a crypto withdrawal goes: one of the user's saved addresses for the currency. */
  async function addressDestination(userId: number, cur: CurrencyRow, input: string | undefined) {
    const saved = await db.query<{ id: number; chain: string; address: string }>(
      'SELECT id, chain, address FROM withdraw_addresses WHERE user_id = $1 AND currency_id = $2',
      [userId, cur.id],
    );
    if (saved.length === 0)
      throw new AppError('WITHDRAW_ADDRESS_REQUIRED', 'wallet.withdrawAddressRequired', {}, 'address_id');
    const id = parseId(input);
    const chosen = saved.find((a) => a.id === id);
    if (!chosen)
      throw new AppError('WITHDRAW_ADDRESS_REQUIRED', 'wallet.withdrawAddressChoose', {}, 'address_id');
    if (!cur.chains.includes(chosen.chain))
      throw invalid('wallet.chainInvalid', 'address_id', { chain: chosen.chain, symbol: cur.symbol });
    return { chain: chosen.chain, address: chosen.address, bankCardId: null, bankSnapshot: null };
  }

  /** Where a bank withdrawal goes: one of the user's bank cards, with a copy of its details. */
  async function bankDestination(userId: number, input: string | undefined) {
    let cards: { id: number; card: Record<string, unknown> }[];
    try {
      cards = await db.query(
        `SELECT c.id, to_jsonb(c) - 'user_id' - 'created_at' - 'updated_at' AS card
           FROM bank_cards c WHERE c.user_id = $1`,
        [userId],
      );
    } catch (e) {
      // the bank cards table comes with its own migration; without it nobody has a card
      if ((e as { code?: string }).code !== '42P01') throw e;
      cards = [];
    }
    if (cards.length === 0)
      throw new AppError('WITHDRAW_ADDRESS_REQUIRED', 'wallet.bankCardRequired', {}, 'bank_card_id');
    const id = parseId(input);
    const chosen = cards.find((c) => c.id === id);
    if (!chosen) throw new AppError('WITHDRAW_ADDRESS_REQUIRED', 'wallet.bankCardChoose', {}, 'bank_card_id');
    const card = chosen.card;
    const number = typeof card.card_number === 'string' ? card.card_number : '';
    const label = [
      typeof card.bank_name === 'string' ? card.bank_name : '',
      number ? `****${number.slice(-4)}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return { chain: null, address: label || null, bankCardId: chosen.id, bankSnapshot: card };
  }

  return {
    keys,

    async currencyList(): Promise<CurrencyInfo[]> {
      return (await currencies()).map(toCurrencyInfo);
    },

    /** wallet/list: four accounts × every currency, valued in USDT where a price exists. */
    async list(userId: number): Promise<WalletList> {
      const all = await currencies();
      const have = await balances(userId);
      const usdtDecimals = all.find((c) => c.id === USDT_CURRENCY_ID)?.decimals ?? 6;
      const prices = await usdtPrices(db);
      let grand = dec('0');
      let allValued = true;
      const accounts: WalletAccount[] = WALLET_ACCOUNT_TYPES.map((type) => {
        let sum = dec('0');
        let valued = true;
        const rows = all.map((c) => {
          const b = balanceOf(c, have.get(`${type}:${c.id}`), usdtDecimals, prices);
          if (b.exactUsdt === null) {
            if (compareDecimal(b.total, '0') !== 0) valued = false;
          } else sum = sum.plus(b.exactUsdt);
          return b.view;
        });
        grand = grand.plus(sum);
        allValued &&= valued;
        return { type, total_usdt: show(sum.toFixed(), usdtDecimals), valued, currencies: rows };
      });
      return { total_usdt: show(grand.toFixed(), usdtDecimals), valued: allValued, accounts };
    },

    async detail(userId: number, body: WalletDetailBody, lang: Lang): Promise<WalletDetail> {
      const cur = await currency(body.currency_id);
      const type = parseAccountType(body.type, 'type');
      const all = await currencies();
      const usdtDecimals = all.find((c) => c.id === USDT_CURRENCY_ID)?.decimals ?? 6;
      const b = balanceOf(
        cur,
        (await balances(userId)).get(`${type}:${cur.id}`),
        usdtDecimals,
        await usdtPrices(db),
      );
      const { list } = await flows(
        userId,
        { type, currencyId: cur.id },
        { page: 1, limit: DETAIL_FLOWS, offset: 0 },
        lang,
      );
      return {
        type,
        currency_id: cur.id,
        symbol: cur.symbol,
        name: cur.name,
        decimals: cur.decimals,
        total: b.view.total,
        available: b.view.available,
        frozen: b.view.frozen,
        usdt_value: b.view.usdt_value,
        flows: list,
      };
    },

    async legalLog(userId: number, body: LegalLogBody, lang: Lang) {
      const type = (body.type ?? '').trim() ? parseAccountType(body.type, 'type') : undefined;
      const currencyId = (body.currency_id ?? '').trim() ? (await currency(body.currency_id)).id : undefined;
      const p = parsePaging(body);
      const { list, total } = await flows(
        userId,
        { ...(type ? { type } : {}), ...(currencyId !== undefined ? { currencyId } : {}) },
        p,
        lang,
      );
      return { list, page: p.page, limit: p.limit, total };
    },

    /** wallet/change: between the user's own accounts, one posting. */
    async transfer(userId: number, body: TransferBody): Promise<TransferRecord> {
      const cur = await currency(body.currency_id);
      const from = parseAccountType(body.from, 'from');
      const to = parseAccountType(body.to, 'to');
      if (from === to) throw invalid('wallet.sameAccount', 'to');
      const amount = parseAmount(body.amount, cur);
      const row = await db
        .tx(async (q) => {
          const [tr] = await q.query<{ id: number; created_at: Date }>(
            `INSERT INTO transfers (user_id, currency_id, from_type, to_type, amount) VALUES ($1, $2, $3, $4, $5)
             RETURNING id, created_at`,
            [userId, cur.id, from, to, amount],
          );
          await post(q, {
            reason: 'transfer',
            refType: 'transfer',
            refId: tr!.id,
            legs: [
              { account: { userId, type: from, currencyId: cur.id }, available: negate(amount) },
              { account: { userId, type: to, currencyId: cur.id }, available: amount },
            ],
          });
          return tr!;
        })
        .catch(insufficient);
      return {
        id: row.id,
        currency_id: cur.id,
        symbol: cur.symbol,
        from,
        to,
        amount: show(amount, cur.decimals),
        created_at: iso(row.created_at),
      };
    },

    async transfers(userId: number, query: TransferHistoryQuery) {
      const currencyId = (query.currency_id ?? '').trim() ? (await currency(query.currency_id)).id : null;
      const p = parsePaging(query);
      const cond = currencyId === null ? '' : 'AND t.currency_id = $2';
      const params: unknown[] = currencyId === null ? [userId] : [userId, currencyId];
      const { rows, total } = await pageOf<{
        id: number;
        currency_id: number;
        symbol: string;
        decimals: number;
        from_type: UserAccountType;
        to_type: UserAccountType;
        amount: string;
        created_at: Date;
      }>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM transfers t WHERE t.user_id = $1 ${cond}`,
          list: `SELECT t.id, t.currency_id, c.symbol, c.decimals, t.from_type, t.to_type,
                        t.amount::text AS amount, t.created_at
                   FROM transfers t JOIN currencies c ON c.id = t.currency_id
                  WHERE t.user_id = $1 ${cond}
                  ORDER BY t.id DESC`,
        },
        params,
        p,
      );
      return {
        list: rows.map(
          (r): TransferRecord => ({
            id: r.id,
            currency_id: r.currency_id,
            symbol: r.symbol,
            from: r.from_type,
            to: r.to_type,
            amount: show(r.amount, r.decimals),
            created_at: iso(r.created_at),
          }),
        ),
        page: p.page,
        limit: p.limit,
        total,
      };
    },

    /** wallet/get_in_address: the user's own deposit address, or the platform's bank account. */
    async depositAddress(userId: number, body: DepositAddressBody): Promise<DepositAddress> {
      const cur = await currency(body.currency_id);
      if (!cur.can_deposit)
        throw new AppError(
          'CURRENCY_UNAVAILABLE',
          'wallet.depositDisabled',
          { symbol: cur.symbol },
          'currency_id',
        );
      const base = {
        currency_id: cur.id,
        symbol: cur.symbol,
        min_deposit: show(cur.min_deposit, cur.decimals),
      };
      if (cur.is_fiat) return { ...base, chain: null, address: null, bank };
      const chain = chainOf(cur, body.chain);
      return { ...base, chain, address: await depositAddressOf(userId, cur, chain), bank: null };
    },

    /** wallet/charge_req: a deposit request waiting for review; no balance changes yet. */
    async requestDeposit(userId: number, body: DepositRequestBody, lang: Lang): Promise<DepositRecord> {
      const cur = await currency(body.currency_id);
      if (!cur.can_deposit)
        throw new AppError(
          'CURRENCY_UNAVAILABLE',
          'wallet.depositDisabled',
          { symbol: cur.symbol },
          'currency_id',
        );
      const chain = cur.is_fiat ? null : chainOf(cur, body.chain);
      const amount = parseAmount(body.amount, cur);
      if (compareDecimal(amount, canon(cur.min_deposit)) < 0) {
        throw new AppError(
          'AMOUNT_BELOW_MINIMUM',
          'wallet.minDeposit',
          { min: show(cur.min_deposit, cur.decimals), symbol: cur.symbol },
          'amount',
        );
      }
      const imageInput = (body.image ?? '').trim();
      if (!imageInput) throw invalid('wallet.proofRequired', 'image');
      const image = await uploads.assertOwned(userId, imageInput, 'image');
      const address = chain ? await depositAddressOf(userId, cur, chain) : null;
      let id: number;
      try {
        const [row] = await db.query<{ id: number }>(
          `INSERT INTO deposits (user_id, currency_id, chain, address, amount, image)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [userId, cur.id, chain, address, amount, image],
        );
        id = row!.id;
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'wallet.depositDuplicate', {}, 'image');
        throw e;
      }
      const [row] = await db.query<DepositListRow>(`${DEPOSIT_LIST} WHERE d.id = $1`, [id]);
      return depositRecord(row!, lang);
    },

    async deposits(userId: number, query: WalletPageQuery, lang: Lang) {
      const p = parsePaging(query);
      const { rows, total } = await pageOf<DepositListRow>(
        db,
        {
          count: 'SELECT count(*)::int AS n FROM deposits WHERE user_id = $1',
          list: `${DEPOSIT_LIST} WHERE d.user_id = $1 ORDER BY d.id DESC`,
        },
        [userId],
        p,
      );
      return {
        list: rows.map((r) => depositRecord(r, lang)),
        page: p.page,
        limit: p.limit,
        total,
      };
    },

    async withdrawAddresses(userId: number, currencyInput: string | undefined): Promise<WithdrawAddress[]> {
      const currencyId = (currencyInput ?? '').trim() ? (await currency(currencyInput)).id : null;
      const rows = await db.query<{
        id: number;
        currency_id: number;
        symbol: string;
        chain: string;
        address: string;
        remark: string | null;
        created_at: Date;
      }>(
        `SELECT a.id, a.currency_id, c.symbol, a.chain, a.address, a.remark, a.created_at
           FROM withdraw_addresses a JOIN currencies c ON c.id = a.currency_id
          WHERE a.user_id = $1 ${currencyId === null ? '' : 'AND a.currency_id = $2'}
          ORDER BY a.id DESC`,
        currencyId === null ? [userId] : [userId, currencyId],
      );
      return rows.map((r) => ({ ...r, created_at: iso(r.created_at) }));
    },

    /**
     * wallet/addaddress: checked for its chain, confirmed with the fund password and a code
     * sent (purpose 'address') to the user's own phone or e-mail.
     */
    async addWithdrawAddress(userId: number, body: AddWithdrawAddressBody): Promise<WithdrawAddress> {
      const cur = await currency(body.currency_id);
      if (cur.is_fiat) throw invalid('wallet.bankUsesCard', 'currency_id');
      if (!cur.can_withdraw)
        throw new AppError(
          'CURRENCY_UNAVAILABLE',
          'wallet.withdrawDisabled',
          { symbol: cur.symbol },
          'currency_id',
        );
      const chain = chainOf(cur, body.chain);
      const raw = (body.address ?? '').trim();
      if (!raw) throw invalid('wallet.addressRequired', 'address');
      const address = normalizeAddress(chain, raw);
      if (!address) throw new AppError('ADDRESS_INVALID', 'wallet.addressInvalid', { chain }, 'address');
      const remark = parseRemark(body.remark, ADDRESS_REMARK_MAX);
      const fundPassword = parseFundPassword(body.fund_password, 'fund_password');
      if (!(body.code ?? '').trim()) throw invalid('validation.codeRequired', 'code');
      const codeType = (body.code_type ?? '').trim();
      if (codeType && codeType !== 'mobile' && codeType !== 'email')
        throw invalid('validation.typeInvalid', 'code_type');
      const user = await userFacts(userId);
      if (!user.has_fund_password)
        throw new AppError('FUND_PASSWORD_UNSET', 'fund.unset', {}, 'fund_password');
      const [counts] = await db.query<{ total: number; same: number }>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE currency_id = $2 AND chain = $3 AND address = $4)::int AS same
           FROM withdraw_addresses WHERE user_id = $1`,
        [userId, cur.id, chain, address],
      );
      if ((counts?.same ?? 0) > 0) throw new AppError('CONFLICT', 'wallet.addressExists', {}, 'address');
      if ((counts?.total ?? 0) >= ADDRESSES_MAX)
        throw new AppError('CONFLICT', 'wallet.addressLimit', { max: ADDRESSES_MAX }, 'address');
      await users.verifyFundPassword(userId, fundPassword);
      const channel = codeChannel(codeType, !!user.email);
      const target = codeTarget(user, channel);
      // no code can have been sent to a contact the user does not have
      if (!target) throw new AppError('CODE_INVALID', 'codes.invalid', {}, 'code');
      const codeId = await codes.check({ channel, target, purpose: 'address' }, body.code);
      try {
        const row = await db.tx(async (q) => {
          await codes.consume(q, codeId);
          const [r] = await q.query<{ id: number; created_at: Date }>(
            `INSERT INTO withdraw_addresses (user_id, currency_id, chain, address, remark)
             VALUES ($1, $2, $3, $4, $5) RETURNING id, created_at`,
            [userId, cur.id, chain, address, remark],
          );
          return r!;
        });
        return {
          id: row.id,
          currency_id: cur.id,
          symbol: cur.symbol,
          chain,
          address,
          remark,
          created_at: iso(row.created_at),
        };
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'wallet.addressExists', {}, 'address');
        throw e;
      }
    },

    async deleteWithdrawAddress(userId: number, idInput: string | undefined): Promise<void> {
      const id = parseId(idInput);
      const rows =
        id === null
          ? []
          : await db.query('DELETE FROM withdraw_addresses WHERE id = $1 AND user_id = $2 RETURNING id', [
              id,
              userId,
            ]);
      if (rows.length === 0) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
    },

    /** wallet/get_info: what the withdraw screen shows before the user types anything. */
    async withdrawInfo(
      userId: number,
      body: { currency_id?: string | undefined },
      lang: Lang,
    ): Promise<WithdrawInfo> {
      const cur = await currency(body.currency_id);
      const user = await userFacts(userId);
      const b = (await balances(userId)).get(`spot:${cur.id}`);
      const today = await withdrawalsToday(db, userId);
      const [addresses] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM withdraw_addresses WHERE user_id = $1 AND currency_id = $2',
        [userId, cur.id],
      );
      return {
        currency_id: cur.id,
        symbol: cur.symbol,
        decimals: cur.decimals,
        is_fiat: cur.is_fiat,
        chains: cur.chains,
        can_withdraw: cur.can_withdraw,
        available: show(b?.available ?? '0', cur.decimals),
        min_withdraw: show(cur.min_withdraw, cur.decimals),
        withdraw_fee: show(cur.withdraw_fee, cur.decimals),
        daily_limit: WITHDRAWALS_PER_DAY,
        withdrawals_today: today,
        withdrawals_left: Math.max(0, WITHDRAWALS_PER_DAY - today),
        has_fund_password: user.has_fund_password,
        verification: user.verification,
        verified: user.verification === 'verified',
        address_count: addresses?.n ?? 0,
        arrival_key: ARRIVAL_KEY,
        arrival_text: t(lang, ARRIVAL_KEY),
      };
    },

    /**
     * wallet/out: the rules of spec §5 and §9 in order, then one posting that freezes
     * amount + fee in the spot account while the request waits for review.
     */
    async withdraw(userId: number, body: WithdrawBody, lang: Lang): Promise<WithdrawalRecord> {
      const cur = await currency(body.currency_id);
      if (!cur.can_withdraw)
        throw new AppError(
          'CURRENCY_UNAVAILABLE',
          'wallet.withdrawDisabled',
          { symbol: cur.symbol },
          'currency_id',
        );
      const dest = cur.is_fiat
        ? await bankDestination(userId, body.bank_card_id)
        : await addressDestination(userId, cur, body.address_id);
      const amount = parseAmount(body.amount, cur);
      if (!body.fund_password) throw invalid('validation.fundPasswordRequired', 'fund_password');
      const remark = parseRemark(body.remark, WITHDRAW_REMARK_MAX);
      const user = await userFacts(userId);
      if (user.verification !== 'verified')
        throw new AppError('VERIFICATION_REQUIRED', 'wallet.verificationRequired');
      if (!user.has_fund_password)
        throw new AppError('FUND_PASSWORD_UNSET', 'fund.unset', {}, 'fund_password');
      await users.verifyFundPassword(userId, body.fund_password);
      if (compareDecimal(amount, canon(cur.min_withdraw)) < 0) {
        throw new AppError(
          'AMOUNT_BELOW_MINIMUM',
          'wallet.minWithdraw',
          { min: show(cur.min_withdraw, cur.decimals), symbol: cur.symbol },
          'amount',
        );
      }
      const fee = canon(cur.withdraw_fee);
      const total = addDecimal(amount, fee);
      const id = await db
        .tx(async (q) => {
          // one request of this user at a time: the day's count and the balance hold together
          await q.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [WITHDRAW_LOCK_NS, userId]);
          if ((await withdrawalsToday(q, userId)) >= WITHDRAWALS_PER_DAY)
            throw new AppError('WITHDRAW_DAILY_LIMIT', 'wallet.dailyLimit', { max: WITHDRAWALS_PER_DAY });
          const [w] = await q.query<{ id: number }>(
            `INSERT INTO withdrawals (user_id, currency_id, chain, address, bank_card_id, bank_snapshot, amount, fee, remark)
             VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7, $8, $9) RETURNING id`,
            [
              userId,
              cur.id,
              dest.chain,
              dest.address,
              dest.bankCardId,
              dest.bankSnapshot === null ? null : JSON.stringify(dest.bankSnapshot),
              amount,
              fee,
              remark,
            ],
          );
          await post(q, {
            reason: 'withdraw_freeze',
            refType: 'withdrawal',
            refId: w!.id,
            legs: [{ account: spot(userId, cur.id), available: negate(total), frozen: total }],
          });
          return w!.id;
        })
        .catch(insufficient);
      const [row] = await db.query<WithdrawalListRow>(`${WITHDRAWAL_LIST} WHERE w.id = $1`, [id]);
      return withdrawalRecord(row!, lang);
    },

    async withdrawals(userId: number, query: WithdrawalLogQuery, lang: Lang) {
      const p = parsePaging(query);
      const idInput = (query.id ?? '').trim();
      // a malformed id is no withdrawal of theirs: the detail page shows "not found"
      if (idInput && !/^\d{1,15}$/.test(idInput)) return { list: [], page: p.page, limit: p.limit, total: 0 };
      const cond = idInput ? 'AND w.id = $2' : '';
      const { rows, total } = await pageOf<WithdrawalListRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM withdrawals w WHERE w.user_id = $1 ${cond}`,
          list: `${WITHDRAWAL_LIST} WHERE w.user_id = $1 ${cond} ORDER BY w.id DESC`,
        },
        idInput ? [userId, idInput] : [userId],
        p,
      );
      return {
        list: rows.map((r) => withdrawalRecord(r, lang)),
        page: p.page,
        limit: p.limit,
        total,
      };
    },
  };
}
export type WalletService = ReturnType<typeof walletService>;
