import Decimal from 'decimal.js';
import { type Dec, dec, parseDecimal } from '../decimal.ts';

/**
 * Perpetual contracts: the money of one position, as pure functions on decimal strings.
 * Units: a price is in the settlement currency (USDT) per unit of the underlying; one lot is
 * `lotValue` units of the underlying, so a position's quantity is lots × lotValue.
 * Charges (margin, fees) round up to the settlement currency's decimals and payouts round down:
 * rounding never creates money for anyone, and the house pool takes the dust (docs/decisions.md,
 * "Contracts").
 */

export type Direction = 'long' | 'short';

/** A contract market as data (a row of contract_markets). */
export interface ContractSpec {
  /** Units of the underlying in one lot ("0.01" BTC). */
  lotValue: string;
  /** Leverage multiples a user may pick, ascending. */
  multiples: readonly number[];
  /** Fractions of the market value (0.0005 = 0.05 %). */
  openFeeRate: string;
  closeFeeRate: string;
  /** Equity at or below openValue × this liquidates the position. */
  maintenanceRate: string;
  maxLotsPerOrder: number;
  maxLotsPerUser: number;
  maxOpenPositions: number;
  /** Decimals of the settlement currency. */
  decimals: number;
  /** Price step of the underlying's index. */
  tickSize: string;
}

const ceilTo = (d: Dec, places: number): string => d.toDecimalPlaces(places, Decimal.ROUND_UP).toFixed();
const floorTo = (d: Dec, places: number): string => d.toDecimalPlaces(places, Decimal.ROUND_FLOOR).toFixed();
const plain = (d: Dec): string => {
  const s = d.toFixed();
  return s === '-0' ? '0' : s;
};

/** price × lots × lotValue, exact. */
export function marketValue(price: string, lots: number, lotValue: string): string {
  return plain(dec(price).times(lots).times(lotValue));
}

export interface OpenCost {
  marketValue: string;
  /** Market value ÷ multiple, rounded up to the currency's decimals: held for the position. */
  margin: string;
  /** Market value × opening fee rate, rounded up: to the house's fees account. */
  fee: string;
  /** margin + fee: what the contract account must have available. */
  total: string;
}

export function openCost(spec: ContractSpec, price: string, lots: number, multiple: number): OpenCost {
  const value = dec(price).times(lots).times(spec.lotValue);
  const margin = ceilTo(value.div(multiple), spec.decimals);
  const fee = ceilTo(value.times(spec.openFeeRate), spec.decimals);
  return { marketValue: plain(value), margin, fee, total: plain(dec(margin).plus(fee)) };
}

/** (mark − open) × lots × lotValue for a long, the opposite for a short; exact. */
export function profitAndLoss(
  direction: Direction,
  openPrice: string,
  markPrice: string,
  lots: number,
  lotValue: string,
): string {
  const move = dec(markPrice).minus(openPrice).times(lots).times(lotValue);
  return plain(direction === 'long' ? move : move.neg());
}

/** Equity at or below this liquidates: the open market value × the maintenance rate, exact. */
export function maintenanceMargin(spec: ContractSpec, openPrice: string, lots: number): string {
  return plain(dec(openPrice).times(lots).times(spec.lotValue).times(spec.maintenanceRate));
}

export interface Settlement {
  /** Profit and loss at the closing price (exact, may be below −margin). */
  pnl: string;
  /** The closing fee charged: the full fee, or what equity had left when it was less. */
  fee: string;
  /** Back to the user's available contract balance: margin + pnl − fee, never below 0, rounded down. */
  payout: string;
  /**
   * What the house contract pool receives (negative: pays): margin − payout − fee. A profit is
   * paid by the pool; a loss, and the loss beyond the margin that the user never owes, stay with it.
   */
  pool: string;
}

/**
 * Closing a position (by the user, a take-profit, a stop-loss or a liquidation) at `closePrice`.
 * The user never loses more than the margin: payout ≥ 0. margin = payout + fee + pool exactly.
 */
export function settle(
  spec: ContractSpec,
  direction: Direction,
  openPrice: string,
  closePrice: string,
  lots: number,
  margin: string,
): Settlement {
  const pnl = dec(profitAndLoss(direction, openPrice, closePrice, lots, spec.lotValue));
  const equity = dec(margin).plus(pnl);
  const fullFee = dec(
    ceilTo(dec(closePrice).times(lots).times(spec.lotValue).times(spec.closeFeeRate), spec.decimals),
  );
  const positive = equity.isPositive() && !equity.isZero() ? equity : dec('0');
  const fee = Decimal.min(fullFee, positive) as Dec;
  const payout = dec(floorTo(positive.minus(fee), spec.decimals));
  const pool = dec(margin).minus(payout).minus(fee);
  return { pnl: plain(pnl), fee: plain(fee), payout: plain(payout), pool: plain(pool) };
}

