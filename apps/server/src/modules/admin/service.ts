import type {
  AdminAuditQuery,
  AdminBalance,
  AdminDeposit,
  AdminFreezeBody,
  AdminLedgerEntry,
  AdminUser,
  AdminVerification,
  AdminWithdrawal,
  Lang,
  UserStatus,
} from '@verdant/api';
import {
  AdminPaths,
  MONEY_REQUEST_STATES,
  SUBMISSION_STATES,
  VERIFICATION_LEVELS,
  WALLET_ACCOUNT_TYPES,
} from '@verdant/api';
import { addDecimal } from '@verdant/engine';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { type PageInput, pageOf, parsePaging } from '../../db/paging.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { parseReason, parseTxRef } from '../../http/parse.ts';
import { currenciesById, listCurrencies } from '../../ledger/currencies.ts';
import { statement, userBalances } from '../../ledger/statement.ts';
import {
  reviewVerification,
  toSubmission,
  VERIFICATION_COLUMNS,
  type VerificationRow,
} from '../kyc/service.ts';
import { accountOf, searchUsers, userAccounts, userExists } from '../user/service.ts';
import {
  approveDeposit,
  approveWithdrawal,
  type MoneyRequestKind,
  moneyRequest,
  moneyRequestPage,
  rejectDeposit,
  rejectWithdrawal,
  type StoredMoneyRequest,
} from '../wallet/service.ts';
import { adjustments } from './adjustments.ts';
import { listAudit, writeAudit } from './audit.ts';
import { dashboard, ledgerCheck } from './dashboard.ts';
import type { OperatorSession } from './operators.ts';
import { freezeUser, toAdminUser, userDetail } from './users.ts';

// for modules whose operator reviews live beside their own rules (launchpad): the audit log and operator guard
export { writeAudit } from './audit.ts';
// for every module's configuration routes (issue 23): form fields with named errors, the audited change
export { auditedChange, CONFIG_ROLES, ConfigFields, type ConfigForm } from './config.ts';
// the help centre's chat: operators' sockets log in with their token; replies name the operator
export {
  findOperatorSession,
  listOperators,
  liveOperatorSessions,
  type OperatorSession,
  operatorOf,
  REVIEWERS,
  requireOperator,
} from './operators.ts';

const REASON_KEYS = { required: 'admin.reasonRequired', tooLong: 'admin.reasonTooLong' };
const TX_REF_KEYS = { required: 'admin.txRefRequired', tooLong: 'admin.txRefTooLong' };

/** A row id from a form or a query: required, and a whole number (else nothing can match it). */
export function parseId(v: string | undefined, field = 'id', requiredKey = 'admin.idRequired'): number {
  const s = (v ?? '').trim();
  if (!s) throw invalid(requiredKey, field);
  if (!/^\d{1,9}$/.test(s)) throw new AppError('NOT_FOUND', 'errors.notFound', {}, field);
  return Number(s);
}

/** An ISO 8601 time of a filter, or undefined when left out. */
function parseTime(v: string | undefined, field: string): Date | undefined {
  const s = (v ?? '').trim();
  if (!s) return undefined;
  const t = new Date(s);
  if (!/^\d{4}-\d{2}-\d{2}/.test(s) || Number.isNaN(t.getTime())) throw invalid('admin.timeInvalid', field);
  return t;
}

function parseStatus(v: string | undefined, allowed: readonly string[]): string | null {
  const s = (v ?? '').trim().toLowerCase() || 'pending';
  if (s === 'all') return null;
  if (!allowed.includes(s)) throw invalid('admin.statusInvalid', 'status');
  return s;
}

/** JSON-safe copy of a database row: dates as ISO strings (what the audit log and answers hold). */
function plain(row: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  );
}

const uploadUrl = (name: string | null) => (name ? `/api/${AdminPaths.upload}/${name}` : null);

type MoneyRow = StoredMoneyRequest & { user_account: string; symbol: string };
type AdminVerificationRow = VerificationRow & { user_account: string };

/**
 * Beside each row, who it belongs to (the user module's table) and, for money, the currency's
 * symbol (the ledger's): each table is read by its owner, not joined here.
 */
async function withAccounts<T extends { user_id: number }>(
  q: Queryable,
  rows: T[],
): Promise<(T & { user_account: string })[]> {
  const accounts = await userAccounts(
    q,
    rows.map((r) => r.user_id),
  );
  return rows.map((r) => ({ ...r, user_account: accounts.get(r.user_id) ?? '' }));
}

async function toMoneyRows(q: Queryable, rows: StoredMoneyRequest[]): Promise<MoneyRow[]> {
  const currencies = await currenciesById(q);
  return (await withAccounts(q, rows)).map((r) => ({
    ...r,
    symbol: currencies.get(r.currency_id)?.symbol ?? '',
  }));
}

/** The answer's shape: dates as ISO strings, the proof picture as the operators' path. */
function toMoney(row: MoneyRow): AdminDeposit & AdminWithdrawal {
  const out = plain(row) as AdminDeposit & AdminWithdrawal;
  if (typeof row.image === 'string') out.image = uploadUrl(row.image)!;
  return out;
}

