import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../decimal.ts';
import {
  DAY_MS,
  dailyInterest,
  daysAccrued,
  earlyRedemptionPenalty,
  interestForDays,
  totalYieldRate,
} from './yield.ts';

describe('trust yield', () => {
  it('spec example: 0.4 % a day for 15 days on 10,000 pays 600', () => {
    expect(dailyInterest('10000', '0.004', 6)).toBe('40');
    expect(interestForDays('10000', '0.004', 15, 6)).toBe('600');
    expect(totalYieldRate('0.004', 15)).toBe('0.06');
  });
  it('truncates each day to the currency decimals, never rounds up', () => {
    // 333.33 × 0.004 = 1.33332 → 1.33 with 2 decimals; 3 days → 3.99
    expect(dailyInterest('333.33', '0.004', 2)).toBe('1.33');
    expect(interestForDays('333.33', '0.004', 3, 2)).toBe('3.99');
    expect(dailyInterest('0.01', '0.004', 2)).toBe('0');
  });
  it('counts whole days from the start, capped at the term', () => {
    const start = Date.UTC(2026, 0, 1);
    expect(daysAccrued(start, start - 1, 15)).toBe(0);
    expect(daysAccrued(start, start + DAY_MS - 1, 15)).toBe(0);
    expect(daysAccrued(start, start + DAY_MS, 15)).toBe(1);
    expect(daysAccrued(start, start + 100 * DAY_MS, 15)).toBe(15);
  });
  it('property: paying day by day sums to paying all days at once, never above principal × rate × days', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 365 }),
        fc.integer({ min: 0, max: 8 }),
        (cents, ratePerMil, term, decimals) => {
          const principal = dec(String(cents)).div(100).toFixed();
          const rate = dec(String(ratePerMil)).div(10000).toFixed();
          let sum = dec('0');
          for (let d = 0; d < term; d++) sum = sum.plus(dailyInterest(principal, rate, decimals));
          expect(sum.toFixed()).toBe(dec(interestForDays(principal, rate, term, decimals)).toFixed());
          expect(sum.lte(dec(principal).times(rate).times(term))).toBe(true);
        },
      ),
    );
  });
});

describe('early-redemption penalty', () => {
  const base = { principal: '1000', dailyRate: '0.004', termDays: 15, decimals: 6 };
  it('spec example: ratio 0.4 %, 3 days remaining, 1,000 gives 12', () => {
    expect(earlyRedemptionPenalty({ ...base, rule: 'remaining_days', rate: '0.004', daysAccrued: 12 })).toBe(
      '12',
    );
  });
  it('1.5 × the daily interest whatever the day', () => {
    // 1000 × 0.004 = 4 a day, × 1.5 = 6
    for (const d of [0, 7, 14])
      expect(earlyRedemptionPenalty({ ...base, rule: 'daily_interest', rate: '1.5', daysAccrued: d })).toBe(
        '6',
      );
  });
  it('never more than the principal', () => {
    expect(
      earlyRedemptionPenalty({ ...base, rule: 'remaining_days', rate: '0.5', daysAccrued: 0, termDays: 30 }),
    ).toBe('1000');
  });
  it('property: between 0 and the principal, truncated to the decimals', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        fc.constantFrom('daily_interest' as const, 'remaining_days' as const),
        fc.integer({ min: 0, max: 6 }),
        (p, term, day, rule, decimals) => {
          const out = earlyRedemptionPenalty({
            rule,
            rate: rule === 'daily_interest' ? '1.5' : '0.004',
            principal: String(p),
            dailyRate: '0.004',
            termDays: term,
            daysAccrued: Math.min(day, term),
            decimals,
          });
          expect(dec(out).gte(0) && dec(out).lte(String(p))).toBe(true);
          expect(dec(out).decimalPlaces()).toBeLessThanOrEqual(decimals);
        },
      ),
    );
  });
});
