import { type Dec, dec } from '@verdant/engine';

/**
 * The engine counts in whole ticks, lots and quote units (tick × lot); the ledger in decimals.
 * These convert between them exactly: a value off the grid is null, never rounded.
 */
export interface Grid {
  tickSize: string;
  lotSize: string;
}

/** `value / step` as a safe integer ≥ 1, or null when off the grid, zero or too large. */
export function toCount(value: string, step: string): number | null {
  const q = dec(value).div(step);
  if (!q.isInteger() || q.lt(1) || q.gt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(q.toFixed());
}

/** One quote unit in the quote currency: tick × lot. */
export const quoteUnit = (g: Grid): Dec => dec(g.tickSize).times(g.lotSize);

export const priceOf = (g: Grid, ticks: number | bigint): Dec => dec(g.tickSize).times(ticks.toString());
export const qtyOf = (g: Grid, lots: number | bigint): Dec => dec(g.lotSize).times(lots.toString());
export const amountOf = (g: Grid, units: number | bigint): Dec => quoteUnit(g).times(units.toString());

/** price × qty in quote units, exactly (bigint), for the safe-integer bound of the engine. */
export const unitsOf = (ticks: number, lots: number): bigint => BigInt(ticks) * BigInt(lots);
