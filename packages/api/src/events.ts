// Socket.IO event and stream names. Plain values (no TypeBox), so the web app's socket code can
// import them without the schema library; payload types are in the schema files.
import type { ChartInterval } from './constants.ts';

/**
 * Market data over Socket.IO. A client joins only what it shows:
 * `socket.emit('sub', ['ticker:btcusdt', 'kline:btcusdt:1min'], ack)` and leaves with `unsub`.
 * The ack is `{ ok: string[], rejected: string[] }`. Updates are coalesced (at most one message
 * per stream every few hundred milliseconds).
 */
export const MarketEvents = {
  sub: 'sub',
  unsub: 'unsub',
  /** Payload MarketTicker[]: every market (stream `tickers`). */
  tickers: 'tickers',
  /** Payload MarketTicker (stream `ticker:<symbol>`). */
  ticker: 'ticker',
  /** Payload TradesMessage (stream `trades:<symbol>`). */
  trades: 'trades',
  /** Payload KlineMessage (stream `kline:<symbol>:<interval>`). */
  kline: 'kline',
  /** Payload DepthMessage (stream `depth:<symbol>`). */
  depth: 'depth',
} as const;

export const MarketStreams = {
  tickers: 'tickers',
  ticker: (symbol: string) => `ticker:${symbol}`,
  trades: (symbol: string) => `trades:${symbol}`,
  kline: (symbol: string, interval: ChartInterval) => `kline:${symbol}:${interval}`,
  depth: (symbol: string) => `depth:${symbol}`,
} as const;

/** The user's own order updates, sent to the `user:<id>` room a logged-in socket joins by itself. */
export const SpotEvents = {
  /** Payload SpotOrder: after every change of one of the user's orders (placed, filled, cancelled). */
  order: 'order',
} as const;

/**
 * Timed options. `option` goes to the user's own room after a purchase and after its delivery;
 * `option_tick` to the public stream `option:<symbol>`, one per recorded index tick (the price a
 * waiting option is compared with).
 */
export const OptionEvents = {
  /** Payload OptionOrder. */
  order: 'option',
  /** Payload OptionTickMessage. */
  tick: 'option_tick',
} as const;

export const OptionStreams = {
  index: (symbol: string) => `option:${symbol}`,
} as const;

export interface OptionTickMessage {
  symbol: string;
  price: string;
  /** When the tick was recorded, ms since 1970. */
  time: number;
}

/**
 * Locked deposit products and new-coin subscription: the user's own room hears of each change of
 * one of their orders (bought, a day's interest paid, matured, redeemed; subscribed, passed,
 * rejected, redeemed).
 */
export const TrustEvents = {
  /** Payload TrustOrder. */
  order: 'trust_order',
} as const;

export const LaunchpadEvents = {
  /** Payload LaunchpadOrder. */
  order: 'launchpad_order',
} as const;

/** Personal messages: the user's own room hears each new one, once its event has committed. */
export const NewsEvents = {
  /** Payload Message, in the user's language. */
  message: 'user_message',
} as const;
