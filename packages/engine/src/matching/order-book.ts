import { BookSide, type Level, OrderNode } from './book-side.ts';
import type {
  Command,
  Depth,
  DepthLevel,
  EngineSink,
  OrderId,
  OwnerId,
  Reject,
  RestingOrder,
  Side,
  SweepCost,
} from './types.ts';

const MAX = Number.MAX_SAFE_INTEGER;
const NODE_POOL_LIMIT = 1 << 16;

const NO_SINK: EngineSink = {
  accepted() {},
  fill() {},
  rested() {},
  done() {},
};

const isId = (v: unknown): v is OrderId =>
  typeof v === 'string' ? v.length > 0 : typeof v === 'number' && Number.isSafeInteger(v);
/** A whole number of ticks, lots or quote units: 1 ≤ v ≤ 2^53 − 1. */
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;

/**
 * The order book of one market and its matching: price-time priority, limit and market orders,
 * cancels, self-trade prevention. Pure and single-threaded: every command runs to completion and
 * reports what happened to the sink, synchronously, before it returns. Same commands from the
 * same state give the same events.
 *
 * Each command returns `null` when accepted, or the reason it was refused (and then nothing changed).
 */
export class OrderBook {
  private readonly bids = new BookSide(true);
  private readonly asks = new BookSide(false);
  private readonly byId = new Map<OrderId, OrderNode>();
  private readonly nodePool: OrderNode[] = [];
  private seq = 0;
  private sink: EngineSink;

  constructor(sink: EngineSink = NO_SINK) {
    this.sink = sink;
  }

  /** Routes the following events to another sink. */
  setSink(sink: EngineSink): void {
    this.sink = sink;
  }

  /** The sequence number given to the latest accepted (or restored) order. */
  get lastSeq(): number {
    return this.seq;
  }

  /** Number of resting orders. */
  get size(): number {
    return this.byId.size;
  }

  // ---------------------------------------------------------------------------------------------
  // Commands

  /** Runs one command: for queues, journals and replay. */
  apply(cmd: Command): Reject | null {
    switch (cmd.type) {
      case 'limit':
        return this.placeLimit(cmd.id, cmd.owner, cmd.side, cmd.price, cmd.qty);
      case 'market':
        return this.placeMarket(cmd.id, cmd.owner, cmd.side, cmd.qty);
      case 'market_amount':
        return this.placeMarketBuyAmount(cmd.id, cmd.owner, cmd.amount);
      case 'cancel':
        return this.cancel(cmd.id);
      default:
        return 'invalid_command';
    }
  }

  /**
   * A limit order: trades with resting orders at `price` or better (each fill at the maker's
   * price), and the remainder rests at `price` behind the orders already there.
   */
  placeLimit(id: OrderId, owner: OwnerId, side: Side, price: number, qty: number): Reject | null {
    const bad = this.check(id, owner, side, qty);
    if (bad !== null) return bad;
    if (!isCount(price)) return 'invalid_price';
    const bid = side === 'buy';
    const own = bid ? this.bids : this.asks;
    // Whatever rests must keep this side's total a safe integer.
    if (own.total + qty > MAX) return 'too_large';
    const seq = this.seq + 1;
    const sink = this.sink;
    sink.accepted(id, seq);
    const remaining = this.planQty(id, owner, bid, price, qty);
    if (remaining === 0) sink.done(id, 'filled', 0);
    else sink.rested(id, price, remaining);
    // Every event is out; only now does the book change (a sink that threw left it as it was).
    this.seq = seq;
    this.consume(bid ? this.asks : this.bids);
    if (remaining > 0) {
      const node = this.node(id, owner, bid, price, remaining, seq);
      own.levelAt(price).push(node);
      own.total += remaining;
      this.byId.set(id, node);
    }
    return null;
  }

  /** A market order of `qty` lots: takes the best prices until filled; the rest is cancelled. */
  placeMarket(id: OrderId, owner: OwnerId, side: Side, qty: number): Reject | null {
    const bad = this.check(id, owner, side, qty);
    if (bad !== null) return bad;
    const bid = side === 'buy';
    const sink = this.sink;
    const seq = this.seq + 1;
    sink.accepted(id, seq);
    const remaining = this.planQty(id, owner, bid, bid ? Infinity : -Infinity, qty);
    sink.done(id, remaining === 0 ? 'filled' : 'unfilled', remaining);
    this.seq = seq;
    this.consume(bid ? this.asks : this.bids);
    return null;
  }

