import { DEPTH_LEVELS, isChartInterval, MarketEvents, MarketStreams, type MarketTicker } from '@verdant/api';
import type { Server } from 'socket.io';
import { addStreamResolver } from '../../realtime/index.ts';
import type { Market } from './markets.ts';
import type { DepthProvider } from './queries.ts';

/**
 * The market streams a socket may subscribe to (tickers, ticker:, trades:, depth:, kline:), with
 * the snapshot each sends on subscribing; the publisher sends what follows.
 */
export function addMarketStreams(
  io: Server,
  src: {
    tickers: () => Promise<MarketTicker[]>;
    enabled: () => Promise<Market[]>;
    depth: () => DepthProvider;
  },
): void {
  addStreamResolver(io, (stream) => {
    const parts = stream.split(':');
    const symbolKnown = (s: string | undefined) => s !== undefined && /^[a-z0-9]{2,20}$/.test(s);
    if (stream === MarketStreams.tickers)
      return {
        room: stream,
        snapshot: async (socket) => {
          socket.emit(MarketEvents.tickers, await src.tickers());
        },
      };
    if (parts.length === 2 && symbolKnown(parts[1]) && ['ticker', 'trades', 'depth'].includes(parts[0]!)) {
      const [kind, symbol] = parts as [string, string];
      return {
        room: stream,
        snapshot: async (socket) => {
          const m = (await src.enabled()).find((x) => x.symbol === symbol);
          if (!m) return;
          if (kind === 'ticker') {
            const t = (await src.tickers()).find((x) => x.id === m.id);
            if (t) socket.emit(MarketEvents.ticker, t);
          } else if (kind === 'depth') {
            socket.emit(MarketEvents.depth, { symbol, ...(await src.depth()(m, DEPTH_LEVELS)) });
          }
        },
      };
    }
    if (parts.length === 3 && parts[0] === 'kline' && symbolKnown(parts[1]) && isChartInterval(parts[2]))
      return { room: stream };
    return null;
  });
}
