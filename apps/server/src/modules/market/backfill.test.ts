import type { CandlePage, MarketTicker } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { BACKFILL_KEEP_DAYS, simulateHistory } from './backfill.ts';
import { bucketStart, CANDLE_INTERVALS } from './candles.ts';
import { seedOf } from './sim.ts';

const DAY = 86_400_000;
/**
 * The first back-fill's range here: production's 30 days cost this test seconds of simulation
 * and 80,000 candle rows; 11 is the shortest range that still cuts both kept windows (one-minute
 * candles at 2 days, five-minute at 10) and leaves the coarser intervals the whole range.
 */
const DAYS = 11;
let h: Harness;
let startedAt: number;
beforeAll(async () => {
  // what a first start does in production: back-fill (30 days there), then the feed (driven by hand here)
  h = await startHarness({ backfillDays: DAYS });
  startedAt = Date.now();
  await h.app.market.start();
});
afterAll(() => h.close());

describe('back-fill on first start', () => {
  it('writes the days asked for of simulated candles for every market, marked sim', async () => {
    const rows = await h.app.ctx.db.query<{
      market_id: number;
      interval: string;
      n: number;
      first: string;
      last: string;
      sources: string[];
    }>(
      `SELECT market_id, interval, count(*)::int AS n,
              (extract(epoch FROM min(open_time)) * 1000)::bigint::text AS first,
              (extract(epoch FROM max(open_time)) * 1000)::bigint::text AS last,
              array_agg(DISTINCT source) AS sources
         FROM candles GROUP BY market_id, interval`,
    );
    expect(new Set(rows.map((r) => r.market_id)).size).toBe(10);
    expect(rows).toHaveLength(10 * CANDLE_INTERVALS.length);
    for (const r of rows) {
      expect(r.sources).toEqual(['sim']);
      const span = startedAt - Number(r.first);
      const keep = BACKFILL_KEEP_DAYS[r.interval as keyof typeof BACKFILL_KEEP_DAYS] ?? DAYS;
      // each interval reaches back as far as it is kept (coarse buckets start before the range)
      expect(span).toBeGreaterThanOrEqual(keep * DAY - 60_000);
      expect(Number(r.last)).toBeLessThanOrEqual(startedAt);
      // the newest bucket is open now: a month's opened at most 31 days ago
      expect(startedAt - Number(r.last)).toBeLessThan(31 * DAY);
    }
    const minutes = rows.find((r) => r.market_id === 1 && r.interval === '1min')!;
    expect(minutes.n).toBeGreaterThanOrEqual(2 * 1440);
    expect(minutes.n).toBeLessThanOrEqual(2 * 1440 + 2);
    // five-minute candles only for their 10 days, the half-hours for the whole range
    const fives = rows.find((r) => r.market_id === 1 && r.interval === '5min')!;
    expect(fives.n).toBeGreaterThanOrEqual(10 * 288);
    expect(fives.n).toBeLessThanOrEqual(10 * 288 + 2);
    const halfHours = rows.find((r) => r.market_id === 1 && r.interval === '30min')!;
    expect(halfHours.n).toBeGreaterThanOrEqual(DAYS * 48);
  });

  it('gives every market a price, a 24 h range and volume at once', async () => {
    const list = (await h.call<MarketTicker[]>('GET', 'currency/quotation_new')).body.data;
    for (const m of list) {
      expect(m.last).not.toBeNull();
      expect(m.change_24h).toMatch(/^-?\d+\.\d{2}$/);
      expect(Number(m.high_24h)).toBeGreaterThanOrEqual(Number(m.low_24h));
      expect(Number(m.volume_24h)).toBeGreaterThan(0);
    }
    const page = (
      await h.call<CandlePage>('GET', 'currency/new_timeshar', { symbol: 'btcusdt', interval: '1day' })
    ).body.data;
    expect(page.list.length).toBeGreaterThanOrEqual(DAYS);
    expect(page.list.every((c) => c.source === 'sim')).toBe(true);
  });

  it('the feed carries on from where the history ends, and a restart does not back-fill again', async () => {
    const last = (await h.call<CandlePage>('GET', 'currency/new_timeshar', { symbol: 'btcusdt', limit: '1' }))
      .body.data.list[0]!;
    const tick = (await h.app.market.feed.tick(Date.now() + 1000)).get(1)!;
    expect(Math.abs(Number(tick) / Number(last.close) - 1)).toBeLessThan(0.02);
    expect(await h.app.market.backfill()).toBe(0);
  });
});

describe('a back-fill cut short', () => {
  let k: Harness;
  beforeAll(async () => {
    k = await startHarness({ backfillDays: 2 });
  });
  afterAll(() => k.close());

  const stored = async () =>
    k.app.ctx.db.query<{ market_id: number; interval: string; t: string }>(
      `SELECT market_id, interval, (extract(epoch FROM open_time) * 1000)::bigint::text AS t
         FROM candles ORDER BY market_id, interval, open_time`,
    );

  it('carries on where it stopped after a restart: every candle of the planned history, once', async () => {
    const planned = Date.now() - 3_600_000;
    let batches = 0;
    const kill = () => {
      batches += 1;
      if (batches === 3) throw new Error('killed');
    };
    // the third committed batch of 500 is the last: the first market has 1,500 one-minute candles
    await expect(k.app.market.backfill(planned, { batch: 500, afterBatch: kill })).rejects.toThrow('killed');
    const partial = await stored();
    expect(partial).toHaveLength(1500);
    expect(new Set(partial.map((r) => `${r.market_id}:${r.interval}`))).toEqual(new Set(['1:1min']));

    // the next start, an hour later: the history still ends where the first run planned it
    const written = await k.app.market.backfill(planned + 3_600_000);
    const rows = await stored();
    expect(written).toBe(rows.length - 1500);
    const seed = seedOf(k.config.feedSeed);
    const plans = await k.app.ctx.db.query<{ market_id: number; until_ms: string; done: boolean }>(
      'SELECT market_id, until_ms::text AS until_ms, completed_at IS NOT NULL AS done FROM market_backfills',
    );
    // the market cut short keeps its planned end; those not begun were planned by the second run
    const until = new Map(plans.map((p) => [p.market_id, Number(p.until_ms)]));
    expect(until.get(1)).toBe(planned);
    for (const m of await k.app.market.allMarkets()) {
      if (m.id !== 1) expect(until.get(m.id)).toBe(planned + 3_600_000);
      const end = until.get(m.id)!;
      const history = simulateHistory(m, seed, 2, end);
      for (const interval of CANDLE_INTERVALS) {
        const keep = BACKFILL_KEEP_DAYS[interval];
        const from = keep === undefined ? -Infinity : bucketStart(end - keep * DAY, interval);
        const want = history[interval].filter((c) => c.t >= from).map((c) => c.t);
        const got = rows
          .filter((r) => r.market_id === m.id && r.interval === interval)
          .map((r) => Number(r.t));
        expect(got, `${m.symbol} ${interval}`).toEqual(want);
      }
    }
    const minutes = rows.filter((r) => r.market_id === 1 && r.interval === '1min');
    expect(Number(minutes[minutes.length - 1]!.t)).toBe(bucketStart(planned, '1min'));

    // complete is recorded, so a further start writes nothing
    expect(plans).toHaveLength((await k.app.market.allMarkets()).length);
    expect(plans.every((p) => p.done)).toBe(true);
    expect(await k.app.market.backfill(planned + 7_200_000)).toBe(0);
    expect(await stored()).toHaveLength(rows.length);
  });
});
