import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec, truncateDecimal } from '../decimal.ts';
import {
  deliveryTick,
  type OptionDirection,
  optionResult,
  purchaseTick,
  settleOption,
  winPayout,
} from './settle.ts';

const terms = { profitRatio: '0.8', feeRate: '0.02', decimals: 6 };

describe('option result', () => {
  it('bullish wins above the purchase price, bearish below, the same price is flat', () => {
    expect(optionResult('bullish', '100', '100.01')).toBe('win');
    expect(optionResult('bullish', '100', '99.99')).toBe('loss');
    expect(optionResult('bearish', '100', '99.99')).toBe('win');
    expect(optionResult('bearish', '100', '100.01')).toBe('loss');
    expect(optionResult('bullish', '100', '100.00')).toBe('flat');
    expect(optionResult('bearish', '67000.5', '67000.50')).toBe('flat');
  });
});

describe('settlement of one order', () => {
  it('a win pays the stake plus stake × ratio, less the fee on that profit', () => {
    const s = settleOption({
      ...terms,
      amount: '100',
      direction: 'bullish',
      purchasePrice: '1',
      deliveryPrice: '2',
    });
    // profit 80, fee 2 % of it = 1.6, the user gets 100 + 78.4
    expect(s).toEqual({ result: 'win', payout: '178.4', pnl: '78.4', fee: '1.6', pool: '80' });
  });
  it('a loss keeps the stake in the option pool', () => {
    const s = settleOption({
      ...terms,
      amount: '100',
      direction: 'bullish',
      purchasePrice: '2',
      deliveryPrice: '1',
    });
    expect(s).toEqual({ result: 'loss', payout: '0', pnl: '-100', fee: '0', pool: '-100' });
  });
  it('flat refunds the whole stake and charges nothing', () => {
    const s = settleOption({
      ...terms,
      amount: '12.5',
      direction: 'bearish',
      purchasePrice: '3',
      deliveryPrice: '3.0',
    });
    expect(s).toEqual({ result: 'flat', payout: '12.5', pnl: '0', fee: '0', pool: '0' });
  });
  it('truncates profit and fee to the currency, never paying a fraction it cannot hold', () => {
    const w = winPayout({ amount: '10.123457', profitRatio: '0.85', feeRate: '0.02', decimals: 6 });
    // 10.123457 × 0.85 = 8.60493845 → 8.604938; × 0.02 = 0.17209876 → 0.172098
    expect(w).toEqual({ gross: '8.604938', fee: '0.172098', net: '8.43284' });
  });
  it('a zero fee rate pays the whole profit', () => {
    expect(winPayout({ amount: '50', profitRatio: '0.3', feeRate: '0', decimals: 6 })).toEqual({
      gross: '15',
      fee: '0',
      net: '15',
    });
  });

  const amount = fc
    .tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 6 }))
    .map(([n, places]) =>
      dec(n.toString())
        .div(10 ** places)
        .toFixed(),
    );
  const ratio = fc.integer({ min: 0, max: 10_000 }).map((n) => dec(String(n)).div(10_000).toFixed());
  const price = fc.integer({ min: 1, max: 1_000_000 }).map((n) => dec(String(n)).div(100).toFixed());
  const direction = fc.constantFrom<OptionDirection>('bullish', 'bearish');

  it('moves value and never makes it: stake + pool = payout + fee, and nothing goes below zero (property)', () => {
    fc.assert(
      fc.property(amount, ratio, ratio, direction, price, price, (a, r, f, d, p0, p1) => {
        const s = settleOption({
          amount: a,
          profitRatio: r,
          feeRate: f,
          decimals: 6,
          direction: d,
          purchasePrice: p0,
          deliveryPrice: p1,
        });
        expect(dec(a).plus(s.pool).eq(dec(s.payout).plus(s.fee))).toBe(true);
        expect(dec(s.payout).gte(0) && dec(s.fee).gte(0)).toBe(true);
        expect(dec(s.payout).minus(a).eq(s.pnl)).toBe(true);
        // a win never pays more than the stake × (1 + ratio), a loss costs exactly the stake
        if (s.result === 'win') expect(dec(s.payout).lte(dec(a).times(dec('1').plus(r)))).toBe(true);
        if (s.result === 'loss') expect(s.pnl).toBe(dec(a).neg().toFixed());
      }),
    );
  });

  it('the integer arithmetic pays to the unit what decimal.js computes, at any number of places (property)', () => {
    const places = fc
      .tuple(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }))
      .map(([n, p]) => dec(n.toString()).div(dec('10').pow(p)).toFixed());
    fc.assert(
      fc.property(places, ratio, ratio, fc.integer({ min: 0, max: 18 }), (a, r, f, decimals) => {
        // the database prints NUMERIC with trailing zeros: the same value must pay the same
        const pad = (v: string) => (v.includes('.') ? `${v}000` : `${v}.000`);
        const gross = truncateDecimal(dec(a).times(r).toFixed(), decimals);
        const fee = truncateDecimal(dec(gross).times(f).toFixed(), decimals);
        const want = { gross, fee, net: dec(gross).minus(fee).toFixed() };
        const t = { amount: pad(a), profitRatio: pad(r), feeRate: f, decimals };
        expect(winPayout(t)).toEqual(want);
        const s = settleOption({
          ...t,
          direction: 'bullish',
          purchasePrice: '1.50',
          deliveryPrice: '1.5001',
        });
        expect(s.payout).toBe(dec(a).plus(want.net).toFixed());
      }),
    );
  });

  it('the two directions on the same ticks are opposite, or both flat (property)', () => {
    fc.assert(
      fc.property(price, price, (p0, p1) => {
        const up = optionResult('bullish', p0, p1);
        const down = optionResult('bearish', p0, p1);
        if (p0 === p1) expect([up, down]).toEqual(['flat', 'flat']);
        else expect(new Set([up, down])).toEqual(new Set(['win', 'loss']));
      }),
    );
  });
});

