import Decimal from 'decimal.js';

// Money travels as decimal strings and is computed with decimal.js where it multiplies or divides;
// parsing, comparing, adding, subtracting and truncating need no more than strings and bigints
// (plain-decimal.ts, re-exported here). A JS number never holds an amount.
// 40 significant digits comfortably covers NUMERIC(36,18) amounts.
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_DOWN, toExpNeg: -40, toExpPos: 40 });
export type Dec = InstanceType<typeof D>;

/** Plain decimal notation: optional sign, digits, optional fraction. No exponents, no spaces. */
const DECIMAL_RE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

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

export function mulDecimal(a: string, b: string): string {
  return canonical(new D(a).times(b));
}

export * from './plain-decimal.ts';
