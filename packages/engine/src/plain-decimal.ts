// Plain decimal strings by string and bigint arithmetic, without decimal.js: parsing, comparing,
// adding, subtracting and truncating need no more, and a module that uses only these (the web
// app's money display on its first pages) loads none of decimal.js. Results are decimal.js's, to
// the digit, for values within NUMERIC(36,18)'s digits (property tests in decimal.test.ts); past
// 40 significant digits decimal.js cut a sum and these stay exact. Inputs in exponent form
// ("1e-7") are read as it reads them; hex, NaN and Infinity are refused.

const LOOSE_RE = /^-?\d+(?:\.\d+)?$/;
/** What decimal.js reads as a number in decimal notation: sign, digits, point, exponent. */
const NUMBER_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$/;

/** A value as `units` × 10^-`places`, exactly (`places` ≥ 0). */
interface Fixed {
  units: bigint;
  places: number;
}

function fixed(value: string): Fixed {
  const m = typeof value === 'string' ? NUMBER_RE.exec(value) : null;
  const whole = m?.[2] ?? '';
  const frac = m?.[3] ?? '';
  if (!m || whole.length + frac.length === 0) throw new TypeError(`not a decimal: ${String(value)}`);
  let units = BigInt(whole + frac || '0');
  let places = frac.length - Number(m[4] ?? 0);
  if (places < 0) {
    units *= 10n ** BigInt(-places);
    places = 0;
  }
  return { units: m[1] === '-' ? -units : units, places };
}

/** Both values in units of the finer one's places. */
function aligned(a: string, b: string): [bigint, bigint, number] {
  const x = fixed(a);
  const y = fixed(b);
  const places = Math.max(x.places, y.places);
  return [x.units * 10n ** BigInt(places - x.places), y.units * 10n ** BigInt(places - y.places), places];
}

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

/** -1, 0 or 1. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const [x, y] = aligned(a, b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function addDecimal(a: string, b: string): string {
  const [x, y, places] = aligned(a, b);
  return fromScaled(x + y, places);
}

export function subDecimal(a: string, b: string): string {
  const [x, y, places] = aligned(a, b);
  return fromScaled(x - y, places);
}

/**
 * Truncates toward zero to `decimals` places: display never rounds up (spec §9).
 * With `pad`, keeps trailing zeros ("1.50"), as a price column wants.
 */
export function truncateDecimal(value: string, decimals: number, pad = false): string {
  if (!Number.isInteger(decimals) || decimals < 0)
    throw new RangeError('decimals must be a whole number ≥ 0');
  const { units, places } = fixed(value);
  // bigint division truncates toward zero
  const cut =
    places > decimals ? units / 10n ** BigInt(places - decimals) : units * 10n ** BigInt(decimals - places);
  if (!pad) return fromScaled(cut, decimals);
  const digits = (cut < 0n ? -cut : cut).toString().padStart(decimals + 1, '0');
  const s = decimals > 0 ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
  return cut < 0n ? `-${s}` : s;
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
