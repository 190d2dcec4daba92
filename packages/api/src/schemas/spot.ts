// Spot orders: place (POST coin/trade), cancel (PUT coin/trade), list (GET coin/list), and the
// user's own order updates over the socket. See the markets issue and docs/decisions.md ("Spot").
import { type Static, Type } from '@sinclair/typebox';
import {
  CANCEL_REASONS,
  ORDER_SIDES,
  ORDER_STATUSES,
  ORDER_TYPES,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  TRADE_ROLES,
} from '../constants.ts';
import { Literals, Str } from './common.ts';

const Dec = (description: string) => Type.String({ description: `${description} (decimal string)` });
/** A moment as ISO 8601 text in UTC ("2025-01-31T07:05:09.123Z"), as every record of the API gives it. */
const DateTime = (description: string) => Type.String({ format: 'date-time', description });

export const PlaceOrderBody = Type.Object({
  symbol: Str('Market: btcusdt', { maxLength: 30 }),
  side: Str('buy or sell', { maxLength: 10 }),
  type: Str('limit or market (default limit)', { maxLength: 10 }),
  price: Str('Limit price, in the quote currency (limit orders)', { maxLength: 60 }),
  qty: Str('Quantity in the base currency (limit orders; market sells; market buys by quantity)', {
    maxLength: 60,
  }),
  amount: Str('Quote currency to spend (market buys by amount, instead of qty)', { maxLength: 60 }),
});
export type PlaceOrderBody = Static<typeof PlaceOrderBody>;

export const CancelOrderBody = Type.Object({ id: Str('Order id', { maxLength: 20 }) });
export type CancelOrderBody = Static<typeof CancelOrderBody>;

export const OrderListQuery = Type.Object({
  status: Str(`${ORDER_STATUSES.join(', ')}; several comma-separated; default all`, { maxLength: 40 }),
  symbol: Str('Only this market', { maxLength: 30 }),
  page: Str('Page, from 1', { maxLength: 9 }),
  limit: Str(`Rows per page, 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`, { maxLength: 9 }),
});
export type OrderListQuery = Static<typeof OrderListQuery>;

export const OrderFill = Type.Object({
  id: Type.String({ description: 'Trade id' }),
  price: Dec('Price'),
  qty: Dec('Quantity (base currency)'),
  amount: Dec('Value (quote currency)'),
  fee: Dec('Fee charged to this order for this fill'),
  fee_currency: Type.String({
    description: 'Buyers pay in the base currency, sellers in the quote currency',
  }),
  role: Literals(TRADE_ROLES),
  time: DateTime('When the trade happened'),
});
export type OrderFill = Static<typeof OrderFill>;

export const SpotOrder = Type.Object({
  id: Type.String(),
  symbol: Type.String(),
  name: Type.String({ description: 'BTC/USDT' }),
  side: Literals(ORDER_SIDES),
  type: Literals(ORDER_TYPES),
  status: Literals(ORDER_STATUSES),
  price: Type.Union([Dec('Limit price'), Type.Null()], { description: 'null for market orders' }),
  qty: Type.Union([Dec('Quantity asked for'), Type.Null()], {
    description: 'null for a market buy by amount',
  }),
  amount: Type.Union([Dec('Quote amount asked for (market buy by amount)'), Type.Null()]),
  filled_qty: Dec('Quantity traded so far'),
  filled_amount: Dec('Value traded so far (quote currency)'),
  avg_price: Type.Union([Dec('Average fill price'), Type.Null()]),
  fee: Dec('Fees so far'),
  fee_currency: Type.String(),
  /** Why it left the book when cancelled: by the user, or what the engine could not trade. */
  cancel_reason: Type.Union([Literals(CANCEL_REASONS), Type.Null()]),
  created_at: DateTime('When the order was placed'),
  updated_at: DateTime('Its last change'),
  fills: Type.Array(OrderFill),
});
export type SpotOrder = Static<typeof SpotOrder>;

export const SpotOrderPage = Type.Object({
  list: Type.Array(SpotOrder, { description: 'Newest first' }),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
});
export type SpotOrderPage = Static<typeof SpotOrderPage>;
