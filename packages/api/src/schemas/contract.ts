// Perpetual contracts (spec §2 pages/lever/index, §3 "Contract order", §7 lever/*). Every price
// that settled a position is a recorded index tick, shown with its time and source.
// See docs/decisions.md, "Contracts".
import { type Static, Type } from '@sinclair/typebox';
import { PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../constants.ts';
import { Literals, Str } from './common.ts';

/** Paths relative to /api, verbatim from spec §7 (POST; deal and my_trade answer GET too). */
export const ContractPaths = {
  deal: 'lever/deal',
  submit: 'lever/submit',
  myTrade: 'lever/my_trade',
  close: 'lever/close',
  setStop: 'lever/setstop',
  /** Cancels a pending limit order (not in the spec's list: its screen has "order cancelled"). */
  cancel: 'lever/cancel',
} as const;

export const CONTRACT_DIRECTIONS = ['long', 'short'] as const;
export type ContractDirection = (typeof CONTRACT_DIRECTIONS)[number];
export const CONTRACT_ORDER_TYPES = ['market', 'limit'] as const;
/** pending: a limit order waiting for the index; holding: "in trade"; spec §4. */
export const CONTRACT_STATUSES = ['pending', 'holding', 'closed', 'cancelled'] as const;
export type ContractStatus = (typeof CONTRACT_STATUSES)[number];
export const CONTRACT_CLOSE_REASONS = ['user', 'take_profit', 'stop_loss', 'liquidation'] as const;
export const CONTRACT_EVENT_KINDS = [
  'order',
  'open',
  'set_stops',
  'cancel',
  'close',
  'take_profit',
  'stop_loss',
  'liquidation',
] as const;

/**
 * Socket events. `contract:<symbol>` (public stream, join with `sub`) carries every index tick
 * of the contract's market, so open positions' current price and profit and loss move live;
 * `position` goes to the user's private room after every change of one of their positions.
 */
export const ContractEvents = {
  /** Payload ContractTick. */
  tick: 'contract_tick',
  /** Payload ContractPosition. */
  position: 'contract_position',
} as const;
export const ContractStreams = { tick: (symbol: string) => `contract:${symbol}` } as const;

const Dec = (description: string) => Type.String({ description: `${description} (decimal string)` });
const NullDec = (description: string) => Type.Union([Dec(description), Type.Null()]);
/** A moment as ISO 8601 text in UTC ("2025-01-31T07:05:09.123Z"), as every record of the API gives it. */
const DateTime = (description: string) => Type.String({ format: 'date-time', description });

/** The live push of a tick (milliseconds, like the trade tape). */
export const ContractTick = Type.Object({
  id: Type.String({ description: 'Index tick id' }),
  symbol: Type.String(),
  price: Dec('Index price'),
  time: Type.Integer({ description: 'Milliseconds since 1970' }),
  source: Type.String({ description: "Where the price came from ('sim': the simulated feed)" }),
});
export type ContractTick = Static<typeof ContractTick>;

/** A recorded tick inside a record (a position, its history, a market's current price): ISO time. */
export const ContractTickRecord = Type.Object({
  id: Type.String({ description: 'Index tick id' }),
  symbol: Type.String(),
  price: Dec('Index price'),
  time: DateTime('When it was recorded'),
  source: Type.String({ description: "Where the price came from ('sim': the simulated feed)" }),
});
export type ContractTickRecord = Static<typeof ContractTickRecord>;

export const ContractMarket = Type.Object({
  id: Type.Integer(),
  symbol: Type.String({ description: 'The underlying index market: btcusdt' }),
  name: Type.String({ description: 'BTC/USDT' }),
  currency: Type.String({ description: 'Settlement currency (the contract account’s): USDT' }),
  currency_id: Type.Integer(),
  currency_decimals: Type.Integer(),
  lot_value: Dec('Units of the underlying in one lot'),
  multiples: Type.Array(Type.Integer(), { description: 'Leverage multiples to choose from' }),
  open_fee_rate: Dec('Opening fee, a fraction of the market value'),
  close_fee_rate: Dec('Closing fee, a fraction of the market value'),
  maintenance_rate: Dec('Equity at or below open value × this liquidates'),
  max_lots_per_order: Type.Integer(),
  max_lots_per_user: Type.Integer({ description: 'Lots held and pending per user in this contract' }),
  max_open_positions: Type.Integer({ description: 'Positions held and pending per user in this contract' }),
  tick_size: Dec('Price step'),
  price_decimals: Type.Integer(),
  price: Type.Union([ContractTickRecord, Type.Null()], { description: 'The latest recorded index tick' }),
});
export type ContractMarket = Static<typeof ContractMarket>;

export const ContractDealQuery = Type.Object({
  symbol: Str('Contract to describe first (default: the first)', { maxLength: 30 }),
});
export type ContractDealQuery = Static<typeof ContractDealQuery>;

export const ContractDeal = Type.Object({
  list: Type.Array(ContractMarket),
  current: ContractMarket,
  balance: Type.Union(
    [
      Type.Object({ available: Dec('Available in the contract account'), frozen: Dec('Held as margin') }),
      Type.Null(),
    ],
    { description: 'The contract account in the settlement currency; null for visitors' },
  ),
});
export type ContractDeal = Static<typeof ContractDeal>;

export const ContractSubmitBody = Type.Object({
  symbol: Str('Contract: btcusdt', { maxLength: 30 }),
  direction: Str('long or short', { maxLength: 10 }),
  type: Str('market (default) or limit', { maxLength: 10 }),
  price: Str('Limit price (limit orders)', { maxLength: 60 }),
  lots: Str('Whole number of lots, at least 1', { maxLength: 20 }),
  multiple: Str('Leverage multiple, one of the contract’s', { maxLength: 10 }),
  take_profit: Str('Take-profit price (with stop_loss)', { maxLength: 60 }),
  stop_loss: Str('Stop-loss price (with take_profit)', { maxLength: 60 }),
});
export type ContractSubmitBody = Static<typeof ContractSubmitBody>;

export const ContractListQuery = Type.Object({
  status: Str(`${CONTRACT_STATUSES.join(', ')} (default holding)`, { maxLength: 20 }),
  symbol: Str('Only this contract', { maxLength: 30 }),
  page: Str('Page, from 1', { maxLength: 9 }),
  limit: Str(`Rows per page, 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`, { maxLength: 9 }),
});
export type ContractListQuery = Static<typeof ContractListQuery>;

export const ContractCloseBody = Type.Object({
  id: Str('Position id; leave out with all=1 to close every holding position', { maxLength: 20 }),
  all: Str('1: close all your holding positions (of symbol when given)', { maxLength: 5 }),
  symbol: Str('With all=1: only this contract', { maxLength: 30 }),
});
export type ContractCloseBody = Static<typeof ContractCloseBody>;

export const ContractIdBody = Type.Object({ id: Str('Position id', { maxLength: 20 }) });
export type ContractIdBody = Static<typeof ContractIdBody>;

export const ContractSetStopBody = Type.Object({
  id: Str('Position id (holding or pending)', { maxLength: 20 }),
  take_profit: Str('Take-profit price; both empty removes them', { maxLength: 60 }),
  stop_loss: Str('Stop-loss price', { maxLength: 60 }),
});
export type ContractSetStopBody = Static<typeof ContractSetStopBody>;

export const ContractEvent = Type.Object({
  kind: Literals(CONTRACT_EVENT_KINDS),
  price: NullDec('The tick price that settled it, or the limit price of an order'),
  take_profit: NullDec('Take-profit set'),
  stop_loss: NullDec('Stop-loss set'),
  tick: Type.Union([ContractTickRecord, Type.Null()], { description: 'The recorded index tick' }),
  time: DateTime('When it happened'),
});
export type ContractEvent = Static<typeof ContractEvent>;

/** Spec §3 "Contract order", plus what settled it. */
export const ContractPosition = Type.Object({
  id: Type.String(),
  symbol: Type.String(),
  name: Type.String(),
  direction: Literals(CONTRACT_DIRECTIONS),
  type: Literals(CONTRACT_ORDER_TYPES),
  status: Literals(CONTRACT_STATUSES),
  price: Dec('The limit price, or the opening price of a market order'),
  lots: Type.Integer(),
  lot_value: Dec('Units of the underlying per lot'),
  multiple: Type.Integer(),
  market_value: Dec('Price × lots × lot value'),
  margin: Dec('Held while open'),
  fee: Dec('Opening fee, plus the closing fee once closed'),
  open_fee: Dec('Opening fee'),
  close_fee: NullDec('Closing fee'),
  open_price: NullDec('null while pending'),
  current_price: NullDec('The latest index price (holding), the closing price (closed)'),
  pnl: NullDec('Profit and loss at the current price (holding) or the closing price (closed)'),
  payout: NullDec('Returned to the contract account on closing'),
  take_profit: NullDec('Take-profit price'),
  stop_loss: NullDec('Stop-loss price'),
  liquidation_price: NullDec('The highest (long) or lowest (short) price that liquidates'),
  close_reason: Type.Union([Literals(CONTRACT_CLOSE_REASONS), Type.Null()]),
  open_tick: Type.Union([ContractTickRecord, Type.Null()]),
  close_tick: Type.Union([ContractTickRecord, Type.Null()]),
  created_at: DateTime('Order placed'),
  opened_at: Type.Union([DateTime('Opened (a limit order: when it filled)'), Type.Null()], {
    description: 'null while pending',
  }),
  closed_at: Type.Union([DateTime('Closed'), Type.Null()], { description: 'null until closed' }),
  history: Type.Array(ContractEvent, { description: 'Oldest first' }),
});
export type ContractPosition = Static<typeof ContractPosition>;

export const ContractPositionPage = Type.Object({
  list: Type.Array(ContractPosition, { description: 'Newest first' }),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
});
export type ContractPositionPage = Static<typeof ContractPositionPage>;

export const ContractCloseResult = Type.Object({
  list: Type.Array(ContractPosition, { description: 'The positions closed' }),
});
export type ContractCloseResult = Static<typeof ContractCloseResult>;
