import {
  CANDLE_INTERVALS,
  CANDLES_DEFAULT_LIMIT,
  CANDLES_MAX_LIMIT,
  type CandleInterval,
  type CandlePage,
  type CandlesQuery,
  type ChartInterval,
  DEALS_DEFAULT_LIMIT,
  DEALS_MAX_LIMIT,
  DEPTH_LEVELS,
  type Deal,
  type DealQuery,
  type Depth,
  isChartInterval,
  MarketEvents,
  MarketStreams,
  type MarketTicker,
  type OrderSide,
  type PublicTrade,
} from '@verdant/api';
import { dec, parseDecimal, truncateDecimal } from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { addStreamResolver } from '../../realtime/index.ts';
import { type BackfillOptions, backfillMarket } from './backfill.ts';
import { type Acc, addPoint, bucketStart, changePercent, toSteps } from './candles.ts';
import { IndexFeed, type IndexSource, SimSource } from './feed.ts';
import { loadMarkets, type Market, marketInfo, normalizeSymbol } from './markets.ts';
import { MarketPublisher } from './publisher.ts';
import { seedOf } from './sim.ts';
import {
  CANDLE_SELECT,
  type CandleRow,
  type CandleWrite,
  fromRow,
  mergeCandles,
  type StoredCandle,
} from './store.ts';

const DAY = 86_400_000;
/** Tickers are computed at most this often (the feed and trades invalidate them sooner). */
const TICKER_TTL_MS = 1000;
/** The order path's index prices (price band) are read at most this often; new ticks refresh them. */
const INDEX_TTL_MS = 1000;
/** The greatest `before` accepted: year 9999. */
const MAX_TIME_MS = 253_402_300_799_999;

/** One fill, as the order service hands it to `recordTrades` inside its transaction. */
export interface TradeInput {
  marketId: number;
  /** Decimal string on the market's tick grid. */
  price: string;
  /** Decimal string on the market's lot grid. */
  qty: string;
  takerSide: OrderSide;
  makerOrderId?: string | number | null;
  takerOrderId?: string | number | null;
  /** When the fill happened (default: now). */
  at?: Date | number;
  /** Default 'match'. */
  source?: string;
  /** An id taken ahead from the trades sequence (the order service's id pool); default: the next. */
  id?: string | number;
  /** Who traded and what each paid (the order service knows them when the fill is written). */
  makerUserId?: number | null;
  takerUserId?: number | null;
  makerFee?: string;
  takerFee?: string;
}

export interface TradeRecord {
  id: string;
  marketId: number;
  symbol: string;
  price: string;
  qty: string;
  amount: string;
  takerSide: OrderSide;
  makerOrderId: string | null;
  takerOrderId: string | null;
  time: number;
}

/** What `recordTrades` wrote: hand it to `publish` once the transaction has committed. */
export interface RecordedTrades {
  trades: TradeRecord[];
  candles: StoredCandle[];
}

/** Depth of one market's book, best levels first; the order service provides it. */
export type DepthProvider = (market: Market, levels: number) => Depth | Promise<Depth>;

const EMPTY_DEPTH: DepthProvider = () => ({ bids: [], asks: [] });

const nullable = (v: string | null) => (v === null ? null : canon(v));

export interface MarketServiceOptions {
  /** Replaces the simulated feed (a connector to a real exchange, a test's scripted source). */
  source?: IndexSource;
}

export type MarketService = ReturnType<typeof createMarketService>;

/**
 * Markets and their data: the index feed, the back-fill, trades and candles, tickers, and the
 * socket streams. One per app; the order service reaches it as `app.market`.
 */