  /**
   * A market buy that spends at most `amount` quote units (ticks × lots): at each price it buys as
   * many whole lots as the amount left pays for. It ends `filled` when what is left buys less than
   * one lot at the best ask (that dust is returned with the `done` event), `unfilled` when it traded
   * nothing or the asks ran out first. Fill and done events report the remaining amount.
   */
  placeMarketBuyAmount(id: OrderId, owner: OwnerId, amount: number): Reject | null {
    const bad = this.check(id, owner, 'buy', 1);
    if (bad !== null) return bad;
    if (!isCount(amount)) return 'invalid_amount';
    const seq = this.seq + 1;
    this.sink.accepted(id, seq);
    this.planAmount(id, owner, amount);
    this.seq = seq;
    this.consume(this.asks);
    return null;
  }

  /** A resting order's node, from the pool when one is free (no allocation in steady state). */
  private node(
    id: OrderId,
    owner: OwnerId,
    bid: boolean,
    price: number,
    remaining: number,
    seq: number,
  ): OrderNode {
    const node = this.nodePool.pop() ?? new OrderNode();
    node.id = id;
    node.owner = owner;
    node.bid = bid;
    node.price = price;
    node.remaining = remaining;
    node.seq = seq;
    return node;
  }

  /** Cancels a resting order; an id that is not resting is `unknown_order`. */
  cancel(id: OrderId): Reject | null {
    const node = this.byId.get(id);
    if (node === undefined) return 'unknown_order';
    this.sink.done(id, 'cancelled', node.remaining);
    this.removeResting(node);
    return null;
  }

  /**
   * Puts a resting order back without matching, at its original sequence (rebuilding a book from
   * the database after a restart). Orders may come in any order: each takes its place by `seq` in
   * its level. Emits no event. Refused if it would cross the other side (the stored state is wrong).
   */
  restore(order: RestingOrder): Reject | null {
    const { id, owner, side, price, remaining, seq } = order;
    const bad = this.check(id, owner, side, remaining);
    if (bad !== null) return bad;
    if (!isCount(price)) return 'invalid_price';
    if (!isCount(seq)) return 'invalid_seq';
    const bid = side === 'buy';
    const own = bid ? this.bids : this.asks;
    if (own.total + remaining > MAX) return 'too_large';
    const other = (bid ? this.asks : this.bids).best;
    if (other !== null && (bid ? price >= other.price : price <= other.price)) return 'would_cross';
    const node = this.node(id, owner, bid, price, remaining, seq);
    own.levelAt(price).insertBySeq(node);
    own.total += remaining;
    this.byId.set(id, node);
    if (seq > this.seq) this.seq = seq;
    return null;
  }

  /** Makes the next accepted order's sequence follow `seq` (e.g. the largest ever persisted). */
  advanceSeq(seq: number): void {
    if (Number.isSafeInteger(seq) && seq > this.seq) this.seq = seq;
  }

  // ---------------------------------------------------------------------------------------------
  // Queries (they allocate; none is on the matching path)

  has(id: OrderId): boolean {
    return this.byId.has(id);
  }

  getOrder(id: OrderId): RestingOrder | undefined {
    const node = this.byId.get(id);
    return node === undefined ? undefined : toResting(node);
  }

  bestBid(): number | undefined {
    return this.bids.best?.price;
  }

  bestAsk(): number | undefined {
    return this.asks.best?.price;
  }

  /** The top `levels` prices of each side, aggregated, best first. */
  depth(levels = 20): Depth {
    return { bids: topLevels(this.bids, levels), asks: topLevels(this.asks, levels) };
  }

  /** Every resting order: bids best price first, then asks best price first; each price oldest first. */
  orders(): RestingOrder[] {
    const out: RestingOrder[] = [];
    for (const side of [this.bids, this.asks]) {
      for (let level = side.best; level !== null; level = level.worse) {
        for (let n = level.head; n !== null; n = n.next) out.push(toResting(n));
      }
    }
    return out;
  }

