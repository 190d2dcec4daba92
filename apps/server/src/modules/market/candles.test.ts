import { describe, expect, it } from 'vitest';
import {
  type Acc,
  aggregate,
  aggregateAll,
  bucketStart,
  CANDLE_INTERVALS,
  type CandleInterval,
  changePercent,
  nextBucket,
  type Point,
  rollup,
  toDecimal,
  toSteps,
} from './candles.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const pt = (time: string, price: number, qty = 0): Point => ({
  t: at(time),
  price: BigInt(price),
  qty: BigInt(qty),
});
const ohlc = (a: Acc) => [a.o, a.h, a.l, a.c].map(Number);

describe('bucket boundaries (UTC)', () => {
  // a Thursday in a leap February
  const t = at('2024-02-29T13:47:31.500Z');
  const expected: Record<CandleInterval, [string, string]> = {
    '1min': ['2024-02-29T13:47:00.000Z', '2024-02-29T13:48:00.000Z'],
    '5min': ['2024-02-29T13:45:00.000Z', '2024-02-29T13:50:00.000Z'],
    '30min': ['2024-02-29T13:30:00.000Z', '2024-02-29T14:00:00.000Z'],
    '60min': ['2024-02-29T13:00:00.000Z', '2024-02-29T14:00:00.000Z'],
    '1day': ['2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    '1week': ['2024-02-26T00:00:00.000Z', '2024-03-04T00:00:00.000Z'],
    '1mon': ['2024-02-01T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
  };
  for (const interval of CANDLE_INTERVALS) {
    it(`${interval}: start and next bucket`, () => {
      const start = bucketStart(t, interval);
      expect([iso(start), iso(nextBucket(start, interval))]).toEqual(expected[interval]);
      // the start belongs to its own bucket, the instant before it to the previous one
      expect(bucketStart(start, interval)).toBe(start);
      expect(bucketStart(start - 1, interval)).toBeLessThan(start);
      expect(bucketStart(nextBucket(start, interval) - 1, interval)).toBe(start);
    });
  }

  it('weeks start on Monday, also across a year end; months roll over December', () => {
    expect(iso(bucketStart(at('2025-01-01T12:00:00Z'), '1week'))).toBe('2024-12-30T00:00:00.000Z');
    expect(iso(bucketStart(at('2024-12-29T23:59:59.999Z'), '1week'))).toBe('2024-12-23T00:00:00.000Z');
    expect(iso(nextBucket(at('2024-12-01T00:00:00Z'), '1mon'))).toBe('2025-01-01T00:00:00.000Z');
    expect(new Date(bucketStart(at('2026-06-15T10:00:00Z'), '1week')).getUTCDay()).toBe(1);
  });
});

describe('aggregation', () => {
  it('opens with the earliest point and closes with the latest, whatever the input order', () => {
    const points = [
      pt('2024-03-01T10:00:40Z', 103, 2),
      pt('2024-03-01T10:00:05Z', 100, 1),
      pt('2024-03-01T10:00:59.999Z', 99, 3),
      pt('2024-03-01T10:00:20Z', 107, 4),
      pt('2024-03-01T10:01:00Z', 110, 5),
    ];
    const [first, second] = aggregate(points, '1min');
    expect(iso(first!.t)).toBe('2024-03-01T10:00:00.000Z');
    expect(ohlc(first!)).toEqual([100, 107, 99, 99]);
    expect(first!.v).toBe(10n);
    expect(first!.a).toBe(100n * 1n + 107n * 4n + 103n * 2n + 99n * 3n);
    expect(first!.n).toBe(4);
    expect(iso(second!.t)).toBe('2024-03-01T10:01:00.000Z');
    expect(ohlc(second!)).toEqual([110, 110, 110, 110]);
  });

  it('points at the same time: the later one in the input closes', () => {
    const [c] = aggregate([pt('2024-03-01T10:00:01Z', 5, 1), pt('2024-03-01T10:00:01Z', 6, 1)], '1min');
    expect(ohlc(c!)).toEqual([5, 6, 5, 6]);
  });

  it('index ticks (no quantity) make price candles with no volume and no trades', () => {
    const [c] = aggregate([pt('2024-03-01T10:00:01Z', 5), pt('2024-03-01T10:00:02Z', 7)], '5min');
    expect(c).toMatchObject({ v: 0n, a: 0n, n: 0 });
    expect(ohlc(c!)).toEqual([5, 7, 5, 7]);
  });

  it('every interval: buckets, open/close order and volume sums agree with a direct computation', () => {
    // a deterministic pseudo-random stream over ~70 days, crossing month and week boundaries
    let s = 12345;
    const rnd = () => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return s / 4_294_967_296;
    };
    const start = at('2024-01-20T00:00:00Z');
    const points: Point[] = [];
    for (let i = 0; i < 4000; i++)
      points.push({
        t: start + Math.floor(rnd() * 70 * 86_400_000),
        price: BigInt(1 + Math.floor(rnd() * 1000)),
        qty: BigInt(Math.floor(rnd() * 50)),
      });
    const all = aggregateAll(points);
    const minutes = all['1min'];
    for (const interval of CANDLE_INTERVALS) {
      const candles = all[interval];
      // direct: group by bucket, sort each group by time (stable), read the candle off it
      const groups = new Map<number, Point[]>();
      for (const p of points) {
        const b = bucketStart(p.t, interval);
        groups.set(b, [...(groups.get(b) ?? []), p]);
      }
      expect(candles.map((c) => c.t)).toEqual([...groups.keys()].sort((a, b) => a - b));
      for (const c of candles) {
        const g = [...groups.get(c.t)!].sort((a, b) => a.t - b.t);
        const prices = g.map((p) => p.price).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(c.o).toBe(g[0]!.price);
        expect(c.c).toBe(g.at(-1)!.price);
        expect(c.h).toBe(prices.at(-1));
        expect(c.l).toBe(prices[0]);
        expect(c.v).toBe(g.reduce((a, p) => a + p.qty, 0n));
        expect(c.a).toBe(g.reduce((a, p) => a + p.qty * p.price, 0n));
        expect(c.n).toBe(g.filter((p) => p.qty > 0n).length);
      }
      // rolling up the minutes gives the same candles
      expect(rollup(minutes, interval).map(ohlc)).toEqual(candles.map(ohlc));
      expect(rollup(minutes, interval).map((c) => c.v)).toEqual(candles.map((c) => c.v));
    }
    // the month of February 2024 holds every point of that month
    const feb = all['1mon'].find((c) => iso(c.t) === '2024-02-01T00:00:00.000Z')!;
    const inFeb = points.filter((p) => p.t >= at('2024-02-01T00:00:00Z') && p.t < at('2024-03-01T00:00:00Z'));
    expect(feb.v).toBe(inFeb.reduce((a, p) => a + p.qty, 0n));
  });

  it('turns ticks and lots back into exact decimal strings', () => {
    const [c] = aggregate(
      [pt('2024-03-01T10:00:01Z', 6_700_001, 3), pt('2024-03-01T10:00:02Z', 6_700_002, 100_000)],
      '1min',
    );
    expect(toDecimal(c!, { tickSize: '0.01', lotSize: '0.00001' })).toEqual({
      time: at('2024-03-01T10:00:00Z'),
      open: '67000.01',
      high: '67000.02',
      low: '67000.01',
      close: '67000.02',
      volume: '1.00003',
      // 67000.01 × 0.00003 + 67000.02 × 1
      amount: '67002.0300003',
      trades: 2,
    });
  });

  it('counts decimal prices in ticks, refusing values off the grid', () => {
    expect(toSteps('67000.01', '0.01')).toBe(6_700_001n);
    expect(toSteps('0.00042', '0.00001')).toBe(42n);
    expect(toSteps('67000.015', '0.01')).toBeNull();
  });
});

describe('24 h change', () => {
  it('is in percent, truncated toward zero to 2 decimals', () => {
    expect(changePercent('100', '101.239')).toBe('1.23');
    expect(changePercent('100', '98.761')).toBe('-1.23');
    expect(changePercent('67000', '67000')).toBe('0.00');
    expect(changePercent('0.1', '0.2')).toBe('100.00');
    expect(changePercent('3', '2')).toBe('-33.33');
    expect(changePercent('100', '99.999')).toBe('0.00');
  });

  it('is null without a price to compare with', () => {
    expect(changePercent(null, '1')).toBeNull();
    expect(changePercent('1', null)).toBeNull();
  });
});
