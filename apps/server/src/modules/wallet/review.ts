import type { MoneyRequestState } from '@verdant/api';
import { addDecimal } from '@verdant/engine';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { AppError } from '../../http/errors.ts';
import { parseReason, parseTxRef } from '../../http/parse.ts';
import { findCurrency } from '../../ledger/currencies.ts';
import { type Posting, post } from '../../ledger/ledger.ts';
import { writeMessage } from '../news/service.ts';
import { negate, parseAmount, parseId, spot } from './shared.ts';

// Review functions for the operators' module: each runs inside the caller's transaction.

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

const REASON_KEYS = { required: 'wallet.rejectReasonRequired', tooLong: 'wallet.rejectReasonTooLong' };
const TX_REF_KEYS = { required: 'wallet.txRefRequired', tooLong: 'wallet.txRefTooLong' };

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

interface Decision<T> {
  status: 'approved' | 'rejected';
  /** What the decision records beside the status: the payout reference or the rejection reason. */
  note?: { column: 'tx_ref' | 'reject_reason'; value: string };
  /** The posting that moves the money, when the decision moves any. */
  posting?: (row: T) => Omit<Posting, 'refId' | 'operatorId'>;
  /** The amount the decision settles on when it is not the one asked for (a deposit credited as received). */
  amount?: (row: T) => Promise<string>;
}

/** One review: lock the pending request, post its money, record who decided what. */
async function decide<
  T extends {
    id: number;
    user_id: number;
    currency_id: number;
    status: MoneyRequestState;
    amount: string;
    fee?: string;
  },
>(
  q: Queryable,
  table: 'deposits' | 'withdrawals',
  columns: string,
  idInput: number,
  operatorId: number,
  d: Decision<T>,
): Promise<T> {
  const asked = await lockPending<T>(q, table, columns, idInput);
  const row = d.amount ? { ...asked, amount: await d.amount(asked) } : asked;
  if (d.posting) await post(q, { ...d.posting(row), refId: row.id, operatorId });
  const [after] = await q.query<T>(
    `UPDATE ${table} SET status = $3, ${d.note ? `${d.note.column} = $5, ` : ''}amount = $4,
            reviewed_by = $2, reviewed_at = now()
      WHERE id = $1 AND status = 'pending' RETURNING ${columns}`,
    [row.id, operatorId, d.status, row.amount, ...(d.note ? [d.note.value] : [])],
  );
  // decided once: the UPDATE itself requires the pending state (the row lock guards it too)
  if (!after) throw new AppError('ALREADY_REVIEWED', 'wallet.alreadyReviewed', {}, 'id');
  // the user hears of the decision in a message (pushed once this transaction commits)
  await writeMessage(
    q,
    row.user_id,
    `${table === 'deposits' ? 'deposit' : 'withdrawal'}_${d.status === 'approved' ? 'passed' : 'rejected'}`,
    {
      id: row.id,
      amount: canon(row.amount),
      currency_id: row.currency_id,
      reason: d.note?.column === 'reject_reason' ? d.note.value : '',
    },
  );
  return canonRow(after);
}

/**
 * Approves a pending deposit inside the caller's transaction: one posting credits the user's
 * spot account from the house 'deposits' account. Throws ALREADY_REVIEWED when not pending.
 */
export async function approveDeposit(
  q: Queryable,
  depositId: number,
  operatorId: number,
  /** What arrived, when it differs from what the user declared (checked against the currency). */
  credited?: string,
): Promise<DepositRow> {
  const received = credited?.trim();
  return decide<DepositRow>(q, 'deposits', DEPOSIT_ROW, depositId, operatorId, {
    status: 'approved',
    ...(received
      ? {
          amount: async (d: DepositRow) => {
            const cur = await findCurrency(q, d.currency_id);
            return parseAmount(received, cur!, 'amount');
          },
        }
      : {}),
    posting: (d) => ({
      reason: 'deposit',
      refType: 'deposit',
      legs: [
        { account: spot(d.user_id, d.currency_id), available: d.amount },
        { account: { house: 'deposits', currencyId: d.currency_id }, available: negate(d.amount) },
      ],
    }),
  });
}

/** Rejects a pending deposit with a reason (nothing was credited, so no money moves). */
export async function rejectDeposit(
  q: Queryable,
  depositId: number,
  operatorId: number,
  reason: string,
): Promise<DepositRow> {
  const why = parseReason(reason, REASON_KEYS);
  return decide<DepositRow>(q, 'deposits', DEPOSIT_ROW, depositId, operatorId, {
    status: 'rejected',
    note: { column: 'reject_reason', value: why },
  });
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
  return decide<WithdrawalRow>(q, 'withdrawals', WITHDRAWAL_ROW, id, operatorId, {
    status: 'approved',
    note: { column: 'tx_ref', value: ref },
    posting: (w) => ({
      reason: 'withdraw',
      refType: 'withdrawal',
      legs: [
        { account: spot(w.user_id, w.currency_id), frozen: negate(addDecimal(w.amount, w.fee)) },
        { account: { house: 'withdrawals', currencyId: w.currency_id }, available: w.amount },
        { account: { house: 'fees', currencyId: w.currency_id }, available: w.fee },
      ],
    }),
  });
}

/** Rejects a pending withdrawal: one posting unfreezes amount + fee back to available. */
export async function rejectWithdrawal(
  q: Queryable,
  id: number,
  operatorId: number,
  reason: string,
): Promise<WithdrawalRow> {
  const why = parseReason(reason, REASON_KEYS);
  return decide<WithdrawalRow>(q, 'withdrawals', WITHDRAWAL_ROW, id, operatorId, {
    status: 'rejected',
    note: { column: 'reject_reason', value: why },
    posting: (w) => {
      const total = addDecimal(w.amount, w.fee);
      return {
        reason: 'withdraw_reject',
        refType: 'withdrawal',
        legs: [{ account: spot(w.user_id, w.currency_id), available: total, frozen: negate(total) }],
      };
    },
  });
}
