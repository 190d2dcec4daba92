import { dec } from '@verdant/engine';
import { describe, expect, it } from 'vitest';
import { simulateHistory } from './backfill.ts';
import { rollup } from './candles.ts';
import { roundToTick, SimSource } from './feed.ts';
import type { Market } from './markets.ts';
import { onGrid, path, seedOf, type WalkParams } from './sim.ts';

const btc: WalkParams = { marketId: 1, volatility: 0.55, reference: 67_000 };

const market = (over: Partial<Market> = {}): Market => ({
  id: 1,
  symbol: 'btcusdt',
  simulated: true,
  base: 'BTC',
  quote: 'USDT',
  baseCurrencyId: 1,
  quoteCurrencyId: 3,
  quoteDecimals: 6,
  tickSize: '0.01',
  lotSize: '0.00001',
  minAmount: '5',
  makerFee: '0.001',
  takerFee: '0.001',
  priceDecimals: 2,
  amountDecimals: 5,
  enabled: true,
  sort: 1,
  simPrice: '67000',
  simVolatility: '0.55',
  simVolume: '2.5',
  maxQty: '1000',
  maxAmount: '10000000',
  maxOpenOrders: 200,
  priceBand: '0.2',
  ...over,
});

const T0 = Date.parse('2026-01-05T00:00:00Z');

describe('the seeded random walk', () => {
  it('is deterministic: the same seed at the same times gives the same prices', () => {
    const a = path(67_000, btc, seedOf('verdant'), T0, T0 + 3_600_000, 1000);
    const b = path(67_000, btc, seedOf('verdant'), T0, T0 + 3_600_000, 1000);
    expect(a).toHaveLength(3600);
    expect(b).toEqual(a);
    const other = path(67_000, btc, seedOf('another seed'), T0, T0 + 3_600_000, 1000);
    expect(other.map((p) => p.price)).not.toEqual(a.map((p) => p.price));
    // each market walks on its own
    const eth = path(67_000, { ...btc, marketId: 2 }, seedOf('verdant'), T0, T0 + 3_600_000, 1000);
    expect(eth.map((p) => p.price)).not.toEqual(a.map((p) => p.price));
  });

  it('the feed source gives the same quotes for the same seed and times, after a restart too', () => {
    const m = [market(), market({ id: 2, symbol: 'ethusdt', simPrice: '3500', simVolatility: '0.7' })];
    const run = (src: SimSource, from: number, n: number) =>
      Array.from({ length: n }, (_, i) => Object.fromEntries(src.quote(m, from + i * 1000)));
    const a = run(new SimSource(7), T0, 20);
    expect(run(new SimSource(7), T0, 20)).toEqual(a);
    // resumed from the 10th price, the rest follows the same path
    const resumed = new SimSource(7);
    resumed.resume(1, a[9]![1]!, T0 + 9000);
    resumed.resume(2, a[9]![2]!, T0 + 9000);
    const rest = run(resumed, T0 + 10_000, 10);
    for (let i = 0; i < 10; i++) {
      expect(Number(rest[i]![1])).toBeCloseTo(Number(a[10 + i]![1]), 6);
      expect(Number(rest[i]![2])).toBeCloseTo(Number(a[10 + i]![2]), 6);
    }
  });

  it('has about the volatility asked for, and stays positive', () => {
    // 30 days of 1-minute returns: realised annual volatility near 55 % (jumps add a little)
    const p = path(67_000, btc, 42, T0, T0 + 30 * 86_400_000, 60_000);
    const r = p.slice(1).map((x, i) => Math.log(x.price / p[i]!.price));
    const mean = r.reduce((a, b) => a + b, 0) / r.length;
    const variance = r.reduce((a, b) => a + (b - mean) ** 2, 0) / (r.length - 1);
    const annual = Math.sqrt(variance * ((365.25 * 86_400_000) / 60_000));
    expect(annual).toBeGreaterThan(0.45);
    expect(annual).toBeLessThan(0.75);
    expect(Math.min(...p.map((x) => x.price))).toBeGreaterThan(0);
  });

  it('records prices only as decimal strings on the tick grid', () => {
    expect(onGrid(67_123.456_789, '0.01')).toBe('67123.46');
    expect(onGrid(0.123_456_7, '0.00001')).toBe('0.12346');
    expect(onGrid(0.000_001, '0.00001')).toBe('0.00001');
    expect(roundToTick('67123.455', '0.01')).toBe('67123.46');
    expect(roundToTick('67123.45499999', '0.01')).toBe('67123.45');
    expect(roundToTick('1.2345e-7', '0.0001')).toBe('0.0001');
    expect(roundToTick('7.0015', '0.001')).toBe('7.002');
    for (const { price } of path(
      0.15,
      { marketId: 6, volatility: 1, reference: 0.15 },
      3,
      T0,
      T0 + 600_000,
      1000,
    )) {
      const s = roundToTick(price.toPrecision(15), '0.00001');
      expect(dec(s).div('0.00001').isInteger()).toBe(true);
      expect(s).toMatch(/^\d+(\.\d{1,5})?$/);
    }
  });
});

describe('simulated history (back-fill)', () => {
  const now = Date.parse('2026-03-10T12:34:56Z');
  const h = simulateHistory(market(), 99, 30, now);

  it('is deterministic for a seed', () => {
    const again = simulateHistory(market(), 99, 30, now);
    expect(again['1min'].slice(-50)).toEqual(h['1min'].slice(-50));
    expect(again['1day']).toEqual(h['1day']);
    expect(simulateHistory(market(), 100, 30, now)['1day']).not.toEqual(h['1day']);
  });

  it('covers 30 days of minutes up to now, with consistent candles and volume', () => {
    const minutes = h['1min'];
    expect(minutes[0]!.t).toBe(Date.parse('2026-02-08T12:34:00Z'));
    expect(minutes.at(-1)!.t).toBe(Date.parse('2026-03-10T12:34:00Z'));
    expect(minutes).toHaveLength(30 * 1440 + 1);
    for (const c of minutes) {
      expect(c.l <= c.o && c.o <= c.h && c.l <= c.c && c.c <= c.h).toBe(true);
      expect(c.l).toBeGreaterThan(0n);
    }
    expect(minutes.reduce((a, c) => a + c.v, 0n)).toBeGreaterThan(0n);
    // coarser intervals are roll-ups of the minutes
    for (const i of ['5min', '60min', '1day', '1week', '1mon'] as const)
      expect(h[i]).toEqual(rollup(minutes, i).map((c) => ({ ...c })));
    // it starts at the market's reference price
    expect(minutes[0]!.o).toBe(6_700_000n);
  });
});