describe('which ticks count', () => {
  // a hand-made series: one tick a second, with a gap (the feed stopped) from 5 s to 20 s
  const series = [
    { id: 'a', time: 1_000, price: '100' },
    { id: 'b', time: 2_000, price: '101' },
    { id: 'c', time: 3_000, price: '99' },
    { id: 'd', time: 4_000, price: '99' },
    { id: 'e', time: 5_000, price: '102' },
    { id: 'f', time: 20_000, price: '98' },
  ];

  it('the purchase tick is the latest at or before the purchase', () => {
    expect(purchaseTick(series, 2_500)?.id).toBe('b');
    expect(purchaseTick(series, 3_000)?.id).toBe('c');
    expect(purchaseTick(series, 999)).toBeNull();
  });
  it('the delivery tick is the first at or after the delivery time', () => {
    expect(deliveryTick(series, 3_000)?.id).toBe('c');
    expect(deliveryTick(series, 3_001)?.id).toBe('d');
    // a delivery inside the gap settles on the first tick after it
    expect(deliveryTick(series, 6_000)?.id).toBe('f');
    // none yet: the order keeps waiting
    expect(deliveryTick(series, 20_001)).toBeNull();
  });
  it('settles a bought series end to end: bullish at 2.5 s for 1 s loses, bearish wins', () => {
    const bought = purchaseTick(series, 2_500)!;
    const delivered = deliveryTick(series, 3_500)!;
    expect([bought.price, delivered.price]).toEqual(['101', '99']);
    expect(optionResult('bullish', bought.price, delivered.price)).toBe('loss');
    expect(optionResult('bearish', bought.price, delivered.price)).toBe('win');
    // bought at 3.5 s (tick c, 99) for 0.5 s: tick d at 4 s is the same price, flat
    expect(
      optionResult('bullish', purchaseTick(series, 3_500)!.price, deliveryTick(series, 4_000)!.price),
    ).toBe('flat');
  });
  it('the delivery tick is never before the delivery time nor later than the first one after it (property)', () => {
    const ticks = fc
      .uniqueArray(fc.integer({ min: 0, max: 10_000 }), { minLength: 0, maxLength: 40 })
      .map((ts) => ts.map((time) => ({ time, price: '1' })));
    fc.assert(
      fc.property(ticks, fc.integer({ min: 0, max: 10_000 }), (ts, at) => {
        const d = deliveryTick(ts, at);
        const after = ts.filter((t) => t.time >= at).map((t) => t.time);
        if (after.length === 0) expect(d).toBeNull();
        else expect(d!.time).toBe(Math.min(...after));
        const p = purchaseTick(ts, at);
        const before = ts.filter((t) => t.time <= at).map((t) => t.time);
        if (before.length === 0) expect(p).toBeNull();
        else expect(p!.time).toBe(Math.max(...before));
      }),
    );
  });
});
