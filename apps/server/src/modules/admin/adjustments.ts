import {
  type AdminAdjustment,
  type AdminAdjustmentBody,
  MONEY_REQUEST_STATES,
  WALLET_ACCOUNT_TYPES,
} from '@verdant/api';
import { compareDecimal, parseDecimal } from '@verdant/engine';
import type { Db, Queryable } from '../../db/client.ts';
import { type PageInput, pageOf, parsePaging } from '../../db/paging.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { parseReason } from '../../http/parse.ts';
import { currenciesById, findCurrency } from '../../ledger/currencies.ts';
import { InsufficientFunds, post } from '../../ledger/ledger.ts';
import { userAccounts, userExists } from '../user/service.ts';
import { writeAudit } from './audit.ts';
import type { OperatorSession } from './operators.ts';

/**
 * Manual balance adjustments (issue 23): operators never change a balance directly. One operator
 * asks (user, account, currency, signed amount, reason); a second, different admin approves,
 * and only the approval posts the ledger entry against the house 'adjustments' account, or
 * rejects. Each step is audited in its transaction.
 */

const REASON_KEYS = { required: 'admin.adjustmentReasonRequired', tooLong: 'admin.reasonTooLong' };
const NOTE_KEYS = { required: 'admin.reasonRequired', tooLong: 'admin.reasonTooLong' };
/** NUMERIC(36,18) holds 18 integer digits; stay well below. */
const MAX_ABS = '1000000000000000';

interface AdjustmentRow {
  id: number;
  user_id: number;
  account_type: string;
  currency_id: number;
  amount: string;
  reason: string;
  status: (typeof MONEY_REQUEST_STATES)[number];
  requested_by: number;
  requested_by_name: string;
  reviewed_by: number | null;
  reviewed_by_name: string | null;
  review_note: string | null;
  created_at: Date;
  reviewed_at: Date | null;
}

const SELECT = `SELECT a.id, a.user_id, a.account_type, a.currency_id, trim_scale(a.amount)::text AS amount,
    a.reason, a.status, a.requested_by, r.username AS requested_by_name, a.reviewed_by,
    v.username AS reviewed_by_name, a.review_note, a.created_at, a.reviewed_at
  FROM balance_adjustments a JOIN operators r ON r.id = a.requested_by
  LEFT JOIN operators v ON v.id = a.reviewed_by`;

async function present(q: Queryable, rows: AdjustmentRow[]): Promise<AdminAdjustment[]> {
  const accounts = await userAccounts(
    q,
    rows.map((r) => r.user_id),
  );
  const currencies = await currenciesById(q);
  return rows.map((r) => ({
    ...r,
    user_account: accounts.get(r.user_id) ?? '',
    symbol: currencies.get(r.currency_id)?.symbol ?? '',
    created_at: r.created_at.toISOString(),
    reviewed_at: r.reviewed_at?.toISOString() ?? null,
  }));
}

const snapshot = (r: AdjustmentRow) => ({
  ...r,
  created_at: r.created_at.toISOString(),
  reviewed_at: r.reviewed_at?.toISOString() ?? null,
});

function parseWhole(v: string | undefined, field: string, requiredKey: string): number {
  const s = (v ?? '').trim();
  if (!s) throw invalid(requiredKey, field);
  if (!/^\d{1,9}$/.test(s)) throw new AppError('NOT_FOUND', 'errors.notFound', {}, field);
  return Number(s);
}

