import {
  addDecimal,
  type ContractSpec,
  liquidationTicks,
  priceToTicks,
  settle,
  type Trigger,
} from '@verdant/engine';
import { canon } from '../../db/values.ts';
import type { Posting } from '../../ledger/ledger.ts';
import type { CloseReason, PositionRow } from './store.ts';

// What opening, filling, closing and cancelling a position mean for money and for the triggers,
// as plain data: ledger postings and trigger levels. No database here: the service writes them.

const LEDGER_REASON = {
  user: 'contract_close',
  take_profit: 'contract_take_profit',
  stop_loss: 'contract_stop_loss',
  liquidation: 'contract_liquidation',
} as const;

const contractAccount = (userId: number, currencyId: number) =>
  ({ userId, type: 'contract', currencyId }) as const;
const fees = (currencyId: number) => ({ house: 'fees', currencyId }) as const;

/** The contract's rules with what a position copied when it was opened (later data changes never reach it). */
export const specOf = (spec: ContractSpec, row: PositionRow): ContractSpec => ({
  ...spec,
  lotValue: canon(row.lot_value),
  closeFeeRate: canon(row.close_fee_rate),
  maintenanceRate: canon(row.maintenance_rate),
});

/**
 * A market position pays its fee and freezes its margin at once; a limit order freezes both
 * (the fee is paid when it fills).
 */
export function openPosting(
  userId: number,
  currencyId: number,
  positionId: string,
  market: boolean,
  cost: { total: string; margin: string; fee: string },
): Posting {
  const account = contractAccount(userId, currencyId);
  return market
    ? {
        reason: 'contract_open',
        refType: 'contract_position',
        refId: positionId,
        legs: [
          { account, available: `-${cost.total}`, frozen: cost.margin },
          { account: fees(currencyId), available: cost.fee },
        ],
      }
    : {
        reason: 'contract_order',
        refType: 'contract_position',
        refId: positionId,
        legs: [{ account, available: `-${cost.total}`, frozen: cost.total }],
      };
}

/** A limit order filled: its held fee goes to the fees account (null when the fee is zero). */
export function fillPosting(row: PositionRow, currencyId: number): Posting | null {
  const fee = canon(row.open_fee);
  if (fee === '0') return null;
  return {
    reason: 'contract_open',
    refType: 'contract_position',
    refId: row.id,
    legs: [
      { account: contractAccount(row.user_id, currencyId), frozen: `-${fee}` },
      { account: fees(currencyId), available: fee },
    ],
  };
}

/** Closing a holding position at `price`: margin ± P&L less the fee back to the user, the rest to the pool. */
export function closeSettlement(
  spec: ContractSpec,
  row: PositionRow,
  currencyId: number,
  price: string,
  why: CloseReason,
): { posting: Posting; pnl: string; fee: string; payout: string } {
  const margin = canon(row.margin);
  const s = settle(specOf(spec, row), row.direction, canon(row.open_price!), price, row.lots, margin);
  return {
    posting: {
      reason: LEDGER_REASON[why],
      refType: 'contract_position',
      refId: row.id,
      legs: [
        { account: contractAccount(row.user_id, currencyId), frozen: `-${margin}`, available: s.payout },
        { account: fees(currencyId), available: s.fee },
        { account: { house: 'contract_pool', currencyId }, available: s.pool },
      ],
    },
    pnl: s.pnl,
    fee: s.fee,
    payout: s.payout,
  };
}

/** A cancelled limit order: its margin and fee return to the user's available balance. */
export function cancelPosting(row: PositionRow, currencyId: number): Posting {
  const held = addDecimal(canon(row.margin), canon(row.open_fee));
  return {
    reason: 'contract_cancel',
    refType: 'contract_position',
    refId: row.id,
    legs: [{ account: contractAccount(row.user_id, currencyId), frozen: `-${held}`, available: held }],
  };
}

/** What can settle a pending order or a holding position, in the market's ticks. */
export function triggersOf(spec: ContractSpec, row: PositionRow): Trigger[] {
  const long = row.direction === 'long';
  const ticks = (p: string) => priceToTicks(canon(p), spec.tickSize)!;
  if (row.status === 'pending')
    return [{ kind: 'limit', crossing: long ? 'down' : 'up', level: ticks(row.price) }];
  if (row.status !== 'holding') return [];
  const out: Trigger[] = [];
  const liq = liquidationTicks(
    specOf(spec, row),
    row.direction,
    canon(row.open_price!),
    row.lots,
    canon(row.margin),
  );
  if (liq !== null) out.push({ kind: 'liquidation', crossing: long ? 'down' : 'up', level: liq });
  if (row.take_profit !== null && row.stop_loss !== null) {
    out.push({ kind: 'take_profit', crossing: long ? 'up' : 'down', level: ticks(row.take_profit) });
    out.push({ kind: 'stop_loss', crossing: long ? 'down' : 'up', level: ticks(row.stop_loss) });
  }
  return out;
}