  /** Lots resting on one side. */
  sideTotal(side: Side): number {
    return side === 'buy' ? this.bids.total : this.asks.total;
  }

  /**
   * What a market order of `qty` lots by `owner` would trade if placed now (the owner's own resting
   * orders are skipped: they would be cancelled, not traded). The server uses it to freeze the
   * exact quote amount of a market buy by quantity before placing it.
   */
  sweepCost(side: Side, qty: number, owner: OwnerId): SweepCost {
    const opp = side === 'buy' ? this.asks : this.bids;
    let left = qty;
    let amount = 0n;
    for (let level = opp.best; level !== null && left > 0; level = level.worse) {
      let atLevel = 0;
      for (let n = level.head; n !== null && left > 0; n = n.next) {
        if (n.owner === owner) continue;
        const q = Math.min(n.remaining, left);
        atLevel += q;
        left -= q;
      }
      amount += BigInt(atLevel) * BigInt(level.price);
    }
    return { qty: qty - left, amount };
  }

  /**
   * Owners of resting orders that a run of incoming `takerSide` orders could trade with, best
   * first: orders that together take at most `lots` lots and spend at most `units` quote units
   * (market buys by amount), at prices no worse than `limit` (null: market orders, any price).
   * Orders of `placers` (who may cancel their own by self-trade prevention instead of trading,
   * and whom the caller knows already) are passed over, and orders in `gone` (cancelled in the
   * same run) are named without counting their size, so the answer is a superset of the makers. The server locks these owners'
   * accounts before matching a batch, in one statement with everyone else's.
   */
  reach(
    takerSide: Side,
    limit: number | null,
    lots: number,
    units: bigint,
    placers: ReadonlySet<OwnerId>,
    gone: ReadonlySet<OrderId>,
  ): OwnerId[] {
    const opp = takerSide === 'buy' ? this.asks : this.bids;
    const owners = new Set<OwnerId>();
    let taken = 0;
    let cost = 0n;
    // Amount orders spend at most `units`: at the best prices that buys the fewest lots' worth of
    // book (the prefix costing `units`), and the quantity orders take `lots` more after it.
    let target = units > 0n ? -1 : lots;
    for (let level = opp.best; level !== null; level = level.worse) {
      if (limit !== null && (takerSide === 'buy' ? level.price > limit : level.price < limit)) break;
      for (let n = level.head; n !== null; n = n.next) {
        if (target >= 0 && taken >= target) return [...owners];
        if (placers.has(n.owner)) continue;
        owners.add(n.owner);
        if (gone.has(n.id)) continue; // it may trade before its cancel, or be gone before the rest
        taken += n.remaining;
        cost += BigInt(n.remaining) * BigInt(level.price);
        if (target < 0 && cost >= units) target = taken + lots;
      }
    }
    return [...owners];
  }

  // ---------------------------------------------------------------------------------------------
  // Matching

  private check(id: OrderId, owner: OwnerId, side: Side, qty: number): Reject | null {
    if (!isId(id)) return 'invalid_id';
    if (!isId(owner)) return 'invalid_owner';
    if (side !== 'buy' && side !== 'sell') return 'invalid_side';
    if (!isCount(qty)) return 'invalid_qty';
    if (this.byId.has(id)) return 'duplicate_id';
    return null;
  }

  /*
   * Matching runs in two passes so that a sink that throws leaves the book as it was. The plan
   * walks the other side from its best order without changing anything and sends every event;
   * only when the command's last event is out does `consume` apply what the plan walked. The walk
   * is strictly in priority order and every order it passes leaves the book (filled, or cancelled
   * by self-trade prevention) except perhaps the last one, so the plan need only count the orders
   * it walked and say what the last one keeps.
   */

  /** Orders the last plan walked. */
  private walked = 0;
  /** Lots the last walked order keeps (0: it leaves the book). */
  private lastKeeps = 0;

