import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dec } from '../decimal.ts';
import { allot, subscriptionReturn } from './allot.ts';

describe('new-coin allotment', () => {
  it('allots amount / issue price coins and refunds the rest', () => {
    expect(allot('1000', '1000', '0.5', 4)).toEqual({ quantity: '2000', cost: '1000', refund: '0' });
    expect(allot('1000', '400', '0.5', 4)).toEqual({ quantity: '800', cost: '400', refund: '600' });
    expect(allot('1000', '0', '0.5', 4)).toEqual({ quantity: '0', cost: '0', refund: '1000' });
  });
  it('refunds what the truncation to the coin decimals drops', () => {
    // 10 / 3 = 3.33 coins (2 decimals) costing 9.99: 0.01 back
    expect(allot('10', '10', '3', 2)).toEqual({ quantity: '3.33', cost: '9.99', refund: '0.01' });
  });
  it('refuses more than was subscribed', () => {
    expect(() => allot('10', '11', '1', 2)).toThrow(RangeError);
  });
  it('property: cost + refund is the subscription, cost never above the allotted amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 0, max: 8 }),
        (sub, pct, priceMicro, decimals) => {
          const subscribed = String(sub);
          const amount = dec(String(sub)).times(pct).div(100).toFixed();
          const price = dec(String(priceMicro)).div(1_000_000).toFixed();
          const a = allot(subscribed, amount, price, decimals);
          expect(dec(a.cost).plus(a.refund).eq(subscribed)).toBe(true);
          expect(dec(a.cost).lte(amount)).toBe(true);
        },
      ),
    );
  });
  it('return at the coin price: accumulated and rate', () => {
    expect(subscriptionReturn('2000', '0.5', '0.75', 6)).toEqual({ accumulated: '500', rate: '0.5' });
    expect(subscriptionReturn('2000', '0.5', '0.4', 6)).toEqual({ accumulated: '-200', rate: '-0.2' });
  });
});
