import type {
  CandlePage,
  CandlesQuery,
  ChartInterval,
  Deal,
  DealQuery,
  MarketTicker,
  PublicTrade,
} from '@verdant/api';
import { DEPTH_LEVELS } from '@verdant/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { type BackfillOptions, backfillMarket } from './backfill.ts';
import { toSteps } from './candles.ts';
import { IndexFeed, type IndexSource, SimSource } from './feed.ts';
import { insertMarket, loadMarkets, type Market, type NewMarket, normalizeSymbol } from './markets.ts';
import { MarketPublisher } from './publisher.ts';
import { candlePage, type DepthProvider, dealPage, favouriteIds, indexAt } from './queries.ts';
import { seedOf } from './sim.ts';
import { type CandleWrite, mergeCandles, type StoredCandle } from './store.ts';
import { addMarketStreams } from './streams.ts';
import { Tickers } from './tickers.ts';
import { buildTrades, candleWrites, type RecordedTrades, type TradeInput, TradeMode } from './trades.ts';

const EMPTY_DEPTH: DepthProvider = () => ({ bids: [], asks: [] });

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
  const tradeMode = new TradeMode(db);

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

  const board = new Tickers(db, enabled);
  const tickers = (favourites?: ReadonlySet<number>) => board.list(favourites);
  const invalidateTickers = () => board.invalidate();

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
    await tradeMode.load();
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
    board.invalidateIndex();
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

  /** Told when a market was added (its book opens without a restart). */
  const addedListeners = new Set<(change: { heard: boolean }) => void>();

  const feed = new IndexFeed(
    opts.source ?? new SimSource(seed),
    { recordTicks, markets: async () => (await enabled()).filter((m) => m.simulated) },
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
    for (const m of ms)
      if (m.simulated) written += await backfillMarket(db, m, seed, config.backfillDays, nowMs, opts);
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

  addMarketStreams(io, { tickers: () => tickers(), enabled, depth: () => depthProvider });

  const service = {
    feed,
    publisher,
    markets: enabled,
    allMarkets: markets,
    byId,
    /** The enabled market a request names (btcusdt, BTC/USDT…), or the localized error. */
    market,
    /**
     * Adds a launched coin's market inside the caller's transaction (markets as data); call
     * `added` after the commit. Not simulated: no index feed or back-fill serves it, its price
     * is its trades; `added` then opens its book on the spot side (app.ts, cluster/spot.ts).
     */
    addMarket: (q: Queryable, n: NewMarket) => insertMarket(q, n),
    /** Reads markets again (after an operator changes them). */
    reload(): void {
      all = null;
      invalidateTickers();
    },
    /**
     * A market was added (a launch): reads markets again and tells the listeners (the spot side
     * opens its book, app.ts relays it to the other processes of a cluster). `heard`: the change
     * was made by another process, which already told the others. The new list replaces the
     * old one once read, never leaving it empty meanwhile: a transaction asking for markets on
     * PGlite's one connection would otherwise wait for a read queued behind itself.
     */
    async added(opts: { heard?: boolean } = {}): Promise<void> {
      const fresh = await loadMarkets(db);
      all = Promise.resolve(fresh);
      invalidateTickers();
      for (const listener of addedListeners) {
        try {
          listener({ heard: opts.heard ?? false });
        } catch (err) {
          reportError(err);
        }
      }
      // the tickers stream lists the new market (once: the socket adapter reaches every process)
      if (!opts.heard) for (const m of fresh) if (m.enabled) publisher.ticker(m.symbol);
    },
    /** Calls `listener` after each `added`; answers the function that stops it. */
    onAdded(listener: (change: { heard: boolean }) => void): () => void {
      addedListeners.add(listener);
      return () => addedListeners.delete(listener);
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
      return tickers(await favouriteIds(db, userId));
    },

    async favourites(userId: number | null): Promise<MarketTicker[]> {
      if (userId === null) return [];
      const ids = await favouriteIds(db, userId);
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
      return candlePage(db, await market(query.symbol), query);
    },

    async deal(query: DealQuery): Promise<Deal> {
      const m = await market(query.symbol);
      return dealPage(db, m, query, () => depthProvider(m, DEPTH_LEVELS));
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
      await tradeMode.load(q);
      const { marketIds, send } = buildTrades(q, await markets(q), inputs);
      // from now on these markets' candles follow their trades, not the index
      for (const id of marketIds) tradeMode.add(id);
      return send;
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

    currentIndex: (marketId: number) => board.currentIndex(marketId),

    /** Calls `listener` after each recorded round of index ticks; answers the function that stops it. */
    onTicks(listener: (prices: ReadonlyMap<number, string>, atMs: number) => void): () => void {
      tickListeners.add(listener);
      return () => tickListeners.delete(listener);
    },

    /** The latest recorded index tick of a market at or before `at` (what settles options and contracts). */
    indexAt(marketId: number, at: Date | number = Date.now()) {
      return indexAt(db, marketId, at);
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
export type { DepthProvider } from './queries.ts';
/** For other modules' jobs, inside their transactions: recorded ticks without reading index_ticks. */
export { latestTickTimes, type SpanTick, ticksThrough } from './queries.ts';
export { crossingTicks, type IndexTick, lastTickId, lastTickIds, ticksAfter, ticksById } from './ticks.ts';
export type { RecordedTrades, TradeInput, TradeRecord } from './trades.ts';
// read by the operators' console (modules/admin)
export { marketVolumes } from './volumes.ts';
export type { ChartInterval, Market };