  /**
   * Plans taking up to `qty` lots from the other side at prices no worse than `limit` and sends
   * the makers' events; returns what the taker has left. No allocation: fills go to the sink as
   * arguments.
   */
  private planQty(takerId: OrderId, owner: OwnerId, bid: boolean, limit: number, qty: number): number {
    const sink = this.sink;
    let remaining = qty;
    let walked = 0;
    let keeps = 0;
    for (
      let level = (bid ? this.asks : this.bids).best;
      level !== null && remaining > 0;
      level = level.worse
    ) {
      const price = level.price;
      if (bid ? price > limit : price < limit) break;
      for (let node = level.head; node !== null && remaining > 0; node = node.next) {
        walked++;
        const have = node.remaining;
        if (node.owner === owner) {
          keeps = 0;
          sink.done(node.id, 'self_trade', have);
        } else {
          const q = Math.min(have, remaining);
          remaining -= q;
          keeps = have - q;
          sink.fill(node.id, takerId, price, q, keeps, remaining);
          if (keeps === 0) sink.done(node.id, 'filled', 0);
        }
      }
    }
    this.walked = walked;
    this.lastKeeps = keeps;
    return remaining;
  }

  /** Plans a market buy by amount against the asks and sends all its events, the taker's `done` last. */
  private planAmount(takerId: OrderId, owner: OwnerId, amount: number): void {
    const sink = this.sink;
    let left = amount;
    let traded = false;
    let bounded = false;
    let walked = 0;
    let keeps = 0;
    for (let level = this.asks.best; level !== null; level = level.worse) {
      const price = level.price;
      // Whole lots the amount left pays for at this price (exact: `%` on integers is exact).
      let lots = (left - (left % price)) / price;
      if (lots === 0) {
        bounded = true;
        break;
      }
      for (let node = level.head; node !== null && lots > 0; node = node.next) {
        walked++;
        const have = node.remaining;
        if (node.owner === owner) {
          keeps = 0;
          sink.done(node.id, 'self_trade', have);
        } else {
          const q = Math.min(have, lots);
          lots -= q;
          left -= q * price;
          keeps = have - q;
          traded = true;
          sink.fill(node.id, takerId, price, q, keeps, left);
          if (keeps === 0) sink.done(node.id, 'filled', 0);
        }
      }
      if (lots === 0) {
        bounded = true;
        break;
      }
    }
    this.walked = walked;
    this.lastKeeps = keeps;
    sink.done(takerId, traded && bounded ? 'filled' : 'unfilled', left);
  }

  /** Applies the last plan to `side`: its walked orders leave, the last one perhaps keeping some lots. */
  private consume(side: BookSide): void {
    let walked = this.walked;
    this.walked = 0;
    while (walked > 0) {
      const level = side.best!;
      const node = level.head!;
      if (--walked === 0 && this.lastKeeps > 0) {
        const q = node.remaining - this.lastKeeps;
        node.remaining = this.lastKeeps;
        level.total -= q;
        side.total -= q;
        return;
      }
      level.total -= node.remaining;
      side.total -= node.remaining;
      this.unlinkAndFree(node, level);
      if (level.count === 0) side.removeLevel(level);
    }
  }

  /** Removes a resting order with what it still had, and its level if that empties it. */
  private removeResting(node: OrderNode): void {
    const level = node.level!;
    const side = node.bid ? this.bids : this.asks;
    level.total -= node.remaining;
    side.total -= node.remaining;
    this.unlinkAndFree(node, level);
    if (level.count === 0) side.removeLevel(level);
  }

  private unlinkAndFree(node: OrderNode, level: Level): void {
    level.unlink(node);
    this.byId.delete(node.id);
    if (this.nodePool.length < NODE_POOL_LIMIT) this.nodePool.push(node);
  }
}

function toResting(n: OrderNode): RestingOrder {
  return {
    id: n.id,
    owner: n.owner,
    side: n.bid ? 'buy' : 'sell',
    price: n.price,
    remaining: n.remaining,
    seq: n.seq,
  };
}

function topLevels(side: BookSide, count: number): DepthLevel[] {
  const out: DepthLevel[] = [];
  for (let l = side.best; l !== null && out.length < count; l = l.worse) {
    out.push({ price: l.price, qty: l.total, orders: l.count });
  }
  return out;
}
