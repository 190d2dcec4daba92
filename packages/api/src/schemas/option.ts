// Timed options (spec: pages/option/detail, calls microtrade/*): delivery times per market,
// payable currencies, buying, and the user's orders with the recorded ticks that settle them.
// The rules are in docs/decisions.md ("Timed options").
import { type Static, Type } from '@sinclair/typebox';
import { Str } from './common.ts';

export const OPTION_DIRECTIONS = ['bullish', 'bearish'] as const;
export type OptionDirectionName = (typeof OPTION_DIRECTIONS)[number];
/** waiting: waiting for delivery; delivered: settled, in the delivery history. */
export const OPTION_STATUSES = ['waiting', 'delivered'] as const;
export type OptionStatus = (typeof OPTION_STATUSES)[number];

const Dec = (description: string) => Type.String({ description: `${description} (decimal string)` });
/** A moment as ISO 8601 text in UTC ("2025-01-31T07:05:09.123Z"), as every record of the API gives it. */
const DateTime = (description: string) => Type.String({ format: 'date-time', description });

export const OptionSecondsQuery = Type.Object({
  symbol: Str('Market: btcusdt; every market when left out', { maxLength: 30 }),
});
export type OptionSecondsQuery = Static<typeof OptionSecondsQuery>;

export const OptionSeconds = Type.Object({
  symbol: Type.String(),
  name: Type.String({ description: 'BTC/USDT' }),
  seconds: Type.Integer({ description: 'Delivery time: seconds from purchase to delivery' }),
  profit_ratio: Dec('What a win pays as a fraction of the stake (0.8 = 80 %)'),
  fee_rate: Dec("Fee taken from a win's profit, as a fraction of that profit"),
  min_amount: Dec('Smallest stake, in the payable currency'),
  max_amount: Dec('Largest stake'),
});
export type OptionSeconds = Static<typeof OptionSeconds>;

export const PayableCurrency = Type.Object({
  currency_id: Type.Integer(),
  symbol: Type.String(),
  decimals: Type.Integer({ description: 'Places a stake may have' }),
  available: Type.Union([Dec('Available in your option account'), Type.Null()], {
    description: 'null when not logged in',
  }),
});
export type PayableCurrency = Static<typeof PayableCurrency>;

export const OptionSubmitBody = Type.Object({
  symbol: Str('Market: btcusdt', { maxLength: 30 }),
  seconds: Str('Delivery time in seconds, one of microtrade/seconds', { maxLength: 9 }),
  currency: Str('Payable currency: its symbol (USDT) or id (3)', { maxLength: 20 }),
  amount: Str('Stake, in the payable currency', { maxLength: 60 }),
  direction: Str('bullish (up) or bearish (down)', { maxLength: 10 }),
});
export type OptionSubmitBody = Static<typeof OptionSubmitBody>;

export const OptionListQuery = Type.Object({
  status: Str('waiting (waiting for delivery) or delivered (delivery history); default waiting', {
    maxLength: 20,
  }),
  symbol: Str('Only this market', { maxLength: 30 }),
  page: Str('Page, from 1', { maxLength: 9 }),
  limit: Str('Rows per page, 1 to 100 (default 20)', { maxLength: 9 }),
});
export type OptionListQuery = Static<typeof OptionListQuery>;

/** A recorded index tick: the price that settles money, with its time and source. */
export const IndexTick = Type.Object({
  id: Type.String({ description: 'Id of the recorded tick' }),
  price: Dec('Index price'),
  time: DateTime('When it was recorded'),
});
export type IndexTick = Static<typeof IndexTick>;

export const OptionOrder = Type.Object({
  id: Type.String(),
  symbol: Type.String(),
  name: Type.String({ description: 'BTC/USDT' }),
  currency: Type.String({ description: 'Payable currency symbol (USDT)' }),
  direction: Type.Union([Type.Literal('bullish'), Type.Literal('bearish')]),
  seconds: Type.Integer(),
  amount: Dec('Stake'),
  profit_ratio: Dec('Profit ratio at purchase'),
  fee_rate: Dec('Fee rate on the profit, at purchase'),
  expected_profit: Dec('What a win adds to the stake, fee deducted'),
  status: Type.Union([Type.Literal('waiting'), Type.Literal('delivered')]),
  purchase_time: DateTime('Purchase'),
  deliver_at: DateTime('Delivery time'),
  purchase: IndexTick,
  delivery: Type.Union([IndexTick, Type.Null()], {
    description: 'The first recorded tick at or after the delivery time; null while waiting',
  }),
  result: Type.Union([Type.Literal('win'), Type.Literal('loss'), Type.Literal('flat'), Type.Null()]),
  payout: Type.Union([Dec('Returned to the option account'), Type.Null()]),
  pnl: Type.Union([Dec('Profit (positive) or loss (negative)'), Type.Null()]),
  fee: Type.Union([Dec('Fee charged'), Type.Null()]),
  settled_at: Type.Union([DateTime('Settlement'), Type.Null()]),
});
export type OptionOrder = Static<typeof OptionOrder>;

export const OptionOrderPage = Type.Object({
  list: Type.Array(OptionOrder, { description: 'Waiting: soonest delivery first; delivered: newest first' }),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
});
export type OptionOrderPage = Static<typeof OptionOrderPage>;
