import { type Dec, dec, toScaled } from '@verdant/engine';

/**
 * The engine counts in whole ticks, lots and quote units (tick × lot); the ledger in decimals.
 * These convert between them exactly: a value off the grid is null, never rounded.
 */
export interface Grid {
  tickSize: string;
  lotSize: string;
}

const placesOf = (s: string) => {
  const dot = s.indexOf('.');
  return dot < 0 ? 0 : s.length - dot - 1;
};
const MAX_COUNT = BigInt(Number.MAX_SAFE_INTEGER);

/** `value / step` exactly, however large, or null when off the grid or below one step. */
export function countOf(value: string, step: string): bigint | null {
  // Both as whole numbers of the finer one's places: exact, and no decimal.js per order.
  const places = Math.max(placesOf(value), placesOf(step));
  const v = toScaled(value, places);
  const s = toScaled(step, places);
  if (v === null || s === null || s <= 0n || v % s !== 0n) return null;
  const q = v / s;
  return q < 1n ? null : q;
}

/** `value / step` as a safe integer ≥ 1, or null when off the grid, zero or too large. */
export function toCount(value: string, step: string): number | null {
  const q = countOf(value, step);
  return q === null || q > MAX_COUNT ? null : Number(q);
}

/** One quote unit in the quote currency: tick × lot. */
export const quoteUnit = (g: Grid): Dec => dec(g.tickSize).times(g.lotSize);

export const priceOf = (g: Grid, ticks: number | bigint): Dec => dec(g.tickSize).times(ticks.toString());
export const qtyOf = (g: Grid, lots: number | bigint): Dec => dec(g.lotSize).times(lots.toString());
export const amountOf = (g: Grid, units: number | bigint): Dec => quoteUnit(g).times(units.toString());

/** price × qty in quote units, exactly (bigint), for the safe-integer bound of the engine. */
export const unitsOf = (ticks: number, lots: number): bigint => BigInt(ticks) * BigInt(lots);

/**
 * The largest step every value is a whole multiple of (the decimal greatest common divisor):
 * the book's grid once an operator changed a tick or lot while orders rest on the old one.
 */
export function commonStep(values: readonly string[]): string {
  const places = Math.max(0, ...values.map(placesOf));
  let g = 0n;
  for (const v of values) {
    let a = toScaled(v, places) ?? 0n;
    let b = g;
    while (b !== 0n) [a, b] = [b, a % b];
    g = a < 0n ? -a : a;
  }
  if (g === 0n) return '0';
  const s = g.toString().padStart(places + 1, '0');
  return dec(places ? `${s.slice(0, -places)}.${s.slice(-places)}` : s).toFixed();
}
