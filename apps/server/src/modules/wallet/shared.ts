import {
  type BankDetails,
  type Lang,
  MONEY_REQUEST_DISPLAY,
  type MoneyRequestState,
  WALLET_ACCOUNT_TYPES,
} from '@verdant/api';
import { compareDecimal, parseDecimal, subDecimal, truncateDecimal } from '@verdant/engine';
import type { Db, Queryable } from '../../db/client.ts';
import type { Paging } from '../../db/paging.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { t } from '../../i18n/index.ts';
import { type Currency, chainsOn, currenciesById, findCurrency } from '../../ledger/currencies.ts';
import { type AccountRef, InsufficientFunds, type UserAccountType } from '../../ledger/ledger.ts';
import type { BankService } from '../bank/service.ts';
import type { CodesService } from '../codes/service.ts';
import type { UploadsService } from '../uploads/service.ts';
import type { UserService } from '../user/service.ts';
import type { DepositKeys } from './keys.ts';

/** What every part of the wallet is built from: the database and the services it asks. */
export interface WalletDeps {
  db: Db;
  users: UserService;
  codes: CodesService;
  uploads: UploadsService;
  bankCards: BankService;
  /** The platform's bank account that bank deposits go to. */
  bankDetails: BankDetails;
  keys: DepositKeys;
}

/** Amounts stop below NUMERIC(36,18)'s 18 integer digits, so no input can overflow a column. */
const MAX_AMOUNT = '1000000000000000';

export const show = (v: string, decimals: number): string => truncateDecimal(v, decimals);
export const negate = (v: string): string => subDecimal('0', v);
export const iso = (d: Date | string): string => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null): string | null => (d === null ? null : iso(d));

export const spot = (userId: number, currencyId: number): AccountRef => ({
  userId,
  type: 'spot',
  currencyId,
});

/** What deposit and withdrawal records share: the request, its currency and where it stands in review. */
export function requestRecord(
  r: {
    id: number;
    chain: string | null;
    address: string | null;
    status: MoneyRequestState;
    reject_reason: string | null;
    created_at: Date;
    reviewed_at: Date | null;
  },
  cur: Currency,
  lang: Lang,
) {
  return {
    id: r.id,
    currency_id: cur.id,
    symbol: cur.symbol,
    chain: r.chain,
    address: r.address,
    status: r.status,
    status_code: MONEY_REQUEST_DISPLAY[r.status],
    status_text: t(lang, `wallet.status.${r.status}`),
    reject_reason: r.reject_reason,
    created_at: iso(r.created_at),
    reviewed_at: isoOrNull(r.reviewed_at),
  };
}

/** A balance the user cannot cover: the wallet's own words for it. */
export function insufficient(e: unknown): never {
  if (e instanceof InsufficientFunds)
    throw new AppError('INSUFFICIENT_BALANCE', 'wallet.insufficient', {}, 'amount');
  throw e;
}

/** A positive whole id that fits an integer column, or null. */
export function parseId(input: string | number | undefined): number | null {
  const s = String(input ?? '').trim();
  if (!/^\d{1,10}$/.test(s)) return null;
  const n = Number(s);
  return n >= 1 && n <= 2_147_483_647 ? n : null;
}

export function parseAccountType(input: string | undefined, field: string): UserAccountType {
  const v = (input ?? '').trim();
  if ((WALLET_ACCOUNT_TYPES as readonly string[]).includes(v)) return v as UserAccountType;
  throw invalid('wallet.accountTypeInvalid', field);
}

export function parseAmount(input: string | undefined, cur: Currency, field = 'amount'): string {
  const s = (input ?? '').trim();
  if (!s) throw invalid('wallet.amountRequired', field);
  const amount = parseDecimal(s, { positive: true, maxDecimals: cur.decimals });
  if (amount === null || compareDecimal(amount, MAX_AMOUNT) >= 0)
    throw invalid('wallet.amountInvalid', field, { decimals: cur.decimals });
  return amount;
}

export function parseRemark(input: string | undefined, max: number, field = 'remark'): string | null {
  const s = (input ?? '').trim();
  if (!s) return null;
  if ([...s].length > max || /\p{Cc}/u.test(s)) throw invalid('wallet.remarkTooLong', field, { max });
  return s;
}

/** The currency a request names, or the wallet's "unknown currency" error on `field`. */
export async function currencyOf(
  q: Queryable,
  input: string | undefined,
  field = 'currency_id',
): Promise<Currency> {
  const s = (input ?? '').trim();
  if (!s) throw invalid('wallet.currencyRequired', field);
  const id = parseId(s);
  const cur = id === null ? null : await findCurrency(q, id);
  if (!cur) throw new AppError('CURRENCY_UNAVAILABLE', 'wallet.currencyInvalid', {}, field);
  return cur;
}

/** The currency when it may be left out (a list's filter): its id, or undefined. */
export async function currencyFilter(q: Queryable, input: string | undefined): Promise<number | undefined> {
  return (input ?? '').trim() ? (await currencyOf(q, input)).id : undefined;
}

/** One of the currency's chains switched on; may be left out when only one is. */
export function chainOf(cur: Currency, input: string | undefined): string {
  const on = chainsOn(cur);
  const s = (input ?? '').trim().toUpperCase();
  if (!s) {
    if (on.length === 1) return on[0]!;
    throw invalid('wallet.chainRequired', 'chain');
  }
  const chain = cur.chains.find((c) => c.toUpperCase() === s);
  if (!chain) throw invalid('wallet.chainInvalid', 'chain', { chain: s.slice(0, 20), symbol: cur.symbol });
  assertChainOn(cur, chain, 'chain');
  return chain;
}

/** Refuses a chain operators switched off, naming it (the user's field is `field`). */
export function assertChainOn(cur: Currency, chain: string, field: string): void {
  if (cur.chains_off.includes(chain)) throw invalid('wallet.chainOff', field, { chain, symbol: cur.symbol });
}

/** Deposits and withdrawals stop here when the currency is switched off for them. */
export function assertCurrencyOpen(cur: Currency, direction: 'deposit' | 'withdraw'): void {
  if (direction === 'deposit' ? cur.can_deposit : cur.can_withdraw) return;
  throw new AppError(
    'CURRENCY_UNAVAILABLE',
    direction === 'deposit' ? 'wallet.depositDisabled' : 'wallet.withdrawDisabled',
    { symbol: cur.symbol },
    'currency_id',
  );
}

/** The amount stops at the currency's minimum for deposits or withdrawals. */
export function assertMinimum(amount: string, cur: Currency, direction: 'deposit' | 'withdraw'): void {
  const min = direction === 'deposit' ? cur.min_deposit : cur.min_withdraw;
  if (compareDecimal(amount, min) >= 0) return;
  throw new AppError(
    'AMOUNT_BELOW_MINIMUM',
    direction === 'deposit' ? 'wallet.minDeposit' : 'wallet.minWithdraw',
    { min: show(min, cur.decimals), symbol: cur.symbol },
    'amount',
  );
}

/** A page of the user's records (rows that carry only a currency id), each with its currency. */
export async function recordPage<R extends { currency_id: number }, T>(
  q: Queryable,
  page: { rows: R[]; total: number },
  paging: Paging,
  toRecord: (row: R, cur: Currency) => T,
) {
  const currencies = await currenciesById(q);
  return {
    list: page.rows.map((r) => toRecord(r, currencies.get(r.currency_id)!)),
    page: paging.page,
    limit: paging.limit,
    total: page.total,
  };
}
