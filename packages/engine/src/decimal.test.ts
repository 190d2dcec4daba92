import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDecimal, compareDecimal, parseDecimal, subDecimal, truncateDecimal } from './decimal.ts';

describe('parseDecimal', () => {
  it('accepts plain decimals and normalises them', () => {
    expect(parseDecimal('105')).toBe('105');
    expect(parseDecimal(' 0.10 ')).toBe('0.1');
    expect(parseDecimal('007.50')).toBe('7.5');
    expect(parseDecimal('-0')).toBe('0');
  });
  it('rejects what a user might type by mistake', () => {
    for (const bad of ['', ' ', 'abc', '1e5', '1,000', '.5', '5.', '0x10', 'NaN', 'Infinity', '1 2']) {
      expect(parseDecimal(bad)).toBeNull();
    }
    expect(parseDecimal(12 as unknown)).toBeNull();
  });
  it('applies sign and precision options', () => {
    expect(parseDecimal('-1', { nonNegative: true })).toBeNull();
    expect(parseDecimal('0', { positive: true })).toBeNull();
    expect(parseDecimal('1.123', { maxDecimals: 2 })).toBeNull();
    expect(parseDecimal('1.12', { maxDecimals: 2 })).toBe('1.12');
  });
  it('keeps precision a float would lose', () => {
    expect(addDecimal('0.1', '0.2')).toBe('0.3');
    expect(addDecimal('9007199254740993', '0.000000000000000001')).toBe(
      '9007199254740993.000000000000000001',
    );
  });
});

describe('truncateDecimal', () => {
  it('never rounds up', () => {
    expect(truncateDecimal('1.999999', 2)).toBe('1.99');
    expect(truncateDecimal('-1.999', 2)).toBe('-1.99');
    expect(truncateDecimal('-0.001', 2)).toBe('0');
    expect(truncateDecimal('1.5', 4, true)).toBe('1.5000');
  });
  it('is never larger in magnitude than the input (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 12 }),
        (n, k) => {
          const s = `${n / 10n ** 12n}.${(n < 0n ? -n : n) % 10n ** 12n}`.replace(/^(-?)0*(\d)/, '$1$2');
          const v = parseDecimal(s.startsWith('-0.') || s === '-0' ? s : s) ?? '0';
          const t = truncateDecimal(v, k);
          const abs = (x: string) => (x.startsWith('-') ? x.slice(1) : x);
          expect(compareDecimal(abs(t), abs(v))).toBeLessThanOrEqual(0);
          expect(compareDecimal(abs(subDecimal(v, t)), `0.${'0'.repeat(Math.max(0, k - 1))}1`)).toBeLessThan(
            k === 0 ? 2 : 1,
          );
        },
      ),
    );
  });
});
