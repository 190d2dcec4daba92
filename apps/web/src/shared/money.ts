import { addDecimal, compareDecimal, parseDecimal, subDecimal, truncateDecimal } from '@verdant/engine';

// Money on screen (spec §9, ARCHITECTURE "money is exact"): amounts stay decimal strings from the
// server to the screen and back; they are compared and added with the engine's decimal helpers,
// and shown truncated to the currency's decimals, never rounded up. A JS number never holds one.

/** What is shown instead of an amount the user chose to hide. */
export const HIDDEN_AMOUNT = '******';
/** What is shown for a value that does not exist (a coin without a price). */
export const NO_VALUE = '—';

function group(int: string): string {
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * "1234.56789" with 2 decimals → "1,234.56". Truncates toward zero; with `pad`, keeps trailing
 * zeros ("1,234.50"). Anything that is not a decimal string shows as "—".
 */
export function formatAmount(
  value: string | null | undefined,
  decimals: number,
  opts: { pad?: boolean; group?: boolean } = {},
): string {
  if (value === null || value === undefined || value === '') return NO_VALUE;
  let s: string;
  try {
    s = truncateDecimal(value, decimals, opts.pad ?? false);
  } catch {
    return NO_VALUE;
  }
  if (opts.group === false) return s;
  const negative = s.startsWith('-');
  const [int = '0', frac] = (negative ? s.slice(1) : s).split('.');
  return `${negative ? '-' : ''}${group(int)}${frac !== undefined ? `.${frac}` : ''}`;
}

/** The amount as typed, cleaned: digits and one point, at most `decimals` after it. */
export function cleanAmountInput(raw: string, decimals: number): string {
  let s = raw.replace(/[^\d.]/g, '');
  const dot = s.indexOf('.');
  if (dot >= 0) {
    s = s.slice(0, dot + 1) + s.slice(dot + 1).replace(/\./g, '');
    s = decimals > 0 ? s.slice(0, dot + 1 + decimals) : s.slice(0, dot);
  }
  if (s.startsWith('.')) s = `0${s}`;
  return s.replace(/^0+(?=\d)/, '');
}

/** A typed amount as a canonical decimal string, or null when empty, zero or malformed. */
export function parseAmount(input: string, decimals: number): string | null {
  const s = input.trim().replace(/\.$/, '');
  return parseDecimal(s, { positive: true, maxDecimals: decimals });
}

/** a > b, on decimal strings. */
export function isGreater(a: string, b: string): boolean {
  return compareDecimal(a, b) > 0;
}

/** a < b, on decimal strings. */
export function isLess(a: string, b: string): boolean {
  return compareDecimal(a, b) < 0;
}

export function isZero(a: string): boolean {
  try {
    return compareDecimal(a, '0') === 0;
  } catch {
    return true;
  }
}

export function plus(a: string, b: string): string {
  return addDecimal(a, b);
}

/** a − b, or "0" when that would be negative (what is left to use). */
export function minusFloor(a: string, b: string): string {
  const d = subDecimal(a, b);
  return compareDecimal(d, '0') < 0 ? '0' : d;
}
