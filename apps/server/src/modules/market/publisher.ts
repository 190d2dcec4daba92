import {
  type Candle,
  type ChartInterval,
  type Depth,
  type DepthMessage,
  type KlineMessage,
  MarketEvents,
  MarketStreams,
  type MarketTicker,
  type PublicTrade,
  type TradesMessage,
} from '@verdant/api';
import type { Server } from 'socket.io';
import { emitTogether } from '../../realtime/index.ts';

/** Trades kept per stream between two messages (a burst sends the newest ones). */
const MAX_TRADES_PER_MESSAGE = 100;

export interface PublisherSources {
  /** Every enabled market's ticker. */
  tickers(): Promise<MarketTicker[]>;
  /** A market's depth (from the order book once it exists). */
  depth(symbol: string): Promise<Depth | null>;
}

/**
 * Coalesces market data for the socket: updates collect per stream and go out together at most
 * once every `intervalMs`. A kline message carries every candle of the stream that changed since
 * the last one (so a bucket's last state is never lost when a new bucket opens), a trades
 * message the trades since the last one; tickers and depth are read fresh when sent.
 */
export class MarketPublisher {
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly klines = new Map<
    string,
    { symbol: string; interval: ChartInterval; byTime: Map<number, Candle> }
  >();
  private readonly trades = new Map<string, { symbol: string; list: PublicTrade[] }>();
  private readonly tickerSymbols = new Set<string>();
  private readonly depthSymbols = new Set<string>();
  private closed = false;

  constructor(
    private readonly io: Server,
    private readonly sources: PublisherSources,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  kline(symbol: string, interval: ChartInterval, candle: Candle): void {
    const room = MarketStreams.kline(symbol, interval);
    let k = this.klines.get(room);
    if (!k) {
      k = { symbol, interval, byTime: new Map() };
      this.klines.set(room, k);
    }
    k.byTime.set(candle.time, candle);
    this.schedule();
  }

  trade(symbol: string, trade: PublicTrade): void {
    const room = MarketStreams.trades(symbol);
    let t = this.trades.get(room);
    if (!t) {
      t = { symbol, list: [] };
      this.trades.set(room, t);
    }
    t.list.push(trade);
    if (t.list.length > MAX_TRADES_PER_MESSAGE) t.list.shift();
    this.schedule();
  }

  ticker(symbol: string): void {
    this.tickerSymbols.add(symbol);
    this.schedule();
  }

  depth(symbol: string): void {
    this.depthSymbols.add(symbol);
    this.schedule();
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, this.intervalMs);
  }

  /** Sends everything pending now. */
  async flush(): Promise<void> {
    if (this.flushing) await this.flushing;
    this.flushing = this.send().catch(this.onError);
    await this.flushing;
    this.flushing = null;
  }

  private async send(): Promise<void> {
    // Read everything first, then emit it all in one synchronous run: a client's messages of
    // one flush then leave in one socket write (emitTogether).
    const out: { room: string; event: string; msg: unknown }[] = [];
    for (const [room, k] of this.klines) {
      const msg: KlineMessage = {
        symbol: k.symbol,
        interval: k.interval,
        list: [...k.byTime.values()].sort((a, b) => a.time - b.time),
      };
      out.push({ room, event: MarketEvents.kline, msg });
    }
    this.klines.clear();
    for (const [room, t] of this.trades) {
      const msg: TradesMessage = { symbol: t.symbol, list: t.list };
      out.push({ room, event: MarketEvents.trades, msg });
    }
    this.trades.clear();
    if (this.tickerSymbols.size > 0) {
      const symbols = new Set(this.tickerSymbols);
      this.tickerSymbols.clear();
      const all = await this.sources.tickers();
      out.push({ room: MarketStreams.tickers, event: MarketEvents.tickers, msg: all });
      for (const t of all)
        if (symbols.has(t.symbol))
          out.push({ room: MarketStreams.ticker(t.symbol), event: MarketEvents.ticker, msg: t });
    }
    if (this.depthSymbols.size > 0) {
      const symbols = [...this.depthSymbols];
      this.depthSymbols.clear();
      for (const symbol of symbols) {
        const depth = await this.sources.depth(symbol);
        if (!depth) continue;
        const msg: DepthMessage = { symbol, ...depth };
        out.push({ room: MarketStreams.depth(symbol), event: MarketEvents.depth, msg });
      }
    }
    emitTogether(this.io, () => {
      for (const { room, event, msg } of out) this.io.to(room).emit(event, msg);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing;
  }
}
