import Decimal from 'decimal.js';

// Money travels as decimal strings and is computed with decimal.js; a JS number never holds an amount.
// 40 significant digits comfortably covers NUMERIC(36,18) amounts.
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_DOWN, toExpNeg: -40, toExpPos: 40 });
export type Dec = InstanceType<typeof D>;

/** Plain decimal notation: optional sign, digits, optional fraction. No exponents, no spaces. */
const DECIMAL_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;
const LOOSE_RE = /^-?\d+(?:\.\d+)?$/;

export interface ParseOptions {
  /** Reject values below zero. */
  nonNegative?: boolean;
  /** Reject zero and values below it. */
  positive?: boolean;
  /** Most digits allowed after the point. */
  maxDecimals?: number;
}

/**
 * Parses user input into a canonical decimal string, or returns null when it is not a plain
 * decimal or breaks the options. Leading zeros ("007.5") are accepted and normalised.
 */
export function parseDecimal(input: unknown, opts: ParseOptions = {}): string | null {
  if (typeof input !== 'string' && typeof input !== 'bigint') return null;
  const s = String(input).trim();
  if (s.length === 0 || s.length > 64 || !LOOSE_RE.test(s)) return null;
  const d = new D(s);
  if (opts.nonNegative && d.isNegative() && !d.isZero()) return null;
  if (opts.positive && (d.isZero() || d.isNegative())) return null;
  if (opts.maxDecimals !== undefined && d.decimalPlaces() > opts.maxDecimals) return null;
  return canonical(d);
}

/** True when the string is already in canonical plain decimal form. */
export function isCanonicalDecimal(s: string): boolean {
  return DECIMAL_RE.test(s) && canonical(new D(s)) === s;
}

function canonical(d: Dec): string {
  const s = d.toFixed();
  return s === '-0' ? '0' : s;
}

export function dec(s: string | Dec): Dec {
  return new D(s);
}

/** -1, 0 or 1. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  return new D(a).comparedTo(new D(b)) as -1 | 0 | 1;
}

export function addDecimal(a: string, b: string): string {
  return canonical(new D(a).plus(b));
}

export function subDecimal(a: string, b: string): string {
  return canonical(new D(a).minus(b));
}

export function mulDecimal(a: string, b: string): string {
  return canonical(new D(a).times(b));
}

/**
 * Truncates toward zero to `decimals` places: display never rounds up (spec §9).
 * With `pad`, keeps trailing zeros ("1.50"), as a price column wants.
 */
export function truncateDecimal(value: string, decimals: number, pad = false): string {
  if (!Number.isInteger(decimals) || decimals < 0)
    throw new RangeError('decimals must be a whole number ≥ 0');
  const d = new D(value).toDecimalPlaces(decimals, Decimal.ROUND_DOWN);
  const s = pad ? d.toFixed(decimals) : canonical(d);
  return s.startsWith('-') && new D(s).isZero() ? s.slice(1) : s;
}
