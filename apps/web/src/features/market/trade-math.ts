import { dec, mulDecimal, truncateDecimal } from '@verdant/engine';

// Order-form arithmetic on decimal strings (decimal.js through the engine's helpers, rounding
// down): a JS number never holds a price, a quantity or an amount.

function canonical(d: ReturnType<typeof dec>): string {
  const s = d.toFixed();
  return s === '-0' ? '0' : s;
}

/** The largest multiple of `step` not above `value` ("0.123456", "0.0001" → "0.1234"). */
export function floorToStep(value: string, step: string): string {
  const s = dec(step);
  if (s.isZero() || s.isNegative()) return canonical(dec(value));
  return canonical(dec(value).div(s).floor().times(s));
}

/** `pct` percent of `available`, truncated to `decimals`. */
export function percentOf(available: string, pct: number, decimals: number): string {
  const v = dec(available).times(pct).div(100);
  return truncateDecimal(canonical(v), decimals);
}

/** Quantity a buy of `pct` percent of the quote balance gets at `price`, in whole lots. */
export function buyQuantity(availableQuote: string, pct: number, price: string, lotSize: string): string {
  if (dec(price).lte(0)) return '0';
  return floorToStep(canonical(dec(availableQuote).times(pct).div(100).div(price)), lotSize);
}

/** Quantity a sell of `pct` percent of the base balance offers, in whole lots. */
export function sellQuantity(availableBase: string, pct: number, lotSize: string): string {
  return floorToStep(canonical(dec(availableBase).times(pct).div(100)), lotSize);
}

/** price × quantity, truncated to `decimals`. */
export function orderValue(price: string, qty: string, decimals: number): string {
  return truncateDecimal(mulDecimal(price, qty), decimals);
}

/** A fee rate as a percentage: "0.001" → "0.1". */
export function feePercent(rate: string): string {
  return canonical(dec(rate).times(100));
}

/** Decimals of a step: "0.0001" → 4, "1" → 0. */
export function stepDecimals(step: string): number {
  const d = dec(step).decimalPlaces();
  return Number.isFinite(d) ? d : 8;
}
