import { CANDLE_INTERVALS, type CandleInterval } from '@verdant/api';
import { dec, truncateDecimal } from '@verdant/engine';

/**
 * Candle aggregation, pure: no I/O. Prices are integer ticks and quantities integer lots of the
 * market (bigint), so sums and extremes are exact; `toDecimal` turns them back into decimal
 * strings with the market's tick and lot sizes. Buckets are UTC: minutes and hours from the
 * epoch, days from midnight, weeks from Monday 00:00, months from the first day 00:00.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;
const WEEK = 7 * DAY;
/** 1970-01-01 was a Thursday: the first Monday is four days later. */
const MONDAY_OFFSET = 4 * DAY;

const FIXED: Partial<Record<CandleInterval, number>> = {
  '1min': MINUTE,
  '5min': 5 * MINUTE,
  '30min': 30 * MINUTE,
  '60min': 60 * MINUTE,
  '1day': DAY,
};

export { CANDLE_INTERVALS, type CandleInterval };

/** Start of the bucket of `interval` that holds the time `ms`. */
export function bucketStart(ms: number, interval: CandleInterval): number {
  const size = FIXED[interval];
  if (size !== undefined) return Math.floor(ms / size) * size;
  if (interval === '1week') return Math.floor((ms - MONDAY_OFFSET) / WEEK) * WEEK + MONDAY_OFFSET;
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** Start of the bucket after the one starting at `start`. */
export function nextBucket(start: number, interval: CandleInterval): number {
  const size = FIXED[interval];
  if (size !== undefined) return start + size;
  if (interval === '1week') return start + WEEK;
  const d = new Date(start);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** One candle being built: prices in ticks, volume in lots, amount in ticks × lots. */
export interface Acc {
  /** Bucket start (ms). */
  t: number;
  o: bigint;
  h: bigint;
  l: bigint;
  c: bigint;
  /** Times of the points that gave the open and the close, so input order does not matter. */
  ot: number;
  ct: number;
  v: bigint;
  a: bigint;
  n: number;
}

export interface Point {
  /** Milliseconds since 1970. */
  t: number;
  /** Price in ticks. */
  price: bigint;
  /** Quantity in lots (0 for an index tick). */
  qty: bigint;
}

/** Adds one point (a trade or an index tick) to its candle, making the candle when missing. */
export function addPoint(acc: Acc | undefined, bucket: number, p: Point): Acc {
  // The point is a candle of its own, merged like any other.
  const point: Acc = {
    t: bucket,
    o: p.price,
    h: p.price,
    l: p.price,
    c: p.price,
    ot: p.t,
    ct: p.t,
    v: p.qty,
    a: p.price * p.qty,
    n: p.qty > 0n ? 1 : 0,
  };
  return acc ? mergeAcc(acc, bucket, point) : point;
}

/** Merges candle `b` into `a` (same bucket): open of the earlier, close of the later. */
export function mergeAcc(a: Acc | undefined, bucket: number, b: Acc): Acc {
  if (!a) return { ...b, t: bucket };
  if (b.ot < a.ot) {
    a.o = b.o;
    a.ot = b.ot;
  }
  if (b.ct >= a.ct) {
    a.c = b.c;
    a.ct = b.ct;
  }
  if (b.h > a.h) a.h = b.h;
  if (b.l < a.l) a.l = b.l;
  a.v += b.v;
  a.a += b.a;
  a.n += b.n;
  return a;
}

/** Candles of one interval from points in any order, oldest first. */
export function aggregate(points: Iterable<Point>, interval: CandleInterval): Acc[] {
  const out = new Map<number, Acc>();
  for (const p of points) {
    const b = bucketStart(p.t, interval);
    out.set(b, addPoint(out.get(b), b, p));
  }
  return [...out.values()].sort((x, y) => x.t - y.t);
}

/** Coarser candles from finer ones (e.g. 1 day from 1 minute), oldest first. */
export function rollup(finer: Iterable<Acc>, interval: CandleInterval): Acc[] {
  const out = new Map<number, Acc>();
  for (const c of finer) {
    const b = bucketStart(c.t, interval);
    out.set(b, mergeAcc(out.get(b), b, c));
  }
  return [...out.values()].sort((x, y) => x.t - y.t);
}

/** Candles of every stored interval from the same points. */
export function aggregateAll(points: readonly Point[]): Record<CandleInterval, Acc[]> {
  const out = {} as Record<CandleInterval, Acc[]>;
  for (const i of CANDLE_INTERVALS) out[i] = aggregate(points, i);
  return out;
}

export interface Grid {
  tickSize: string;
  lotSize: string;
}

/** A candle's prices and sums as decimal text, the same in memory and in the table. */
export interface CandleValues {
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
  amount: string;
}

export interface DecimalCandle extends CandleValues {
  time: number;
  trades: number;
}

/** The candle in decimal strings: ticks × tick size, lots × lot size, amount × both. */
export function toDecimal(acc: Acc, grid: Grid): DecimalCandle {
  const tick = dec(grid.tickSize);
  const lot = dec(grid.lotSize);
  const px = (v: bigint) => tick.times(v.toString()).toFixed();
  return {
    time: acc.t,
    open: px(acc.o),
    high: px(acc.h),
    low: px(acc.l),
    close: px(acc.c),
    volume: lot.times(acc.v.toString()).toFixed(),
    amount: tick.times(lot).times(acc.a.toString()).toFixed(),
    trades: acc.n,
  };
}

/** A decimal price or quantity as a whole number of steps; null when it is off the grid. */
export function toSteps(value: string, step: string): bigint | null {
  const q = dec(value).div(step);
  return q.isInteger() ? BigInt(q.toFixed()) : null;
}

/**
 * Change over 24 hours in percent, truncated to 2 decimals and padded ("1.20", "-0.45"); null
 * without an opening price.
 */
export function changePercent(open: string | null, last: string | null): string | null {
  if (open === null || last === null || dec(open).isZero()) return null;
  return truncateDecimal(dec(last).minus(open).times(100).div(open).toFixed(), 2, true);
}
