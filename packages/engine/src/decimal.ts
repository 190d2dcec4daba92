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
  // By string, not decimal.js: every order's price and quantity pass here.
  const negative = s.charCodeAt(0) === 45;
  const body = negative ? s.slice(1) : s;
  const dot = body.indexOf('.');
  let i = 0;
  const wholeEnd = dot < 0 ? body.length : dot;
  while (i < wholeEnd - 1 && body.charCodeAt(i) === 48) i++;
  const whole = body.slice(i, wholeEnd);
  const fraction = dot < 0 ? '' : body.slice(dot + 1, zerosFrom(body, dot + 1));
  const zero = whole === '0' && fraction === '';
  if (opts.nonNegative && negative && !zero) return null;
  if (opts.positive && (zero || negative)) return null;
  if (opts.maxDecimals !== undefined && fraction.length > opts.maxDecimals) return null;
  const out = fraction === '' ? whole : `${whole}.${fraction}`;
  return negative && !zero ? `-${out}` : out;
}

/** Where the trailing zeros of `s` begin, but not before `min`: its end without them. */
function zerosFrom(s: string, min: number): number {
  let end = s.length;
  while (end > min && s.charCodeAt(end - 1) === 48) end--;
  return end;
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

/**
 * Fixed point for hot paths: a decimal string as a bigint count of 10^-places, exactly, or null
 * when it is not a plain decimal or has more places. The ledger keeps NUMERIC(36,18) amounts
 * this way (places 18): sums and sign checks on bigints allocate far less than decimal.js does.
 */
export function toScaled(value: string, places: number): bigint | null {
  if (!LOOSE_RE.test(value)) return null;
  const dot = value.indexOf('.');
  if (dot < 0) return BigInt(value) * 10n ** BigInt(places);
  // The database prints NUMERIC(36,18) with all 18 places: trailing zeros are not precision.
  const frac = value.slice(dot + 1, zerosFrom(value, dot + 1 + places));
  if (frac.length > places) return null;
  // "-0.5": the sign sits on the whole part, which BigInt of the joined digits keeps.
  return BigInt(value.slice(0, dot) + frac.padEnd(places, '0'));
}

/** The canonical decimal string of a scaled count (no trailing zeros, "0" never "-0"). */
export function fromScaled(v: bigint, places: number): string {
  if (places === 0) return v.toString();
  const neg = v < 0n;
  const digits = (neg ? -v : v).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const frac = digits.slice(digits.length - places, zerosFrom(digits, digits.length - places));
  const s = frac.length > 0 ? `${whole}.${frac}` : whole;
  return neg ? `-${s}` : s;
}
