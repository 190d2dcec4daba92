import type {
  AdminAuditQuery,
  AdminBalance,
  AdminDeposit,
  AdminLedgerEntry,
  AdminUser,
  AdminVerification,
  AdminWithdrawal,
  Lang,
} from '@verdant/api';
import { AdminPaths } from '@verdant/api';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { type PageInput, pageOf, parsePaging } from '../../db/paging.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { parseReason, parseTxRef } from '../../http/parse.ts';
import { statement } from '../../ledger/statement.ts';
import {
  countryName,
  reviewVerification,
  VERIFICATION_COLUMNS,
  type VerificationRow,
} from '../kyc/service.ts';
import { approveDeposit, approveWithdrawal, rejectDeposit, rejectWithdrawal } from '../wallet/service.ts';
import { listAudit, writeAudit } from './audit.ts';
import type { OperatorSession } from './operators.ts';

const REASON_KEYS = { required: 'admin.reasonRequired', tooLong: 'admin.reasonTooLong' };
const TX_REF_KEYS = { required: 'admin.txRefRequired', tooLong: 'admin.txRefTooLong' };

/** A row id from a form or a query: required, and a whole number (else nothing can match it). */
export function parseId(v: string | undefined, field = 'id', requiredKey = 'admin.idRequired'): number {
  const s = (v ?? '').trim();
  if (!s) throw invalid(requiredKey, field);
  if (!/^\d{1,9}$/.test(s)) throw new AppError('NOT_FOUND', 'errors.notFound', {}, field);
  return Number(s);
}

function parseStatus(v: string | undefined, allowed: readonly string[]): string | null {
  const s = (v ?? '').trim().toLowerCase() || 'pending';
  if (s === 'all') return null;
  if (!allowed.includes(s)) throw invalid('admin.statusInvalid', 'status');
  return s;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** JSON-safe copy of a database row: dates as ISO strings (what the audit log and answers hold). */
function plain(row: object): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  );
}

interface UserListRow {
  id: number;
  nickname: string;
  account: string;
  area_code: string | null;
  mobile: string | null;
  email: string | null;
  verification: string;
  advanced_verification: string;
  status: string;
  created_at: Date;
  last_login_at: Date | null;
}

const accountSql = (u: string) =>
  `CASE WHEN ${u}.account_type = 'email' THEN ${u}.email ELSE '+' || ${u}.area_code || ' ' || ${u}.mobile END`;

const uploadUrl = (name: string | null) => (name ? `/api/${AdminPaths.upload}/${name}` : null);