/** The row as stored, for the audit log. */
function snapshot(row: MoneyRow): Record<string, unknown> {
  const { user_account: _a, symbol: _s, ...stored } = row;
  return plain(stored);
}

export function adminService(ctx: AppContext) {
  const { db } = ctx;

  async function moneyRow(
    q: Queryable,
    kind: MoneyRequestKind,
    id: number,
    lock = false,
  ): Promise<MoneyRow | null> {
    const stored = await moneyRequest(q, kind, id, lock);
    const [row] = await toMoneyRows(q, stored ? [stored] : []);
    return row ?? null;
  }

  async function verificationRow(q: Queryable, id: number, lang: Lang): Promise<AdminVerification> {
    const [row] = await withAccounts(
      q,
      await q.query<VerificationRow>(`SELECT ${VERIFICATION_COLUMNS} FROM verifications WHERE id = $1`, [id]),
    );
    if (!row) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
    return toAdminVerification(row, lang);
  }

  function toAdminVerification(r: AdminVerificationRow, lang: Lang): AdminVerification {
    return {
      ...toSubmission(r, lang),
      user_id: r.user_id,
      user_account: r.user_account,
      // operators fetch the photos through their own route
      front: uploadUrl(r.front),
      back: uploadUrl(r.back),
      holding: uploadUrl(r.holding),
      reviewed_by: r.reviewed_by,
    };
  }

  async function assertUser(userIdInput: string | undefined): Promise<number> {
    const id = parseId(userIdInput, 'user_id', 'admin.userIdRequired');
    if (!(await userExists(db, id))) throw new AppError('NOT_FOUND', 'admin.userNotFound', {}, 'user_id');
    return id;
  }

  /**
   * Approve or reject a deposit or withdrawal: the wallet module's function does the money
   * part, inside this transaction; the row before and after goes to the audit log with it.
   */
  async function reviewMoney(
    kind: MoneyRequestKind,
    decision: 'approve' | 'reject',
    op: OperatorSession,
    ip: string,
    body: {
      id?: string | undefined;
      reason?: string | undefined;
      tx_ref?: string | undefined;
      /** deposits: the amount credited, when it is not the one declared */
      amount?: string | undefined;
    },
  ): Promise<AdminDeposit & AdminWithdrawal> {
    const id = parseId(body.id);
    let reason = '';
    let txRef = '';
    if (decision === 'reject') reason = parseReason(body.reason, REASON_KEYS);
    else if (kind === 'withdrawal') {
      txRef = parseTxRef(body.tx_ref, TX_REF_KEYS);
    }
    return db.tx(async (q) => {
      const before = await moneyRow(q, kind, id, true);
      if (!before) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
      if (kind === 'deposit') {
        if (decision === 'approve') await approveDeposit(q, id, op.id, body.amount);
        else await rejectDeposit(q, id, op.id, reason);
      } else if (decision === 'approve') await approveWithdrawal(q, id, op.id, txRef);
      else await rejectWithdrawal(q, id, op.id, reason);
      const after = (await moneyRow(q, kind, id))!;
      await writeAudit(q, {
        operatorId: op.id,
        action: `${kind}.${decision}`,
        targetType: kind,
        targetId: id,
        before: snapshot(before),
        after: snapshot(after),
        ip,
      });
      return toMoney(after);
    });
  }

  async function listMoney(kind: MoneyRequestKind, query: { status?: string | undefined } & PageInput) {
    const status = parseStatus(query.status, MONEY_REQUEST_STATES);
    const p = parsePaging(query);
    const { rows, total } = await moneyRequestPage(db, kind, status, p);
    const items = (await toMoneyRows(db, rows)).map(toMoney);
    return { items, total, page: p.page, limit: p.limit };
  }

  const adjustmentsOf = adjustments(db);

  const userParts = {
    async users(query: { q?: string | undefined } & PageInput) {
      const p = parsePaging(query);
      const { rows, total } = await searchUsers(db, (query.q ?? '').trim(), p);
      const items: AdminUser[] = rows.map((r) =>
        toAdminUser({ ...r, status: r.status as UserStatus, account: accountOf(r) }),
      );
      return { items, total, page: p.page, limit: p.limit };
    },

    /** A user with balances, ledger-backed activity in each module, and referrals. */
    async userDetail(userIdInput: string | undefined) {
      const userId = await assertUser(userIdInput);
      return userDetail(db, userId, await balancesOf(userId));
    },

    /** Freeze (or unfreeze) a user's login or withdrawals, with a reason; audited. */
    async freeze(frozen: boolean, op: OperatorSession, ip: string, body: AdminFreezeBody) {
      const userId = await assertUser(body.user_id);
      await freezeUser(db, userId, frozen, op, ip, body);
      return userDetail(db, userId, await balancesOf(userId));
    },

    adjustments: adjustmentsOf,
    dashboard: async () => dashboard(db, await adjustmentsOf.pendingCount(db)),
    ledgerCheck: () => ledgerCheck(db),

    balances: async (userIdInput: string | undefined) => balancesOf(await assertUser(userIdInput)),
  };

  async function balancesOf(userId: number): Promise<AdminBalance[]> {
    // the ledger's accounts, read through the ledger (their table is its own)
    const rows: Omit<AdminBalance, 'symbol'>[] = (await userBalances(db, userId)).map((b) => ({
      ...b,
      total: addDecimal(b.available, b.frozen),
    }));
    // the accounts in the wallet's order, each one's currencies in the currency list's
    const currencies = await listCurrencies(db);
    const place = (c: number) => currencies.findIndex((x) => x.id === c);
    const order = (b: Omit<AdminBalance, 'symbol'>) =>
      WALLET_ACCOUNT_TYPES.indexOf(b.type as (typeof WALLET_ACCOUNT_TYPES)[number]) * 1e6 +
      place(b.currency_id);
    return rows
      .sort((x, y) => order(x) - order(y))
      .map((b) => ({ ...b, symbol: currencies[place(b.currency_id)]?.symbol ?? '' }));
  }

  return {
    ...userParts,

    async ledger(query: { user_id?: string | undefined } & PageInput) {
      const userId = await assertUser(query.user_id);
      const p = parsePaging(query);
      const { rows, total } = await statement(db, { userId }, p);
      const items: AdminLedgerEntry[] = rows.map((r) => ({
        id: r.id,
        journal_id: r.journal_id,
        account_type: r.type,
        currency_id: r.currency_id,
        symbol: r.symbol,
        delta_available: r.delta_available,
        delta_frozen: r.delta_frozen,
        available_after: r.available_after,
        frozen_after: r.frozen_after,
        reason: r.reason,
        ref_type: r.ref_type,
        ref_id: r.ref_id,
        operator_id: r.operator_id,
        created_at: r.created_at.toISOString(),
      }));
      return { items, total, page: p.page, limit: p.limit };
    },

    deposits: (query: { status?: string | undefined } & PageInput) => listMoney('deposit', query),
    withdrawals: (query: { status?: string | undefined } & PageInput) => listMoney('withdrawal', query),
    reviewMoney,

    /** The audit log, newest first, filtered by operator, action or target. */
    async audit(query: AdminAuditQuery) {
      const p = parsePaging(query);
      const operatorId = (query.operator_id ?? '').trim()
        ? parseId(query.operator_id, 'operator_id')
        : undefined;
      const r = await listAudit(
        db,
        {
          operatorId,
          action: (query.action ?? '').trim() || undefined,
          targetType: (query.target_type ?? '').trim() || undefined,
          targetId: (query.target_id ?? '').trim() || undefined,
          from: parseTime(query.from, 'from'),
          to: parseTime(query.to, 'to'),
        },
        p,
      );
      return { ...r, page: p.page, limit: p.limit };
    },

    async verifications(
      query: { status?: string | undefined; level?: string | undefined } & PageInput,
      lang: Lang,
    ) {
      const status = parseStatus(query.status, SUBMISSION_STATES);
      const level = (query.level ?? '').trim().toLowerCase();
      if (level && !(VERIFICATION_LEVELS as readonly string[]).includes(level))
        throw invalid('admin.levelInvalid', 'level');
      const p = parsePaging(query);
      const where: string[] = [];
      const params: unknown[] = [];
      if (status) {
        params.push(status);
        where.push(`v.status = $${params.length}`);
      }
      if (level) {
        params.push(level);
        where.push(`v.level = $${params.length}`);
      }
      const cond = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const { rows, total } = await pageOf<VerificationRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM verifications v ${cond}`,
          list: `SELECT ${VERIFICATION_COLUMNS} FROM verifications v ${cond}
          ORDER BY v.id ${status === 'pending' ? 'ASC' : 'DESC'}`,
        },
        params,
        p,
      );
      return {
        items: (await withAccounts(db, rows)).map((r) => toAdminVerification(r, lang)),
        total,
        page: p.page,
        limit: p.limit,
      };
    },

    /** Approve or reject an identity verification; the user's state follows; audited. */
    async reviewVerification(
      decision: 'verified' | 'rejected',
      op: OperatorSession,
      ip: string,
      body: { id?: string | undefined; reason?: string | undefined },
      lang: Lang,
    ): Promise<AdminVerification> {
      const id = parseId(body.id);
      const reason = decision === 'rejected' ? parseReason(body.reason, REASON_KEYS) : null;
      await db.tx(async (q) => {
        const r = await reviewVerification(q, id, op.id, decision, reason);
        await writeAudit(q, {
          operatorId: op.id,
          action: `verification.${decision === 'verified' ? 'approve' : 'reject'}`,
          targetType: 'verification',
          targetId: id,
          before: { ...plain(r.before), user: r.user.before },
          after: { ...plain(r.after), user: r.user.after },
          ip,
        });
      });
      return verificationRow(db, id, lang);
    },
  };
}
export type AdminService = ReturnType<typeof adminService>;
