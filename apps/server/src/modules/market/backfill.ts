import { CANDLE_INTERVALS, type CandleInterval } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { type Acc, bucketStart, rollup } from './candles.ts';
import { walkParams } from './feed.ts';
import type { Market } from './markets.ts';
import { minuteVolumeLots, step, toTicks } from './sim.ts';
import { type CandleWrite, insertNewCandles } from './store.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** The walk's resolution in the back-fill: four steps a minute give each minute a high and a low. */
const STEP_MS = 15_000;
/**
 * How far back each interval is kept (days): fine candles are many, and charts page back only
 * so far at a fine interval. Coarser intervals keep the whole back-fill.
 */
export const BACKFILL_KEEP_DAYS: Partial<Record<CandleInterval, number>> = { '1min': 2, '5min': 10 };
const BATCH = 4000;

/**
 * Simulated history of one market for the `days` before `nowMs`: the seeded walk from the
 * market's reference price, one-minute candles with simulated volume, rolled up into every
 * interval. Pure; the candles are marked 'sim' when stored.
 */
export function simulateHistory(
  m: Market,
  seed: number,
  days: number,
  nowMs: number,
): Record<CandleInterval, Acc[]> {
  const params = walkParams(m);
  const tick = Number(m.tickSize);
  const lot = Number(m.lotSize);
  const typical = Number(m.simVolume);
  const start = bucketStart(nowMs - days * DAY, '1min');
  const minutes: Acc[] = [];
  let price = params.reference;
  for (let minute = start; minute <= nowMs; minute += MINUTE) {
    const first = price;
    const o = BigInt(toTicks(price, tick));
    let h = o;
    let l = o;
    let last = o;
    let lastAt = minute;
    for (let t = minute + STEP_MS; t < minute + MINUTE && t <= nowMs; t += STEP_MS) {
      price = step(price, params, seed, t, STEP_MS);
      const p = BigInt(toTicks(price, tick));
      if (p > h) h = p;
      if (p < l) l = p;
      last = p;
      lastAt = t;
    }
    const v = minuteVolumeLots(
      typical,
      lot,
      seed,
      m.id,
      minute,
      Math.abs(Math.log(price / first)),
      params.volatility,
    );
    minutes.push({ t: minute, o, h, l, c: last, ot: minute, ct: lastAt, v, a: v * last, n: 0 });
    // the next minute opens with the walk's price at its first instant
    const next = minute + MINUTE;
    if (next <= nowMs) price = step(price, params, seed, next, STEP_MS);
  }
  // each interval from the next finer one that nests in it (a week does not nest in a month)
  const out = { '1min': minutes } as Record<CandleInterval, Acc[]>;
  out['5min'] = rollup(minutes, '5min');
  out['30min'] = rollup(out['5min'], '30min');
  out['60min'] = rollup(out['30min'], '60min');
  out['1day'] = rollup(out['60min'], '1day');
  out['1week'] = rollup(out['1day'], '1week');
  out['1mon'] = rollup(out['1day'], '1mon');
  return out;
}

/** Stores a market's simulated history (see BACKFILL_KEEP_DAYS); answers the candles written. */
export async function backfillMarket(
  q: Queryable,
  m: Market,
  seed: number,
  days: number,
  nowMs: number,
): Promise<number> {
  const history = simulateHistory(m, seed, days, nowMs);
  const rows: CandleWrite[] = [];
  for (const interval of CANDLE_INTERVALS) {
    const keep = BACKFILL_KEEP_DAYS[interval];
    const from = keep === undefined ? -Infinity : bucketStart(nowMs - keep * DAY, interval);
    for (const acc of history[interval])
      if (acc.t >= from) rows.push({ market: m, interval, acc, source: 'sim' });
  }
  for (let i = 0; i < rows.length; i += BATCH) await insertNewCandles(q, rows.slice(i, i + BATCH));
  return rows.length;
}