export function createMarketService(
  ctx: AppContext,
  io: Server,
  log: FastifyBaseLogger,
  opts: MarketServiceOptions = {},
) {
  const { db, config } = ctx;
  const seed = seedOf(config.feedSeed);
  let all: Promise<Market[]> | null = null;
  let depthProvider: DepthProvider = EMPTY_DEPTH;
  /** Markets whose candles follow trades (they have had one); the others follow the index. */
  const tradeMode = new Set<number>();
  let tradeModeLoaded: Promise<void> | null = null;
  let tickerCache: { at: number; list: Promise<TickerRow[]> } | null = null;

  const reportError = (err: unknown) => log.error({ err }, 'market data');

  /** Markets, read once (through `q` when called inside a transaction: PGlite has one connection). */
  async function markets(q: Queryable = db): Promise<Market[]> {
    all ??= loadMarkets(q).catch((e) => {
      all = null;
      throw e;
    });
    return all;
  }

  async function enabled(): Promise<Market[]> {
    return (await markets()).filter((m) => m.enabled);
  }

  async function byId(id: number): Promise<Market | undefined> {
    return (await markets()).find((m) => m.id === id);
  }

  /** The enabled market a request names, or the localized "unknown market" error. */
  async function market(symbol: string | undefined): Promise<Market> {
    if (!symbol?.trim()) throw invalid('market.symbolRequired', 'symbol');
    const s = normalizeSymbol(symbol);
    const m = (await enabled()).find((x) => x.symbol === s);
    if (!m) throw new AppError('NOT_FOUND', 'market.unknown', { symbol: symbol.slice(0, 30) }, 'symbol');
    return m;
  }

  function loadTradeMode(q: Queryable = db): Promise<void> {
    tradeModeLoaded ??= q
      .query<{ market_id: number }>('SELECT DISTINCT market_id FROM trades')
      .then((rows) => {
        for (const r of rows) tradeMode.add(r.market_id);
      })
      .catch((e) => {
        tradeModeLoaded = null;
        throw e;
      });
    return tradeModeLoaded;
  }

  function parseLimit(v: string | undefined, fallback: number, max: number): number {
    if (v === undefined || v === '') return fallback;
    if (!/^\d{1,6}$/.test(v) || Number(v) < 1 || Number(v) > max)
      throw invalid('market.limitInvalid', 'limit', { max });
    return Number(v);
  }

  // ---- tickers -----------------------------------------------------------------------------

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

  function tickerRows(): Promise<TickerRow[]> {
    const now = Date.now();
    if (tickerCache && now - tickerCache.at < TICKER_TTL_MS) return tickerCache.list;
    const since = new Date(now - DAY).toISOString();
    const list = db.query<TickerRow>(
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
    tickerCache = { at: now, list };
    list.catch(() => {
      if (tickerCache?.list === list) tickerCache = null;
    });
    return list;
  }

  function invalidateTickers(): void {
    tickerCache = null;
  }

  let indexCache: { at: number; prices: Promise<Map<number, string>> } | null = null;

  /** Each market's latest index price at or before now, from a cache at most INDEX_TTL_MS old. */
  async function currentIndex(marketId: number): Promise<string | null> {
    const now = Date.now();
    if (!indexCache || now - indexCache.at > INDEX_TTL_MS) {
      const prices = db
        .query<{ id: number; price: string }>(
          `SELECT m.id, t.price::text AS price FROM markets m
             JOIN LATERAL (SELECT price FROM index_ticks WHERE market_id = m.id AND created_at <= now()
                            ORDER BY created_at DESC LIMIT 1) t ON true`,
        )
        .then((rows) => new Map(rows.map((r) => [r.id, canon(r.price)])));
      indexCache = { at: now, prices };
      prices.catch(() => {
        if (indexCache?.prices === prices) indexCache = null;
      });
    }
    return (await indexCache.prices).get(marketId) ?? null;
  }

  async function tickers(favourites: ReadonlySet<number> = new Set()): Promise<MarketTicker[]> {
    const [ms, rows] = await Promise.all([enabled(), tickerRows()]);
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

  async function favouriteIds(userId: number | null): Promise<Set<number>> {
    if (userId === null) return new Set();
    const rows = await db.query<{ market_id: number }>(
      'SELECT market_id FROM favourite_markets WHERE user_id = $1',
      [userId],
    );
    return new Set(rows.map((r) => r.market_id));
  }

  // ---- candles -----------------------------------------------------------------------------

  const publisher = new MarketPublisher(
    io,
    {
      tickers: () => tickers(),
      depth: async (symbol) => {
        const m = (await enabled()).find((x) => x.symbol === symbol);
        return m ? depthProvider(m, DEPTH_LEVELS) : null;
      },
    },
    config.marketPublishMs,
    reportError,
  );

  /** Candle writes of every interval for points of one market (merged per bucket). */
  function candleWrites(
    m: Market,
    points: { t: number; price: bigint; qty: bigint }[],
    source: 'index' | 'trade',
  ) {
    const rows: CandleWrite[] = [];
    for (const interval of CANDLE_INTERVALS) {
      const accs = new Map<number, Acc>();
      for (const p of points) {
        const b = bucketStart(p.t, interval);
        accs.set(b, addPoint(accs.get(b), b, p));
      }
      for (const acc of accs.values()) rows.push({ market: m, interval, acc, source });
    }
    return rows;
  }

  async function publishCandles(candles: readonly StoredCandle[]): Promise<void> {
    const ms = await markets();
    for (const c of candles) {
      const m = ms.find((x) => x.id === c.marketId);
      if (!m) continue;
      const { marketId: _, interval, ...candle } = c;
      publisher.kline(m.symbol, interval, candle);
      if (interval === '1min') publisher.kline(m.symbol, 'timeshare', candle);
    }
  }

  // ---- the feed ----------------------------------------------------------------------------

  /** One round of index ticks: recorded, turned into candles of markets without trades, sent. */
  async function recordTicks(prices: Map<number, string>, atMs: number, source: string): Promise<void> {
    await loadTradeMode();
    if (config.redisUrl) {
      // In a cluster the first trade of a market may happen on another process: ask each round
      // about the markets still following the index (one index probe each, until they trade).
      const quiet = [...prices.keys()].filter((id) => !tradeMode.has(id));
      if (quiet.length > 0)
        for (const r of await db.query<{ m: number }>(
          'SELECT m FROM unnest($1::int[]) AS m WHERE EXISTS (SELECT 1 FROM trades WHERE market_id = m)',
          [quiet],
        ))
          tradeMode.add(r.m);
    }
    const ms = await markets();
    const ids: number[] = [];
    const values: string[] = [];
    const writes: CandleWrite[] = [];
    for (const [id, price] of prices) {
      const m = ms.find((x) => x.id === id);
      if (!m) continue;
      const ticks = toSteps(price, m.tickSize);
      if (ticks === null || ticks <= 0n)
        throw new Error(`index price ${price} is off the tick grid of ${m.symbol}`);
      ids.push(id);
      values.push(price);
      if (!tradeMode.has(id)) writes.push(...candleWrites(m, [{ t: atMs, price: ticks, qty: 0n }], 'index'));
    }
    if (ids.length === 0) return;
    const at = new Date(atMs).toISOString();
    const candles = await db.tx(async (q) => {
      await q.query(
        `INSERT INTO index_ticks (market_id, price, source, created_at)
         SELECT id, price, $3, $4 FROM unnest($1::int[], $2::numeric[]) AS t (id, price)`,
        [ids, values, source, at],
      );
      return mergeCandles(q, writes);
    });
    invalidateTickers();
    indexCache = null;
    await publishCandles(candles);
    for (const id of ids) {
      const m = ms.find((x) => x.id === id);
      if (m) publisher.ticker(m.symbol);
    }
    for (const listener of tickListeners) {
      try {
        listener(prices, atMs);
      } catch (err) {
        reportError(err);
      }
    }
  }

  /** Told of every round of ticks once it is committed (options settle on them, and stream them). */
  const tickListeners = new Set<(prices: ReadonlyMap<number, string>, atMs: number) => void>();

  const feed = new IndexFeed(
    opts.source ?? new SimSource(seed),
    { recordTicks, markets: enabled },
    config.feedIntervalMs,
    reportError,
  );

  /** Where each market's walk stands: its last tick, else the close of its latest candle. */
  async function resumeFeed(): Promise<void> {
    if (!feed.source.resume) return;
    const rows = await db.query<{ id: number; price: string | null; at: string | null }>(
      `SELECT m.id, coalesce(t.price, c.close)::text AS price,
              (extract(epoch FROM coalesce(t.created_at, c.open_time)) * 1000)::bigint::text AS at
         FROM markets m
         LEFT JOIN LATERAL (SELECT price, created_at FROM index_ticks WHERE market_id = m.id
                             ORDER BY created_at DESC LIMIT 1) t ON true
         LEFT JOIN LATERAL (SELECT close, open_time FROM candles WHERE market_id = m.id AND interval = '1min'
                             ORDER BY open_time DESC LIMIT 1) c ON true`,
    );
    for (const r of rows)
      if (r.price !== null && r.at !== null) feed.source.resume(r.id, r.price, Number(r.at));
  }

  /**
   * Simulated history for every market whose back-fill is not recorded as complete (a first
   * start, or one cut short: see backfillMarket); answers the candles written.
   */
  async function backfill(nowMs = Date.now(), opts?: BackfillOptions): Promise<number> {
    if (config.backfillDays <= 0) return 0;
    const ms = await markets();
    let written = 0;
    const started = Date.now();
    for (const m of ms) written += await backfillMarket(db, m, seed, config.backfillDays, nowMs, opts);
    if (written > 0) {
      invalidateTickers();
      log.info({ candles: written, ms: Date.now() - started }, 'market history back-filled (simulated)');
    }
    return written;
  }

  let started: Promise<void> | null = null;

  /**
   * Back-fill, then the feed from where the last recorded tick left it, as one singleton job
   * (app.ts, jobs/singleton.ts); answers how to stop the feed. It may run again later, on this
   * process or another.
   */
  async function runFeed(): Promise<() => Promise<void>> {
    await backfill();
    await resumeFeed();
    feed.start();
    return () => feed.stop();
  }

  // ---- socket streams ----------------------------------------------------------------------

  addStreamResolver(io, (stream) => {
    const parts = stream.split(':');
    const symbolKnown = (s: string | undefined) => s !== undefined && /^[a-z0-9]{2,20}$/.test(s);
    if (stream === MarketStreams.tickers)
      return {
        room: stream,
        snapshot: async (socket) => {
          socket.emit(MarketEvents.tickers, await tickers());
        },
      };
    if (parts.length === 2 && symbolKnown(parts[1]) && ['ticker', 'trades', 'depth'].includes(parts[0]!)) {
      const [kind, symbol] = parts as [string, string];
      return {
        room: stream,
        snapshot: async (socket) => {
          const m = (await enabled()).find((x) => x.symbol === symbol);
          if (!m) return;
          if (kind === 'ticker') {
            const t = (await tickers()).find((x) => x.id === m.id);
            if (t) socket.emit(MarketEvents.ticker, t);
          } else if (kind === 'depth') {
            socket.emit(MarketEvents.depth, { symbol, ...(await depthProvider(m, DEPTH_LEVELS)) });
          }
        },
      };
    }
    if (parts.length === 3 && parts[0] === 'kline' && symbolKnown(parts[1]) && isChartInterval(parts[2]))
      return { room: stream };
    return null;
  });

  const service = {
    feed,
    publisher,
    markets: enabled,
    allMarkets: markets,
    byId,
    /** The enabled market a request names (btcusdt, BTC/USDT…), or the localized error. */
    market,
    /** Reads markets again (after an operator changes them). */
    reload(): void {
      all = null;
      invalidateTickers();
    },

    /**
     * Background start: back-fill (when a market has no history), then the feed timer. Not
     * awaited by the server's start; `started` resolves when both are done.
     */
    start(): Promise<void> {
      started ??= runFeed()
        .then(() => {})
        .catch(reportError);
      return started;
    },
    runFeed,
    get started(): Promise<void> {
      return started ?? Promise.resolve();
    },
    backfill,
    resumeFeed,

    async stop(): Promise<void> {
      await started?.catch(() => {});
      await feed.stop();
      await publisher.close();
    },

    // ---- HTTP ------------------------------------------------------------------------------

    async quotations(userId: number | null): Promise<MarketTicker[]> {
      return tickers(await favouriteIds(userId));
    },

    async favourites(userId: number | null): Promise<MarketTicker[]> {
      if (userId === null) return [];
      const ids = await favouriteIds(userId);
      return (await tickers(ids)).filter((t) => ids.has(t.id));
    },

    async addFavourite(userId: number, symbol: string | undefined): Promise<void> {
      const m = await market(symbol);
      await db.query(
        'INSERT INTO favourite_markets (user_id, market_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [userId, m.id],
      );
    },

    async removeFavourite(userId: number, symbol: string | undefined): Promise<void> {
      const m = await market(symbol);
      await db.query('DELETE FROM favourite_markets WHERE user_id = $1 AND market_id = $2', [userId, m.id]);
    },

    async candles(query: CandlesQuery): Promise<CandlePage> {
      const m = await market(query.symbol);
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
    },

    async deal(query: DealQuery): Promise<Deal> {
      const m = await market(query.symbol);
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
        depth: await depthProvider(m, DEPTH_LEVELS),
      };
    },

    // ---- hooks for the order service -------------------------------------------------------

    /**
     * Where `currency/deal` and the depth stream read a market's book. Until the order service
     * sets it, every book is empty.
     */
    setDepthProvider(provider: DepthProvider | null): void {
      depthProvider = provider ?? EMPTY_DEPTH;
    },

    /** Tells depth subscribers that a book changed (coalesced; the provider is read when sent). */
    publishDepth(symbol: string): void {
      publisher.depth(symbol);
    },

    /**
     * Records fills inside the caller's transaction: one trades row each, and the candles of
     * every interval (from then on the market's candles follow its trades, not the index). Call
     * `publish` with the answer after the transaction commits.
     */
    async recordTrades(q: Queryable, inputs: readonly TradeInput[]): Promise<RecordedTrades> {
      return (await service.prepareTrades(q, inputs))();
    },

    /**
     * `recordTrades` in two steps: this checks the fills and builds the rows (reading the
     * markets when not yet loaded); the function it answers sends both statements at once,
     * before it returns. A pipelined transaction puts them in its last round trip that way.
     */
    async prepareTrades(q: Queryable, inputs: readonly TradeInput[]): Promise<() => Promise<RecordedTrades>> {
      if (inputs.length === 0) return async () => ({ trades: [], candles: [] });
      await loadTradeMode(q);
      const ms = await markets(q);
      const cols = {
        market: [] as number[],
        price: [] as string[],
        qty: [] as string[],
        amount: [] as string[],
        side: [] as string[],
        maker: [] as (string | null)[],
        taker: [] as (string | null)[],
        source: [] as string[],
        at: [] as string[],
        id: [] as (string | null)[],
        makerUser: [] as (number | null)[],
        takerUser: [] as (number | null)[],
        makerFee: [] as string[],
        takerFee: [] as string[],
      };
      const points = new Map<number, { m: Market; list: { t: number; price: bigint; qty: bigint }[] }>();
      for (const t of inputs) {
        const m = ms.find((x) => x.id === t.marketId);
        if (!m) throw new Error(`recordTrades: no market ${t.marketId}`);
        const price = parseDecimal(t.price, { positive: true });
        const qty = parseDecimal(t.qty, { positive: true });
        const ticks = price === null ? null : toSteps(price, m.tickSize);
        const lots = qty === null ? null : toSteps(qty, m.lotSize);
        if (price === null || qty === null || ticks === null || lots === null)
          throw new Error(`recordTrades: ${t.price} × ${t.qty} is off the grid of ${m.symbol}`);
        if (t.takerSide !== 'buy' && t.takerSide !== 'sell') throw new Error('recordTrades: bad taker side');
        const atMs = t.at === undefined ? Date.now() : typeof t.at === 'number' ? t.at : t.at.getTime();
        cols.market.push(m.id);
        cols.price.push(price);
        cols.qty.push(qty);
        cols.amount.push(dec(price).times(qty).toFixed());
        cols.side.push(t.takerSide);
        cols.maker.push(t.makerOrderId == null ? null : String(t.makerOrderId));
        cols.taker.push(t.takerOrderId == null ? null : String(t.takerOrderId));
        cols.source.push(t.source ?? 'match');
        cols.at.push(new Date(atMs).toISOString());
        cols.id.push(t.id == null ? null : String(t.id));
        cols.makerUser.push(t.makerUserId ?? null);
        cols.takerUser.push(t.takerUserId ?? null);
        cols.makerFee.push(t.makerFee ?? '0');
        cols.takerFee.push(t.takerFee ?? '0');
        let p = points.get(m.id);
        if (!p) {
          p = { m, list: [] };
          points.set(m.id, p);
        }
        p.list.push({ t: atMs, price: ticks, qty: lots });
      }
      const writes: CandleWrite[] = [];
      for (const { m, list } of points.values()) {
        writes.push(...candleWrites(m, list, 'trade'));
        tradeMode.add(m.id);
      }
      const symbolOf = new Map(ms.map((m) => [m.id, m.symbol]));
      return async () => {
        // Both statements leave together (nothing of one is needed by the other).
        const [rows, candles] = await Promise.all([
          q.query<{
            id: string;
            market_id: number;
            price: string;
            qty: string;
            amount: string;
            taker_side: OrderSide;
            maker_order_id: string | null;
            taker_order_id: string | null;
            t: string;
          }>(
            `INSERT INTO trades (id, market_id, price, qty, amount, taker_side, maker_order_id, taker_order_id, source,
                               created_at, maker_user_id, taker_user_id, maker_fee, taker_fee)
           OVERRIDING SYSTEM VALUE
           SELECT coalesce(x.id, nextval(pg_get_serial_sequence('trades', 'id'))), x.market_id, x.price, x.qty,
                  x.amount, x.side, x.maker, x.taker, x.source, x.at, x.mu, x.tu, x.mf, x.tf
             FROM unnest($1::int[], $2::numeric[], $3::numeric[], $4::numeric[], $5::text[], $6::bigint[],
                         $7::bigint[], $8::text[], $9::timestamptz[], $10::bigint[], $11::int[], $12::int[],
                         $13::numeric[], $14::numeric[]) WITH ORDINALITY
                  AS x(market_id, price, qty, amount, side, maker, taker, source, at, id, mu, tu, mf, tf, n)
            ORDER BY x.n
           RETURNING id::text, market_id, price::text, qty::text, amount::text, taker_side,
                     maker_order_id::text, taker_order_id::text,
                     (extract(epoch FROM created_at) * 1000)::bigint::text AS t`,
            [
              cols.market,
              cols.price,
              cols.qty,
              cols.amount,
              cols.side,
              cols.maker,
              cols.taker,
              cols.source,
              cols.at,
              cols.id,
              cols.makerUser,
              cols.takerUser,
              cols.makerFee,
              cols.takerFee,
            ],
          ),
          mergeCandles(q, writes),
        ]);
        const trades = rows
          .map((r) => ({
            id: r.id,
            marketId: r.market_id,
            symbol: symbolOf.get(r.market_id)!,
            price: canon(r.price),
            qty: canon(r.qty),
            amount: canon(r.amount),
            takerSide: r.taker_side,
            makerOrderId: r.maker_order_id,
            takerOrderId: r.taker_order_id,
            time: Number(r.t),
          }))
          .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
        return { trades, candles };
      };
    },

    /** `recordTrades` for one fill. */
    async recordTrade(q: Queryable, input: TradeInput): Promise<RecordedTrades> {
      return service.recordTrades(q, [input]);
    },

    /** Sends recorded fills to the trades, kline and ticker streams (after the commit). */
    async publish(recorded: RecordedTrades): Promise<void> {
      invalidateTickers();
      for (const t of recorded.trades) {
        const trade: PublicTrade = {
          id: t.id,
          price: t.price,
          qty: t.qty,
          amount: t.amount,
          side: t.takerSide,
          time: t.time,
        };
        publisher.trade(t.symbol, trade);
        publisher.ticker(t.symbol);
      }
      await publishCandles(recorded.candles);
    },

    currentIndex,

    /** Calls `listener` after each recorded round of index ticks; answers the function that stops it. */
    onTicks(listener: (prices: ReadonlyMap<number, string>, atMs: number) => void): () => void {
      tickListeners.add(listener);
      return () => tickListeners.delete(listener);
    },

    /** The latest recorded index tick of a market at or before `at` (what settles options and contracts). */
    async indexAt(
      marketId: number,
      at: Date | number = Date.now(),
    ): Promise<{ id: string; price: string; source: string; time: number } | null> {
      const [row] = await db.query<{ id: string; price: string; source: string; t: string }>(
        `SELECT id::text, price::text, source, (extract(epoch FROM created_at) * 1000)::bigint::text AS t
           FROM index_ticks WHERE market_id = $1 AND created_at <= $2
          ORDER BY created_at DESC, index_ticks.id DESC LIMIT 1`,
        [marketId, new Date(at).toISOString()],
      );
      return row ? { id: row.id, price: canon(row.price), source: row.source, time: Number(row.t) } : null;
    },
  };
  return service;
}

declare module 'fastify' {
  interface FastifyInstance {
    market: MarketService;
  }
}

/** For other modules: latest index prices without reading the market tables. */
export { latestIndexPrices } from './index-prices.ts';
export type { ChartInterval, Market };
