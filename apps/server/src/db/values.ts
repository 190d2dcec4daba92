import { parseDecimal } from '@verdant/engine';

/** A stored NUMERIC as a canonical decimal string ("10.500000000000000000" → "10.5"). */
export const canon = (v: string): string => parseDecimal(v) ?? '0';

/** Whether a statement failed on a unique constraint (SQLSTATE 23505), on PostgreSQL and PGlite. */
export function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';
}

/**
 * Big array parameters as PostgreSQL array text, built here in one pass: the drivers otherwise
 * walk and escape the array element by element (on PGlite about a tenth of a big write's CPU).
 * `plainArray` is for elements of digits, signs, '.', ':', 'T', 'Z' and letters only (ids,
 * decimals, ISO times, identifiers): nothing in them needs quoting. `textArray` quotes every
 * element, so any text is safe; null becomes NULL.
 */
export const plainArray = (xs: readonly (string | number)[]): string => `{${xs.join(',')}}`;

export const textArray = (xs: readonly (string | number | null | undefined)[]): string =>
  `{${xs.map((x) => (x == null ? 'NULL' : `"${String(x).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;