export function adjustments(db: Db) {
  async function byId(q: Queryable, id: number, lock = false): Promise<AdjustmentRow | null> {
    const [row] = await q.query<AdjustmentRow>(`${SELECT} WHERE a.id = $1${lock ? ' FOR UPDATE OF a' : ''}`, [
      id,
    ]);
    return row ?? null;
  }

  return {
    async list(query: { status?: string | undefined } & PageInput) {
      const s = (query.status ?? '').trim().toLowerCase() || 'pending';
      if (s !== 'all' && !(MONEY_REQUEST_STATES as readonly string[]).includes(s))
        throw invalid('admin.statusInvalid', 'status');
      const p = parsePaging(query);
      const cond = s === 'all' ? '' : 'WHERE a.status = $1';
      const { rows, total } = await pageOf<AdjustmentRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM balance_adjustments a ${cond}`,
          list: `${SELECT} ${cond} ORDER BY a.id ${s === 'pending' ? 'ASC' : 'DESC'}`,
        },
        s === 'all' ? [] : [s],
        p,
      );
      return { items: await present(db, rows), total, page: p.page, limit: p.limit };
    },

    async pendingCount(q: Queryable): Promise<number> {
      const [r] = await q.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM balance_adjustments WHERE status = 'pending'",
      );
      return r!.n;
    },

    /** The request: checked, stored pending, audited; no balance moves. */
    async request(op: OperatorSession, ip: string, body: AdminAdjustmentBody): Promise<AdminAdjustment> {
      const userId = parseWhole(body.user_id, 'user_id', 'admin.userIdRequired');
      const type = (body.account_type ?? '').trim();
      if (!(WALLET_ACCOUNT_TYPES as readonly string[]).includes(type))
        throw invalid('wallet.accountTypeInvalid', 'account_type');
      const currencyId = parseWhole(body.currency_id, 'currency_id', 'wallet.currencyRequired');
      const cur = await findCurrency(db, currencyId);
      if (!cur) throw new AppError('CURRENCY_UNAVAILABLE', 'wallet.currencyInvalid', {}, 'currency_id');
      const raw = (body.amount ?? '').trim();
      if (!raw) throw invalid('wallet.amountRequired', 'amount');
      const amount = parseDecimal(raw, { maxDecimals: cur.decimals });
      const abs = amount?.replace(/^-/, '');
      if (
        amount === null ||
        abs === undefined ||
        compareDecimal(abs, '0') === 0 ||
        compareDecimal(abs, MAX_ABS) >= 0
      )
        throw invalid('admin.adjustmentAmountInvalid', 'amount', { decimals: cur.decimals });
      const reason = parseReason(body.reason, REASON_KEYS);
      if (!(await userExists(db, userId)))
        throw new AppError('NOT_FOUND', 'admin.userNotFound', {}, 'user_id');
      return db.tx(async (q) => {
        const [row] = await q.query<{ id: number }>(
          `INSERT INTO balance_adjustments (user_id, account_type, currency_id, amount, reason, requested_by)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [userId, type, currencyId, amount, reason, op.id],
        );
        const after = (await byId(q, row!.id))!;
        await writeAudit(q, {
          operatorId: op.id,
          action: 'adjustment.request',
          targetType: 'adjustment',
          targetId: after.id,
          before: null,
          after: snapshot(after),
          ip,
        });
        return (await present(q, [after]))[0]!;
      });
    },

    /**
     * Approve or reject. The row is locked, so of many approvals at once one decides and posts;
     * the others find it decided. The requester can neither approve nor reject their own request.
     */
    async review(
      decision: 'approve' | 'reject',
      op: OperatorSession,
      ip: string,
      body: { id?: string | undefined; note?: string | undefined },
    ): Promise<AdminAdjustment> {
      const id = parseWhole(body.id, 'id', 'admin.idRequired');
      const note =
        decision === 'reject'
          ? parseReason(body.note, NOTE_KEYS)
          : (body.note ?? '').trim().slice(0, 200) || null;
      return db
        .tx(async (q) => {
          const before = await byId(q, id, true);
          if (!before) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
          if (before.status !== 'pending')
            throw new AppError('ALREADY_REVIEWED', 'admin.alreadyReviewed', {}, 'id');
          if (before.requested_by === op.id)
            throw new AppError('FORBIDDEN', 'admin.adjustmentOwnRequest', {}, 'id');
          await q.query(
            `UPDATE balance_adjustments SET status = $2, reviewed_by = $3, review_note = $4, reviewed_at = now()
              WHERE id = $1`,
            [id, decision === 'approve' ? 'approved' : 'rejected', op.id, note],
          );
          if (decision === 'approve') {
            const neg = before.amount.startsWith('-');
            const abs = neg ? before.amount.slice(1) : before.amount;
            await post(q, {
              reason: 'adjustment',
              refType: 'adjustment',
              refId: id,
              operatorId: op.id,
              legs: [
                {
                  account: {
                    userId: before.user_id,
                    type: before.account_type as (typeof WALLET_ACCOUNT_TYPES)[number],
                    currencyId: before.currency_id,
                  },
                  available: before.amount,
                },
                {
                  account: { house: 'adjustments', currencyId: before.currency_id },
                  available: neg ? abs : `-${abs}`,
                },
              ],
            });
          }
          const after = (await byId(q, id))!;
          await writeAudit(q, {
            operatorId: op.id,
            action: `adjustment.${decision}`,
            targetType: 'adjustment',
            targetId: id,
            before: snapshot(before),
            after: snapshot(after),
            ip,
          });
          return (await present(q, [after]))[0]!;
        })
        .catch((e) => {
          // a debit larger than the user's available balance: the request stays pending
          if (e instanceof InsufficientFunds)
            throw new AppError('INSUFFICIENT_BALANCE', 'admin.adjustmentInsufficient', {}, 'amount');
          throw e;
        });
    },
  };
}