type MoneyKind = 'deposit' | 'withdrawal';
const MONEY_TABLE: Record<MoneyKind, string> = { deposit: 'deposits', withdrawal: 'withdrawals' };
// the stored columns (amounts without trailing zeros); what the audit log keeps of a row
const MONEY_COLUMNS: Record<MoneyKind, string> = {
  deposit: `t.id, t.user_id, t.currency_id, t.chain, t.address, trim_scale(t.amount)::text AS amount, t.image,
    t.status, t.reject_reason, t.reviewed_by, t.reviewed_at, t.created_at`,
  withdrawal: `t.id, t.user_id, t.currency_id, t.chain, t.address, t.bank_card_id, t.bank_snapshot,
    trim_scale(t.amount)::text AS amount, trim_scale(t.fee)::text AS fee, t.remark, t.status, t.tx_ref,
    t.reject_reason, t.reviewed_by, t.reviewed_at, t.created_at`,
};
type MoneyRow = Record<string, unknown> & { user_account: string; symbol: string };

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

  async function moneyRow(q: Queryable, kind: MoneyKind, id: number, lock = false): Promise<MoneyRow | null> {
    const [row] = await q.query<MoneyRow>(
      `SELECT ${MONEY_COLUMNS[kind]}, ${accountSql('u')} AS user_account, c.symbol
         FROM ${MONEY_TABLE[kind]} t JOIN users u ON u.id = t.user_id JOIN currencies c ON c.id = t.currency_id
        WHERE t.id = $1${lock ? ' FOR UPDATE OF t' : ''}`,
      [id],
    );
    return row ?? null;
  }

  async function verificationRow(q: Queryable, id: number, lang: Lang): Promise<AdminVerification> {
    const [row] = await q.query<VerificationRow & { user_account: string }>(
      `SELECT ${VERIFICATION_COLUMNS.split(',')
        .map((c) => `v.${c.trim()}`)
        .join(', ')}, ${accountSql('u')} AS user_account
         FROM verifications v JOIN users u ON u.id = v.user_id WHERE v.id = $1`,
      [id],
    );
    if (!row) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
    return toAdminVerification(row, lang);
  }

  function toAdminVerification(r: VerificationRow & { user_account: string }, lang: Lang): AdminVerification {
    return {
      id: r.id,
      user_id: r.user_id,
      user_account: r.user_account,
      level: r.level,
      status: r.status,
      country: r.country,
      country_name: countryName(r.country, lang),
      name: r.name,
      id_number: r.id_number,
      address: r.address,
      front: uploadUrl(r.front),
      back: uploadUrl(r.back),
      holding: uploadUrl(r.holding),
      reject_reason: r.reject_reason,
      reviewed_by: r.reviewed_by,
      reviewed_at: r.reviewed_at?.toISOString() ?? null,
      created_at: r.created_at.toISOString(),
    };
  }

  async function assertUser(userIdInput: string | undefined): Promise<number> {
    const id = parseId(userIdInput, 'user_id', 'admin.userIdRequired');
    const [u] = await db.query('SELECT 1 FROM users WHERE id = $1', [id]);
    if (!u) throw new AppError('NOT_FOUND', 'admin.userNotFound', {}, 'user_id');
    return id;
  }

  /**
   * Approve or reject a deposit or withdrawal: the wallet module's function does the money
   * part, inside this transaction; the row before and after goes to the audit log with it.
   */
  async function reviewMoney(
    kind: MoneyKind,
    decision: 'approve' | 'reject',
    op: OperatorSession,
    ip: string,
    body: { id?: string | undefined; reason?: string | undefined; tx_ref?: string | undefined },
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
        if (decision === 'approve') await approveDeposit(q, id, op.id);
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

  async function listMoney(kind: MoneyKind, query: { status?: string | undefined } & PageInput) {
    const status = parseStatus(query.status, ['pending', 'approved', 'rejected']);
    const p = parsePaging(query);
    const cond = status ? 'WHERE t.status = $1' : '';
    const params = status ? [status] : [];
    const table = MONEY_TABLE[kind];
    const { rows, total } = await pageOf<MoneyRow>(
      db,
      {
        count: `SELECT count(*)::int AS n FROM ${table} t ${cond}`,
        list: `SELECT ${MONEY_COLUMNS[kind]}, ${accountSql('u')} AS user_account, c.symbol
                 FROM ${table} t JOIN users u ON u.id = t.user_id JOIN currencies c ON c.id = t.currency_id
                 ${cond}
                ORDER BY t.id ${status === 'pending' ? 'ASC' : 'DESC'}`,
      },
      params,
      p,
    );
    return { items: rows.map(toMoney), total, page: p.page, limit: p.limit };
  }

  return {
    async users(query: { q?: string | undefined } & PageInput) {
      const p = parsePaging(query);
      const q = (query.q ?? '').trim();
      let cond = '';
      const params: unknown[] = [];
      if (q) {
        const digits = q.replace(/\D/g, '');
        params.push(`%${escapeLike(q.toLowerCase())}%`);
        const parts = ['u.email LIKE $1', 'lower(u.nickname) LIKE $1'];
        if (digits.length >= 3) {
          params.push(`%${digits}%`);
          parts.push(`(u.area_code || u.mobile) LIKE $${params.length}`);
        }
        if (/^\d{1,9}$/.test(q)) {
          params.push(Number(q));
          parts.push(`u.id = $${params.length}`);
        }
        cond = `WHERE ${parts.join(' OR ')}`;
      }
      const { rows, total } = await pageOf<UserListRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM users u ${cond}`,
          list: `SELECT u.id, u.nickname, ${accountSql('u')} AS account, u.area_code, u.mobile, u.email,
                        u.verification, u.advanced_verification, u.status, u.created_at, u.last_login_at
                   FROM users u ${cond}
                  ORDER BY u.id DESC`,
        },
        params,
        p,
      );
      const items: AdminUser[] = rows.map((r) => ({
        id: r.id,
        nickname: r.nickname,
        account: r.account,
        area_code: r.area_code,
        mobile: r.mobile,
        email: r.email,
        verification: r.verification,
        advanced_verification: r.advanced_verification,
        status: r.status,
        created_at: r.created_at.toISOString(),
        last_login_at: r.last_login_at?.toISOString() ?? null,
      }));
      return { items, total, page: p.page, limit: p.limit };
    },

    async balances(userIdInput: string | undefined): Promise<AdminBalance[]> {
      const userId = await assertUser(userIdInput);
      return db.query<AdminBalance>(
        `SELECT a.type, a.currency_id, c.symbol, trim_scale(a.available)::text AS available,
                trim_scale(a.frozen)::text AS frozen, trim_scale(a.available + a.frozen)::text AS total
           FROM ledger_accounts a JOIN currencies c ON c.id = a.currency_id
          WHERE a.user_id = $1
          ORDER BY array_position(ARRAY['spot', 'option', 'contract', 'trust'], a.type), c.sort, c.id`,
        [userId],
      );
    },

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
        },
        p,
      );
      return { ...r, page: p.page, limit: p.limit };
    },

    async verifications(
      query: { status?: string | undefined; level?: string | undefined } & PageInput,
      lang: Lang,
    ) {
      const status = parseStatus(query.status, ['pending', 'verified', 'rejected']);
      const level = (query.level ?? '').trim().toLowerCase();
      if (level && level !== 'basic' && level !== 'advanced') throw invalid('admin.levelInvalid', 'level');
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
      const { rows, total } = await pageOf<VerificationRow & { user_account: string }>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM verifications v ${cond}`,
          list: `SELECT ${VERIFICATION_COLUMNS.split(',')
            .map((c) => `v.${c.trim()}`)
            .join(', ')}, ${accountSql('u')} AS user_account
           FROM verifications v JOIN users u ON u.id = v.user_id
           ${cond}
          ORDER BY v.id ${status === 'pending' ? 'ASC' : 'DESC'}`,
        },
        params,
        p,
      );
      return {
        items: rows.map((r) => toAdminVerification(r, lang)),
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
