import { compareDecimal, dec, truncateDecimal } from '../decimal.ts';

/**
 * Locked deposit products ("trust", "hosting"): the principal is locked for a term of whole days,
 * interest accrues per day and is paid day by day, and the principal comes back at maturity.
 * Pure rules, no I/O: the server counts the days and moves money through the ledger.
 */

export const DAY_MS = 86_400_000;

/** The two early-redemption rules of the spec (docs/decisions.md, "Locked deposit products"). */
export const TRUST_PENALTY_RULES = ['daily_interest', 'remaining_days'] as const;
export type TrustPenaltyRule = (typeof TRUST_PENALTY_RULES)[number];

/**
 * One day's interest: principal × daily rate, truncated to the currency's decimals (the user is
 * never paid a fraction the currency cannot hold). 10,000 at 0.4 % → 40.
 */
export function dailyInterest(principal: string, dailyRate: string, decimals: number): string {
  return truncateDecimal(dec(principal).times(dailyRate).toFixed(), decimals);
}

/** Interest of `days` whole days: days × the truncated daily amount (15 days of 40 → 600). */
export function interestForDays(
  principal: string,
  dailyRate: string,
  days: number,
  decimals: number,
): string {
  if (!Number.isInteger(days) || days < 0) throw new RangeError('days must be a whole number ≥ 0');
  return truncateDecimal(
    dec(dailyInterest(principal, dailyRate, decimals))
      .times(days)
      .toFixed(),
    decimals,
  );
}

/**
 * Whole days accrued by `now` for an order started at `startMs` (its payout times are start + k
 * days), at most the term. A clock before the start accrues nothing. `dayMs`: a day's length
 * (shorter only in end-to-end tests).
 */
export function daysAccrued(startMs: number, nowMs: number, termDays: number, dayMs = DAY_MS): number {
  if (nowMs <= startMs) return 0;
  return Math.min(termDays, Math.floor((nowMs - startMs) / dayMs));
}

export interface PenaltyTerms {
  rule: TrustPenaltyRule;
  /**
   * daily_interest: the multiple of one day's interest (1.5); remaining_days: the settlement
   * ratio per remaining day (0.004).
   */
  rate: string;
  principal: string;
  dailyRate: string;
  termDays: number;
  /** Whole days already accrued (paid). */
  daysAccrued: number;
  decimals: number;
}

/**
 * The early-redemption penalty, deducted from the principal, truncated to the currency's
 * decimals and never more than the principal:
 * - daily_interest: rate × one day's interest (1.5 × 40 = 60 on 10,000 at 0.4 %);
 * - remaining_days: rate × remaining days × principal (0.4 % × 3 × 1,000 = 12).
 */
export function earlyRedemptionPenalty(t: PenaltyTerms): string {
  const remaining = Math.max(0, t.termDays - t.daysAccrued);
  const raw =
    t.rule === 'daily_interest'
      ? dec(dailyInterest(t.principal, t.dailyRate, t.decimals)).times(t.rate)
      : dec(t.rate).times(remaining).times(t.principal);
  const p = truncateDecimal(raw.toFixed(), t.decimals);
  return compareDecimal(p, t.principal) > 0 ? truncateDecimal(t.principal, t.decimals) : p;
}

/** Total yield rate of a product: daily rate × term (0.4 % × 15 = 6 %). */
export function totalYieldRate(dailyRate: string, termDays: number): string {
  return dec(dailyRate).times(termDays).toFixed();
}
