import { parseDecimal } from '@verdant/engine';

/** A stored NUMERIC as a canonical decimal string ("10.500000000000000000" → "10.5"). */
export const canon = (v: string): string => parseDecimal(v) ?? '0';

/** Whether a statement failed on a unique constraint (SQLSTATE 23505), on PostgreSQL and PGlite. */
export function isUniqueViolation(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '23505';
}
