import { dec, fromScaled, mulDecimal } from '@verdant/engine';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toCount } from './grid.ts';

describe('toCount', () => {
  it('counts a price or quantity on the grid exactly and refuses one off it', () => {
    expect(toCount('65000.01', '0.01')).toBe(6_500_001);
    expect(toCount('0.5', '0.0001')).toBe(5000);
    expect(toCount('3', '0.5')).toBe(6);
    expect(toCount('65000.015', '0.01')).toBeNull();
    expect(toCount('0', '0.01')).toBeNull();
    expect(toCount('90071992547409.92', '0.01')).toBeNull();
  });
  it('agrees with decimal division (property)', () => {
    const decimal = fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 20n }), fc.integer({ min: 0, max: 10 }))
      .map(([n, places]) => fromScaled(n, places));
    fc.assert(
      fc.property(decimal, decimal, fc.option(fc.integer({ min: 1, max: 10 ** 9 })), (v, step, k) => {
        // Half the time a multiple of the step, as most real inputs are.
        const value = k === null ? v : mulDecimal(step, String(k));
        const q = dec(value).div(step);
        const want = q.isInteger() && q.gte(1) && q.lte(Number.MAX_SAFE_INTEGER) ? Number(q.toFixed()) : null;
        expect(toCount(value, step)).toBe(want);
      }),
    );
  });
});
