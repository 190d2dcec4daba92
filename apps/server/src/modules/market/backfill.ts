import { CANDLE_INTERVALS, type CandleInterval } from '@verdant/api';
import type { Db } from '../../db/client.ts';
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

/** What a back-fill may be told, for tests: its batch size, and a hook after each committed batch. */
export interface BackfillOptions {
  batch?: number;
  afterBatch?: (marketId: number, interval: CandleInterval, written: number) => void | Promise<void>;
}

interface Plan {
  market_id: number;
  until_ms: string;
  days: number;
  completed_at: string | null;
}

/**
 * Stores a market's simulated history (see BACKFILL_KEEP_DAYS) and answers the candles written.
 * Resumable: the history's end (`until_ms`) and length are fixed in `market_backfills` before the
 * first candle, so a run after a kill simulates the same walk; each interval's candles are written
 * in time order, each batch in one transaction with how far that interval has got
 * (`market_backfill_progress`), and a run carries on after it. The market counts as back-filled
 * only once `completed_at` is set, after its last batch. A market that already has candles when
 * its plan is first made (listed and fed before, without history) is recorded as complete at once.
 */
export async function backfillMarket(
  db: Db,
  m: Market,
  seed: number,
  days: number,
  nowMs: number,
  opts: BackfillOptions = {},
): Promise<number> {
  await db.query(
    `INSERT INTO market_backfills (market_id, until_ms, days, completed_at)
     SELECT $1, $2, $3, CASE WHEN EXISTS (SELECT 1 FROM candles WHERE market_id = $1) THEN now() END
     ON CONFLICT (market_id) DO NOTHING`,
    [m.id, String(nowMs), days],
  );
  const [plan] = await db.query<Plan>(
    'SELECT market_id, until_ms::text AS until_ms, days, completed_at::text AS completed_at FROM market_backfills WHERE market_id = $1',
    [m.id],
  );
  if (!plan || plan.completed_at !== null) return 0;
  const until = Number(plan.until_ms);
  const through = new Map(
    (
      await db.query<{ interval: CandleInterval; t: string }>(
        `SELECT interval, (extract(epoch FROM written_through) * 1000)::bigint::text AS t
           FROM market_backfill_progress WHERE market_id = $1`,
        [m.id],
      )
    ).map((r) => [r.interval, Number(r.t)]),
  );
  const history = simulateHistory(m, seed, plan.days, until);
  const batch = opts.batch ?? BATCH;
  let written = 0;
  for (const interval of CANDLE_INTERVALS) {
    const keep = BACKFILL_KEEP_DAYS[interval];
    const from = Math.max(
      keep === undefined ? -Infinity : bucketStart(until - keep * DAY, interval),
      (through.get(interval) ?? -Infinity) + 1,
    );
    const rows: CandleWrite[] = [];
    for (const acc of history[interval])
      if (acc.t >= from) rows.push({ market: m, interval, acc, source: 'sim' });
    for (let i = 0; i < rows.length; i += batch) {
      const part = rows.slice(i, i + batch);
      const last = part[part.length - 1]!.acc.t;
      await db.tx(async (q) => {
        await insertNewCandles(q, part);
        await q.query(
          `INSERT INTO market_backfill_progress (market_id, interval, written_through)
           VALUES ($1, $2, $3)
           ON CONFLICT (market_id, interval) DO UPDATE
             SET written_through = GREATEST(market_backfill_progress.written_through, EXCLUDED.written_through)`,
          [m.id, interval, new Date(last).toISOString()],
        );
      });
      written += part.length;
      await opts.afterBatch?.(m.id, interval, part.length);
    }
  }
  await db.query(
    'UPDATE market_backfills SET completed_at = now() WHERE market_id = $1 AND completed_at IS NULL',
    [m.id],
  );
  return written;
}
