import {
  CANDLES_DEFAULT_LIMIT,
  CANDLES_MAX_LIMIT,
  type CandleInterval,
  type CandlePage,
  type CandlesQuery,
  DEALS_DEFAULT_LIMIT,
  DEALS_MAX_LIMIT,
  type Deal,
  type DealQuery,
  type Depth,
  isChartInterval,
  type OrderSide,
} from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { invalid } from '../../http/errors.ts';
import type { Market } from './markets.ts';
import { CANDLE_SELECT, type CandleRow, fromRow } from './store.ts';

/** The greatest `before` accepted: year 9999. */
const MAX_TIME_MS = 253_402_300_799_999;

/** Depth of one market's book, best levels first; the order service provides it. */
export type DepthProvider = (market: Market, levels: number) => Depth | Promise<Depth>;

function parseLimit(v: string | undefined, fallback: number, max: number): number {
  if (v === undefined || v === '') return fallback;
  if (!/^\d{1,6}$/.test(v) || Number(v) < 1 || Number(v) > max)
    throw invalid('market.limitInvalid', 'limit', { max });
  return Number(v);
}

/** One page of a market's candles, oldest first, before `query.before`. */
export async function candlePage(db: Queryable, m: Market, query: CandlesQuery): Promise<CandlePage> {
  const requested = query.interval?.trim() || '1min';
  if (!isChartInterval(requested)) throw invalid('market.intervalInvalid', 'interval');
  const interval: CandleInterval = requested === 'timeshare' ? '1min' : requested;
  const limit = parseLimit(query.limit, CANDLES_DEFAULT_LIMIT, CANDLES_MAX_LIMIT);
  let before = MAX_TIME_MS;
  if (query.before !== undefined && query.before !== '') {
    if (!/^\d{1,15}$/.test(query.before) || Number(query.before) > MAX_TIME_MS)
      throw invalid('market.beforeInvalid', 'before');
    before = Number(query.before);
  }
  const rows = await db.query<CandleRow>(
    `SELECT ${CANDLE_SELECT} FROM candles
      WHERE market_id = $1 AND interval = $2 AND open_time < $3
      ORDER BY open_time DESC LIMIT $4`,
    [m.id, interval, new Date(before).toISOString(), limit],
  );
  return {
    symbol: m.symbol,
    interval: requested,
    list: rows.reverse().map((r) => {
      const { marketId: _, interval: __, ...c } = fromRow(r);
      return c;
    }),
  };
}

/** A market's latest trades, newest first, with its book. */
export async function dealPage(
  db: Queryable,
  m: Market,
  query: DealQuery,
  depth: () => Depth | Promise<Depth>,
): Promise<Deal> {
  const limit = parseLimit(query.limit, DEALS_DEFAULT_LIMIT, DEALS_MAX_LIMIT);
  const rows = await db.query<{
    id: string;
    price: string;
    qty: string;
    amount: string;
    taker_side: OrderSide;
    t: string;
  }>(
    `SELECT id::text, price::text, qty::text, amount::text, taker_side,
            (extract(epoch FROM created_at) * 1000)::bigint::text AS t
       FROM trades WHERE market_id = $1 ORDER BY trades.id DESC LIMIT $2`,
    [m.id, limit],
  );
  return {
    symbol: m.symbol,
    trades: rows.map((r) => ({
      id: r.id,
      price: canon(r.price),
      qty: canon(r.qty),
      amount: canon(r.amount),
      side: r.taker_side,
      time: Number(r.t),
    })),
    depth: await depth(),
  };
}

/** The latest recorded index tick of a market at or before `at`. */
export async function indexAt(
  db: Queryable,
  marketId: number,
  at: Date | number,
): Promise<{ id: string; price: string; source: string; time: number } | null> {
  const [row] = await db.query<{ id: string; price: string; source: string; t: string }>(
    `SELECT id::text, price::text, source, (extract(epoch FROM created_at) * 1000)::bigint::text AS t
       FROM index_ticks WHERE market_id = $1 AND created_at <= $2
      ORDER BY created_at DESC, index_ticks.id DESC LIMIT 1`,
    [marketId, new Date(at).toISOString()],
  );
  return row ? { id: row.id, price: canon(row.price), source: row.source, time: Number(row.t) } : null;
}

/** The ids of the markets a user marked as favourite (none for a visitor). */
export async function favouriteIds(db: Queryable, userId: number | null): Promise<Set<number>> {
  if (userId === null) return new Set();
  const rows = await db.query<{ market_id: number }>(
    'SELECT market_id FROM favourite_markets WHERE user_id = $1',
    [userId],
  );
  return new Set(rows.map((r) => r.market_id));
}

/** Each market's latest recorded tick time, as stored (text a timestamptz parameter takes back exactly); none: absent. */
export async function latestTickTimes(q: Queryable): Promise<Map<number, string>> {
  const rows = await q.query<{ market_id: number; at: string | null }>(
    `SELECT m.id AS market_id, (SELECT max(i.created_at) FROM index_ticks i WHERE i.market_id = m.id)::text AS at
       FROM markets m`,
  );
  return new Map(rows.filter((r) => r.at !== null).map((r) => [r.market_id, r.at!]));
}

/** A recorded index tick as a range read answers it. */
export interface SpanTick {
  market_id: number;
  id: string;
  price: string;
  /** Milliseconds, rounded down: a tick a fraction of a millisecond early is never taken as on time. */
  t: string;
  /** As stored (text a timestamptz parameter takes back exactly). */
  at: string;
}

/**
 * For each market, its ticks from `from` through the first tick at or after `to` (none when no
 * tick is that late yet), by market, then time, then id: one range read for many look-ups.
 */
export async function ticksThrough(
  q: Queryable,
  spans: readonly { marketId: number; from: number; to: number }[],
): Promise<SpanTick[]> {
  if (spans.length === 0) return [];
  return q.query<SpanTick>(
    `SELECT r.market_id, t.id::text, t.price::text, floor(extract(epoch FROM t.created_at) * 1000)::bigint::text AS t,
            t.created_at::text AS at
       FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[]) AS r(market_id, lo, hi)
       JOIN LATERAL (SELECT min(created_at) AS last FROM index_ticks
                      WHERE market_id = r.market_id AND created_at >= r.hi) b ON true
       JOIN LATERAL (SELECT id, price, created_at FROM index_ticks
                      WHERE market_id = r.market_id AND created_at >= r.lo AND created_at <= b.last) t ON true
      ORDER BY r.market_id, t.created_at, t.id`,
    [
      spans.map((s) => s.marketId),
      spans.map((s) => new Date(s.from).toISOString()),
      spans.map((s) => new Date(s.to).toISOString()),
    ],
  );
}
