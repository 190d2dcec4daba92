import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDecimal,
  compareDecimal,
  dec,
  fromScaled,
  parseDecimal,
  subDecimal,
  toScaled,
  truncateDecimal,
} from './decimal.ts';

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
  it('gives what decimal.js gives (property)', () => {
    const digits = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const input = fc
      .tuple(fc.boolean(), digits(1, 30), fc.option(digits(1, 30)), fc.constantFrom('', ' '))
      .map(([neg, w, f, pad]) => `${pad}${neg ? '-' : ''}${w}${f === null ? '' : `.${f}`}${pad}`);
    fc.assert(
      fc.property(input, fc.integer({ min: 0, max: 20 }), (s, max) => {
        const d = dec(s.trim());
        const canonical = d.isZero() ? '0' : d.toFixed();
        expect(parseDecimal(s)).toBe(canonical);
        expect(parseDecimal(s, { positive: true })).toBe(d.gt(0) ? canonical : null);
        expect(parseDecimal(s, { nonNegative: true })).toBe(d.gte(0) ? canonical : null);
        expect(parseDecimal(s, { maxDecimals: max })).toBe(d.decimalPlaces() <= max ? canonical : null);
      }),
    );
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

describe('toScaled and fromScaled', () => {
  it('reads amounts as the database prints them and refuses more places than it keeps', () => {
    expect(toScaled('12.500000000000000000', 18)).toBe(12_500_000_000_000_000_000n);
    expect(toScaled('-0.000000000000000001', 18)).toBe(-1n);
    expect(toScaled('0.0000000000000000001', 18)).toBeNull();
    expect(toScaled('1e5', 18)).toBeNull();
    expect(toScaled('', 18)).toBeNull();
    expect(fromScaled(-1n, 18)).toBe('-0.000000000000000001');
    expect(fromScaled(0n, 18)).toBe('0');
    expect(fromScaled(12_500_000_000_000_000_000n, 18)).toBe('12.5');
  });
  it('round-trips to the canonical decimal and adds as decimal.js does (property)', () => {
    // Amounts NUMERIC(36,18) holds, with 0 to 18 places.
    const amount = fc
      .tuple(fc.bigInt({ min: -(10n ** 35n), max: 10n ** 35n }), fc.integer({ min: 0, max: 18 }))
      .map(([n, places]) => fromScaled(n - (n % 10n ** BigInt(18 - places)), 18));
    fc.assert(
      fc.property(amount, amount, (a, b) => {
        expect(fromScaled(toScaled(a, 18)!, 18)).toBe(parseDecimal(a));
        expect(fromScaled(toScaled(a, 18)! + toScaled(b, 18)!, 18)).toBe(addDecimal(a, b));
        expect(toScaled(a, 18)! < toScaled(b, 18)!).toBe(compareDecimal(a, b) < 0);
      }),
    );
  });
});

describe('comparing, adding, subtracting and truncating without decimal.js (plain-decimal.ts)', () => {
  // decimal.js itself, as these functions used to call it: the reference they must match
  const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_DOWN, toExpNeg: -40, toExpPos: 40 });
  const plain = (d: InstanceType<typeof D>) => (d.isZero() ? '0' : d.toFixed());
  const digits = (min: number, max: number) =>
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
  // what reaches them: amounts as the database prints them (trailing zeros), as decimal.js's
  // toFixed writes them, and in exponent form; within NUMERIC(36,18)'s digits
  const value = fc
    .tuple(
      fc.constantFrom('', '-', '+'),
      digits(1, 9),
      fc.option(digits(0, 9)),
      fc.option(fc.integer({ min: -9, max: 9 }), { freq: 4 }),
    )
    .chain(([sign, w, f, e]) =>
      // without an exponent, as many digits as NUMERIC(36,18) has
      e === null
        ? fc
            .tuple(digits(0, 9), digits(0, 9))
            .map(([w2, f2]) => `${sign}${w}${w2}${f === null ? '' : `.${f}${f2}`}`)
        : fc.constant(`${sign}${w}${f === null ? '' : `.${f}`}e${e}`),
    );

  it('give what decimal.js gives (property)', () => {
    fc.assert(
      fc.property(value, value, fc.integer({ min: 0, max: 20 }), fc.boolean(), (a, b, k, pad) => {
        expect(compareDecimal(a, b)).toBe(new D(a).comparedTo(new D(b)));
        expect(addDecimal(a, b)).toBe(plain(new D(a).plus(b)));
        expect(subDecimal(a, b)).toBe(plain(new D(a).minus(b)));
        const t = new D(a).toDecimalPlaces(k, Decimal.ROUND_DOWN);
        const expected = pad ? (t.isZero() ? new D(0).toFixed(k) : t.toFixed(k)) : plain(t);
        expect(truncateDecimal(a, k, pad)).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuse what is not a number, as decimal.js did (the callers show "—" or reject it)', () => {
    for (const bad of ['', ' 5', '.', '-', 'abc', '1,000', 'NaN', 'Infinity', '1e', '1e99999']) {
      expect(() => compareDecimal(bad, '0'), bad).toThrow();
      expect(() => addDecimal('1', bad), bad).toThrow();
      expect(() => truncateDecimal(bad, 2), bad).toThrow();
    }
    expect(() => truncateDecimal('1', -1)).toThrow(RangeError);
  });

  it('keep a sum exact past 40 significant digits (NUMERIC(36,18) never gets there)', () => {
    expect(addDecimal('123456789012345678901234567890.123456789012', '0.000000000001')).toBe(
      '123456789012345678901234567890.123456789013',
    );
  });
});
