import type { CancelReason, OrderFill, OrderSide, OrderStatus, OrderType, SpotOrder } from '@verdant/api';
import { type Dec, dec, type OrderBook, truncateDecimal } from '@verdant/engine';
import type { Market } from '../market/service.ts';
import { amountOf, toCount } from './grid.ts';

/** What the user asked for: the same in a request and in the order it becomes. */
interface OrderTerms {
  userId: number;
  market: Market;
  side: OrderSide;
  type: OrderType;
  price: string | null;
  qty: string | null;
  amount: string | null;
}

/** An order as the service holds it while it is open or being changed by a batch. */
export interface Order extends OrderTerms {
  id: number;
  filledQty: Dec;
  filledAmount: Dec;
  fee: Dec;
  /** Still frozen by the ledger for this order (quote for buys, base for sells). */
  frozen: Dec;
  status: OrderStatus;
  cancelReason: CancelReason | null;
  seq: number;
  /** Milliseconds since 1970, as the batch's clock reads it; the API gives ISO text (toApi). */
  createdAt: number;
  updatedAt: number;
  /** Fills of the current batch, for the answer and the socket push. */
  fills: OrderFill[];
}

/** A validated order request: everything the engine needs, in its units. */
export interface PlaceInput extends OrderTerms {
  ticks: number;
  lots: number;
  /** Quote units of a market buy by amount. */
  units: number;
}

/** One request in a market's queue, answered once its batch has committed (or failed). */
export type Request =
  | { kind: 'place'; input: PlaceInput; resolve(o: SpotOrder): void; reject(e: unknown): void }
  | {
      kind: 'cancel';
      userId: number;
      orderId: number;
      resolve(o: SpotOrder): void;
      reject(e: unknown): void;
    };

export type PlaceRequest = Extract<Request, { kind: 'place' }>;

/** What a batch answers one request: the order, or the error it was refused with. */
export type Outcome = { ok: SpotOrder } | { err: unknown };

/** A new order as placing makes it, before the engine has seen it. */
export function newOrder(id: number, m: Market, p: PlaceInput, frozen: Dec, now: number): Order {
  return {
    id,
    userId: p.userId,
    market: m,
    side: p.side,
    type: p.type,
    price: p.price,
    qty: p.qty,
    amount: p.amount,
    filledQty: dec('0'),
    filledAmount: dec('0'),
    fee: dec('0'),
    frozen,
    status: 'waiting',
    cancelReason: null,
    seq: 0,
    createdAt: now,
    updatedAt: now,
    fills: [],
  };
}

/** Buyers pay their fee in the base currency (what they receive), sellers in the quote. */
export const feeCurrency = (m: Market, side: OrderSide) => (side === 'buy' ? m.base : m.quote);

export function toApi(o: Order): SpotOrder {
  const avg = o.filledQty.isZero()
    ? null
    : truncateDecimal(o.filledAmount.div(o.filledQty).toFixed(), o.market.priceDecimals);
  return {
    id: String(o.id),
    symbol: o.market.symbol,
    name: `${o.market.base}/${o.market.quote}`,
    side: o.side,
    type: o.type,
    status: o.status,
    price: o.price,
    qty: o.qty,
    amount: o.amount,
    filled_qty: o.filledQty.toFixed(),
    filled_amount: o.filledAmount.toFixed(),
    avg_price: avg,
    fee: o.fee.toFixed(),
    fee_currency: feeCurrency(o.market, o.side),
    cancel_reason: o.cancelReason,
    created_at: new Date(o.createdAt).toISOString(),
    updated_at: new Date(o.updatedAt).toISOString(),
    fills: o.fills,
  };
}

/** Hands a new order to the engine; its events wait in the log. A refusal is returned. */
export function placeOnBook(book: OrderBook, m: Market, order: Order, p: PlaceInput): string | null {
  if (p.type === 'limit') return book.placeLimit(order.id, p.userId, p.side, p.ticks, p.lots);
  if (p.side === 'sell') return book.placeMarket(order.id, p.userId, 'sell', p.lots);
  if (p.lots === 0) return book.placeMarketBuyAmount(order.id, p.userId, p.units);
  // By quantity: what was frozen is what the book cost when the batch began. If orders
  // ahead in this batch made it dearer, spend the frozen amount instead (fewer lots,
  // never more money than frozen).
  const cost = book.sweepCost('buy', p.lots, p.userId);
  const frozenUnits = toCount(order.frozen.toFixed(), amountOf(m, 1).toFixed()) ?? 0;
  if (BigInt(frozenUnits) >= cost.amount) return book.placeMarket(order.id, p.userId, 'buy', p.lots);
  if (frozenUnits > 0) return book.placeMarketBuyAmount(order.id, p.userId, frozenUnits);
  return book.placeMarket(order.id, p.userId, 'buy', p.lots);
}
