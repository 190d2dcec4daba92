/**
 * Types of the matching engine. Units are per market and chosen by the caller:
 *  - a price is a whole number of ticks (tick = the market's price step),
 *  - a quantity is a whole number of lots (lot = the market's quantity step),
 *  - a quote amount is a whole number of quote units, one quote unit = 1 tick × 1 lot,
 *    so the amount of a fill is exactly `price * qty` quote units.
 * Every one of them is a JavaScript safe integer (see docs/decisions.md, "Matching engine").
 */

/** The caller's order id (the database id, as a string or a safe integer). Unique among live orders. */
export type OrderId = string | number;
/** Who owns an order: orders of the same owner never trade with each other (self-trade prevention). */
export type OwnerId = string | number;

export type Side = 'buy' | 'sell';

/**
 * Why an order left the engine.
 *  - `filled`: nothing left to trade (a market buy by amount: what is left buys less than one lot).
 *  - `cancelled`: cancelled by its owner.
 *  - `self_trade`: a resting order cancelled because an order of the same owner would have traded with it.
 *  - `unfilled`: the remainder of a market order, cancelled because the book had nothing more it could take.
 */
export type DoneReason = 'filled' | 'cancelled' | 'self_trade' | 'unfilled';

/** Why a command was refused. A refused command changes nothing and emits no event. */
export type Reject =
  | 'invalid_command'
  | 'invalid_id'
  | 'invalid_owner'
  | 'invalid_side'
  | 'invalid_price'
  | 'invalid_qty'
  | 'invalid_amount'
  | 'invalid_seq'
  | 'duplicate_id'
  | 'too_large'
  | 'would_cross'
  | 'unknown_order';

/**
 * Receives the engine's events synchronously, in order, while a command runs. Arguments are
 * primitives, so the engine allocates nothing per fill; a sink that needs objects builds them
 * (see `EventLog`). A sink must not call back into the same book.
 *
 * "remaining" is in the order's own unit: lots, or quote units for a market buy by amount.
 */
export interface EngineSink {
  /** A valid order entered the book's sequence: `seq` is its time priority, persist it. */
  accepted(id: OrderId, seq: number): void;
  /** A trade between a resting maker and the incoming taker, at the maker's price. */
  fill(
    makerId: OrderId,
    takerId: OrderId,
    price: number,
    qty: number,
    makerRemaining: number,
    takerRemaining: number,
  ): void;
  /** The remainder of a limit order now rests on the book. */
  rested(id: OrderId, price: number, remaining: number): void;
  /** The order left the engine (the taker's own `done` comes after all its fills). */
  done(id: OrderId, reason: DoneReason, remaining: number): void;
}

/** A command, for queues, journals and replay (`OrderBook.apply`). */
export type Command =
  | { type: 'limit'; id: OrderId; owner: OwnerId; side: Side; price: number; qty: number }
  | { type: 'market'; id: OrderId; owner: OwnerId; side: Side; qty: number }
  | { type: 'market_amount'; id: OrderId; owner: OwnerId; amount: number }
  | { type: 'cancel'; id: OrderId };

/** A resting order as the book holds it: what the server stores, and what `restore` takes back. */
export interface RestingOrder {
  id: OrderId;
  owner: OwnerId;
  side: Side;
  price: number;
  /** Lots still open. */
  remaining: number;
  /** Time priority: smaller is earlier. */
  seq: number;
}

export interface DepthLevel {
  price: number;
  /** Sum of the remaining lots at this price. */
  qty: number;
  /** Number of orders at this price. */
  orders: number;
}

/** Best first on each side. */
export interface Depth {
  bids: DepthLevel[];
  asks: DepthLevel[];
}

/** What a market order of `qty` lots would trade right now: lots it would get and their quote amount. */
export interface SweepCost {
  qty: number;
  amount: bigint;
}
