import type { MarketTicker } from '@verdant/api';
import { truncateDecimal } from '@verdant/engine';
import type { Db } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { changePercent } from './candles.ts';
import { type Market, marketInfo } from './markets.ts';

const DAY = 86_400_000;
/** Tickers are computed at most this often (the feed and trades invalidate them sooner). */
const TICKER_TTL_MS = 1000;
/** The order path's index prices (price band) are read at most this often; new ticks refresh them. */
const INDEX_TTL_MS = 1000;

const nullable = (v: string | null) => (v === null ? null : canon(v));

interface TickerRow {
  id: number;
  last: string | null;
  index_price: string | null;
  prev_close: string | null;
  first_open: string | null;
  high: string | null;
  low: string | null;
  volume: string;
  amount: string;
}

/** The 24-hour tickers and the latest index prices, each read through a short-lived cache. */
export class Tickers {
  private tickerCache: { at: number; list: Promise<TickerRow[]> } | null = null;
  private indexCache: { at: number; prices: Promise<Map<number, string>> } | null = null;

  constructor(
    private readonly db: Db,
    private readonly enabled: () => Promise<Market[]>,
  ) {}

  /** After a trade, a tick or a change of markets. */
  invalidate(): void {
    this.tickerCache = null;
  }

  /** After a round of index ticks. */
  invalidateIndex(): void {
    this.indexCache = null;
  }

  private rows(): Promise<TickerRow[]> {
    const now = Date.now();
    if (this.tickerCache && now - this.tickerCache.at < TICKER_TTL_MS) return this.tickerCache.list;
    const since = new Date(now - DAY).toISOString();
    const list = this.db.query<TickerRow>(
      `SELECT m.id, lc.close AS last, it.price AS index_price, pc.close AS prev_close, w.first_open,
              w.high, w.low, w.volume, w.amount
         FROM markets m
         LEFT JOIN LATERAL (SELECT close::text FROM candles
                             WHERE market_id = m.id AND interval = '1min'
                             ORDER BY open_time DESC LIMIT 1) lc ON true
         LEFT JOIN LATERAL (SELECT price::text FROM index_ticks
                             WHERE market_id = m.id ORDER BY created_at DESC LIMIT 1) it ON true
         LEFT JOIN LATERAL (SELECT close::text FROM candles
                             WHERE market_id = m.id AND interval = '1min' AND open_time <= $1
                             ORDER BY open_time DESC LIMIT 1) pc ON true
         LEFT JOIN LATERAL (SELECT (array_agg(open ORDER BY open_time))[1]::text AS first_open,
                                   max(high)::text AS high, min(low)::text AS low,
                                   coalesce(sum(volume), 0)::text AS volume,
                                   coalesce(sum(amount), 0)::text AS amount
                              FROM candles
                             WHERE market_id = m.id AND interval = '1min' AND open_time > $1) w ON true
        WHERE m.enabled`,
      [since],
    );
    this.tickerCache = { at: now, list };
    list.catch(() => {
      if (this.tickerCache?.list === list) this.tickerCache = null;
    });
    return list;
  }

  /** Each market's latest index price at or before now, from a cache at most INDEX_TTL_MS old. */
  async currentIndex(marketId: number): Promise<string | null> {
    const now = Date.now();
    if (!this.indexCache || now - this.indexCache.at > INDEX_TTL_MS) {
      const prices = this.db
        .query<{ id: number; price: string }>(
          `SELECT m.id, t.price::text AS price FROM markets m
             JOIN LATERAL (SELECT price FROM index_ticks WHERE market_id = m.id AND created_at <= now()
                            ORDER BY created_at DESC LIMIT 1) t ON true`,
        )
        .then((rows) => new Map(rows.map((r) => [r.id, canon(r.price)])));
      this.indexCache = { at: now, prices };
      prices.catch(() => {
        if (this.indexCache?.prices === prices) this.indexCache = null;
      });
    }
    return (await this.indexCache.prices).get(marketId) ?? null;
  }

  async list(favourites: ReadonlySet<number> = new Set()): Promise<MarketTicker[]> {
    const [ms, rows] = await Promise.all([this.enabled(), this.rows()]);
    const byMarket = new Map(rows.map((r) => [r.id, r]));
    return ms.map((m) => {
      const r = byMarket.get(m.id);
      const last = nullable(r?.last ?? null);
      // the price 24 hours ago: the last close before the window, else the window's first open
      const open = nullable(r?.prev_close ?? r?.first_open ?? null);
      const px = (v: string | null) => (v === null ? null : truncateDecimal(v, m.priceDecimals));
      return {
        ...marketInfo(m),
        last: px(last),
        index_price: px(nullable(r?.index_price ?? null)),
        open_24h: px(open),
        high_24h: px(nullable(r?.high ?? null)),
        low_24h: px(nullable(r?.low ?? null)),
        volume_24h: truncateDecimal(r?.volume ?? '0', m.amountDecimals),
        amount_24h: truncateDecimal(r?.amount ?? '0', m.quoteDecimals),
        change_24h: changePercent(open, last),
        favourite: favourites.has(m.id),
      };
    });
  }
}