/** Price steps of a price on the tick grid, or null when it is off the grid. */
export function priceToTicks(price: string, tickSize: string): number | null {
  const q = dec(price).div(tickSize);
  if (!q.isInteger()) return null;
  const n = q.toNumber();
  return Number.isSafeInteger(n) ? n : null;
}

export function ticksToPrice(ticks: number, tickSize: string): string {
  return plain(dec(tickSize).times(ticks));
}

/** ⌊n ÷ d⌋ exactly (d > 0). */
function floorDiv(n: Dec, d: Dec): Dec {
  const q = n.divToInt(d); // truncated toward zero, exact
  return n.isNegative() && !q.times(d).eq(n) ? q.minus(1) : q;
}

/**
 * The liquidation trigger on the tick grid: a long is liquidated by the first tick at or below
 * `ticks`, a short by the first at or above. Exact: a long's equity margin + (p − open) × Q falls
 * to the maintenance margin mm at p = open − (margin − mm) ÷ Q; the trigger is the highest grid
 * price at or below it (the lowest at or above for a short). Null: no positive price reaches it
 * (a 1× long).
 */
export function liquidationTicks(
  spec: ContractSpec,
  direction: Direction,
  openPrice: string,
  lots: number,
  margin: string,
): number | null {
  const qty = dec(spec.lotValue).times(lots);
  const mm = dec(maintenanceMargin(spec, openPrice, lots));
  const room = dec(margin).minus(mm);
  const tick = dec(spec.tickSize);
  const step = qty.times(tick);
  if (direction === 'long') {
    const t = floorDiv(dec(openPrice).times(qty).minus(room), step);
    return t.lte(0) ? null : t.toNumber();
  }
  const n = dec(openPrice).times(qty).plus(room);
  const t = floorDiv(n, step);
  return (t.times(step).eq(n) ? t : t.plus(1)).toNumber();
}

/** True when equity at `price` is at or below the maintenance margin (the definition the trigger follows). */
export function isLiquidatedAt(
  spec: ContractSpec,
  direction: Direction,
  openPrice: string,
  price: string,
  lots: number,
  margin: string,
): boolean {
  const equity = dec(margin).plus(profitAndLoss(direction, openPrice, price, lots, spec.lotValue));
  return equity.lte(maintenanceMargin(spec, openPrice, lots));
}

/** Why an input or a rule refused an order: the server's message key under `contract.`. */
export type ContractRule =
  | 'lotsInvalid'
  | 'lotsTooMany'
  | 'multipleInvalid'
  | 'stopsRequired'
  | 'takeProfitSide'
  | 'stopLossSide'
  | 'priceInvalid'
  | 'limitSide';

/** Lots: a whole number ≥ 1 ("lots must be a positive integer") and at most the per-order maximum. */
export function checkLots(spec: ContractSpec, input: unknown): number | ContractRule {
  const s = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : '';
  if (!/^[0-9]{1,9}$/.test(s)) return 'lotsInvalid';
  const n = Number(s);
  if (n < 1) return 'lotsInvalid';
  if (n > spec.maxLotsPerOrder) return 'lotsTooMany';
  return n;
}

/** A price on the index's tick grid, > 0; canonical string or null. */
export function checkPrice(spec: ContractSpec, input: unknown): string | null {
  const p = parseDecimal(input, { positive: true });
  if (p === null || priceToTicks(p, spec.tickSize) === null) return null;
  return p;
}

/**
 * Take-profit and stop-loss against the reference price (the opening price, or the current
 * index when changed later): both or neither; a long's take-profit above and stop-loss below it,
 * a short's the other way round.
 */
export function checkStops(
  direction: Direction,
  reference: string,
  takeProfit: string | null,
  stopLoss: string | null,
): ContractRule | null {
  if (takeProfit === null && stopLoss === null) return null;
  if (takeProfit === null || stopLoss === null) return 'stopsRequired';
  const ref = dec(reference);
  const tpOk = direction === 'long' ? dec(takeProfit).gt(ref) : dec(takeProfit).lt(ref);
  if (!tpOk) return 'takeProfitSide';
  const slOk = direction === 'long' ? dec(stopLoss).lt(ref) : dec(stopLoss).gt(ref);
  if (!slOk) return 'stopLossSide';
  return null;
}

/**
 * A limit order waits for the index to come to it: a long below the current price, a short
 * above (one on the other side would open at once at a worse price than the market's).
 */
export function checkLimitSide(direction: Direction, current: string, limit: string): ContractRule | null {
  const ok = direction === 'long' ? dec(limit).lt(current) : dec(limit).gt(current);
  return ok ? null : 'limitSide';
}

/** A market's data is sound: the maintenance margin sits below the margin at every multiple. */
export function checkSpec(spec: ContractSpec): string | null {
  if (spec.multiples.length === 0) return 'no multiples';
  for (const m of spec.multiples) if (!Number.isSafeInteger(m) || m < 1) return `bad multiple ${m}`;
  const top = Math.max(...spec.multiples);
  if (!dec(spec.maintenanceRate).times(top).lt(1))
    return 'maintenance rate × largest multiple must stay below 1';
  return null;
}
