// Markets, tickers, candles, recent trades and depth; socket streams of market data.
// See the markets issue and docs/decisions.md ("Markets").
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import {
  CANDLE_SOURCES,
  CANDLES_DEFAULT_LIMIT,
  CANDLES_MAX_LIMIT,
  CHART_INTERVALS,
  type ChartInterval,
  DEALS_DEFAULT_LIMIT,
  DEALS_MAX_LIMIT,
  ORDER_SIDES,
} from '../constants.ts';
import { Literals, Str } from './common.ts';

const Dec = (description: string) => Type.String({ description: `${description} (decimal string)` });
const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

// ---- markets and tickers -----------------------------------------------------------------

export const MarketInfo = Type.Object({
  id: Type.Integer({ description: 'Market id' }),
  symbol: Type.String({ description: 'Lower-case base and quote: btcusdt' }),
  name: Type.String({ description: 'Display name: BTC/USDT' }),
  base: Type.String({ description: 'Base currency symbol' }),
  quote: Type.String({ description: 'Quote currency symbol' }),
  base_currency_id: Type.Integer(),
  quote_currency_id: Type.Integer(),
  tick_size: Dec('Prices are multiples of this'),
  lot_size: Dec('Quantities are multiples of this'),
  min_amount: Dec('Smallest order value, in the quote currency'),
  maker_fee: Dec('Maker fee as a fraction (0.001 = 0.1 %)'),
  taker_fee: Dec('Taker fee as a fraction'),
  price_decimals: Type.Integer(),
  amount_decimals: Type.Integer({ description: 'Decimals of quantities (base currency)' }),
});
export type MarketInfo = Static<typeof MarketInfo>;

export const MarketTicker = Type.Composite([
  MarketInfo,
  Type.Object({
    last: Nullable(Dec('Latest price: the last trade, or the index before the market has trades')),
    index_price: Nullable(Dec('Latest index price of the feed')),
    open_24h: Nullable(Dec('Price 24 hours ago (open of the first minute of the window)')),
    high_24h: Nullable(Dec('Highest price in the last 24 hours')),
    low_24h: Nullable(Dec('Lowest price in the last 24 hours')),
    volume_24h: Dec('Base currency traded in the last 24 hours'),
    amount_24h: Dec('Its value in the quote currency'),
    change_24h: Nullable(
      Type.String({ description: 'Change over 24 hours in percent, 2 decimals truncated ("-1.25")' }),
    ),
    favourite: Type.Boolean({ description: "In the logged-in user's favourites (false for visitors)" }),
  }),
]);
export type MarketTicker = Static<typeof MarketTicker>;
export const MarketTickerList = Type.Array(MarketTicker);

// ---- candles -----------------------------------------------------------------------------

export const CandlesQuery = Type.Object({
  symbol: Str('Market: btcusdt (BTC/USDT and BTC_USDT are accepted too)', { maxLength: 30 }),
  interval: Str(`Chart interval: ${CHART_INTERVALS.join(', ')} (default 1min)`, { maxLength: 20 }),
  limit: Str(`Candles, 1 to ${CANDLES_MAX_LIMIT} (default ${CANDLES_DEFAULT_LIMIT})`, { maxLength: 9 }),
  before: Str('Only candles opening before this time (milliseconds since 1970): the next page back', {
    maxLength: 16,
  }),
});
export type CandlesQuery = Static<typeof CandlesQuery>;

export const Candle = Type.Object({
  time: Type.Integer({ description: 'Open time of the bucket, milliseconds since 1970 (UTC)' }),
  open: Dec('Open'),
  high: Dec('High'),
  low: Dec('Low'),
  close: Dec('Close'),
  volume: Dec('Base currency traded'),
  amount: Dec('Value traded, in the quote currency'),
  source: Literals(CANDLE_SOURCES, {
    description: 'sim: simulated history back-filled on first start; index: index ticks; trade: trades',
  }),
});
export type Candle = Static<typeof Candle>;

export const CandlePage = Type.Object({
  symbol: Type.String(),
  interval: Type.String(),
  list: Type.Array(Candle, { description: 'Oldest first; the last one may still be open' }),
});
export type CandlePage = Static<typeof CandlePage>;

// ---- trades and depth --------------------------------------------------------------------

export const DealQuery = Type.Object({
  symbol: Str('Market: btcusdt', { maxLength: 30 }),
  limit: Str(`Recent trades, 1 to ${DEALS_MAX_LIMIT} (default ${DEALS_DEFAULT_LIMIT})`, { maxLength: 9 }),
});
export type DealQuery = Static<typeof DealQuery>;

export const PublicTrade = Type.Object({
  id: Type.String(),
  price: Dec('Price'),
  qty: Dec('Quantity (base currency)'),
  amount: Dec('Value (quote currency)'),
  side: Literals(ORDER_SIDES, { description: "The taker's side" }),
  time: Type.Integer({ description: 'Milliseconds since 1970' }),
});
export type PublicTrade = Static<typeof PublicTrade>;

export const DepthLevel = Type.Object({ price: Dec('Price'), qty: Dec('Quantity at this price') });
export type DepthLevel = Static<typeof DepthLevel>;
export const Depth = Type.Object({
  bids: Type.Array(DepthLevel, { description: 'Best (highest) first' }),
  asks: Type.Array(DepthLevel, { description: 'Best (lowest) first' }),
});
export type Depth = Static<typeof Depth>;

export const Deal = Type.Object({
  symbol: Type.String(),
  trades: Type.Array(PublicTrade, { description: 'Newest first' }),
  depth: Depth,
});
export type Deal = Static<typeof Deal>;

// ---- favourites --------------------------------------------------------------------------

export const FavouriteBody = Type.Object({ symbol: Str('Market: btcusdt', { maxLength: 30 }) });
export type FavouriteBody = Static<typeof FavouriteBody>;

// ---- socket streams ----------------------------------------------------------------------

export interface SubscribeAck {
  ok: string[];
  rejected: string[];
}
export interface TradesMessage {
  symbol: string;
  /** Oldest first. */
  list: PublicTrade[];
}
export interface KlineMessage {
  symbol: string;
  interval: ChartInterval;
  /** Candles that changed since the last message, oldest first (the last one is the open one). */
  list: Candle[];
}
export interface DepthMessage extends Depth {
  symbol: string;
}
