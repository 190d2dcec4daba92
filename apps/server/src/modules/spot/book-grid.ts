import type { Depth, OrderSide } from '@verdant/api';
import { dec, type EventLog, OrderBook, type SweepCost } from '@verdant/engine';
import { invalid } from '../../http/errors.ts';
import type { Market } from '../market/service.ts';
import { amountOf, commonStep, priceOf, qtyOf, toCount } from './grid.ts';
import type { Order, PlaceInput } from './order.ts';

// The grid a market's book counts in (docs/decisions.md, "Configuration as data"): the
// configured tick and lot, or a finer step when orders resting from before an operator's change
// need it. Orders keep their price and quantity; requests are converted to the book's units.

/** What is left of a resting order to trade. */
const remainingOf = (o: Order) => dec(o.qty!).minus(o.filledQty).toFixed();

/** The configured market on the largest step that holds both it and every resting order. */
export function gridFor(m: Market, orders: readonly Order[]): Market {
  const tickSize = commonStep([m.tickSize, ...orders.map((o) => o.price!)]);
  const lotSize = commonStep([m.lotSize, ...orders.map(remainingOf)]);
  return tickSize === m.tickSize && lotSize === m.lotSize ? m : { ...m, tickSize, lotSize };
}

/**
 * A book of `orders` (in time priority) on `grid`, its events in `log`; throws when an order
 * does not fit (the caller keeps the book it had).
 */
export function bookOf(
  log: EventLog,
  orders: readonly Order[],
  grid: Market,
): { book: OrderBook; maxSeq: number } {
  log.take();
  const book = new OrderBook(log);
  let maxSeq = 0;
  for (const o of orders) {
    const ticks = toCount(o.price!, grid.tickSize);
    const remaining = toCount(remainingOf(o), grid.lotSize);
    const err =
      ticks === null || remaining === null
        ? 'off the grid'
        : book.restore({ id: o.id, owner: o.userId, side: o.side, price: ticks, remaining, seq: o.seq });
    if (err) throw new Error(`spot: cannot restore order ${o.id} of ${grid.symbol}: ${err}`);
    maxSeq = Math.max(maxSeq, o.seq);
  }
  book.advanceSeq(maxSeq);
  log.take();
  return { book, maxSeq };
}

/**
 * A request in the units of the book's grid `g` (it was checked against the configured grid,
 * this one or a multiple of it); an off-grid error when it is not on it (it was checked against
 * values the book has not taken yet): the order is refused, nothing else changes.
 */
export function onGrid(p: PlaceInput, g: Market): PlaceInput | Error {
  const ticks = p.price === null ? 0 : toCount(p.price, g.tickSize);
  const lots = p.qty === null ? 0 : toCount(p.qty, g.lotSize);
  const units = p.amount === null ? 0 : toCount(p.amount, amountOf(g, 1).toFixed());
  if (ticks === null) return invalid('spot.priceOffGrid', 'price', { step: g.tickSize });
  if (lots === null) return invalid('spot.qtyOffGrid', 'qty', { step: g.lotSize });
  if (units === null) return invalid('spot.amountOffGrid', 'amount', { step: amountOf(g, 1).toFixed() });
  return { ...p, market: g, ticks, lots, units };
}

/** What a market order of `lots` of the configured market `m` would trade now, in m's quote units. */
export function sweepCostOn(
  book: OrderBook,
  g: Market,
  m: Market,
  side: OrderSide,
  lots: number,
  owner: number,
): SweepCost {
  const mine = toCount(qtyOf(m, lots).toFixed(), g.lotSize);
  if (mine === null) return { qty: 0, amount: 0n };
  const cost = book.sweepCost(side, mine, owner);
  const value = amountOf(g, cost.amount).div(amountOf(m, 1)).ceil();
  return { qty: cost.qty, amount: BigInt(value.toFixed()) };
}

/**
 * The book on the grid of a newly configured market `m`, rebuilt in memory from the resting
 * orders (time priority kept); `book` null when there is none to rebuild (`bookless`: halted or
 * owned by another process, or nothing rests). An Error when an order does not fit.
 */
export function regrid(
  m: Market,
  resting: Order[],
  log: EventLog,
  current: OrderBook,
  bookless: boolean,
): { market: Market; book: OrderBook | null } | Error {
  const orders = resting.sort((a, b) => a.seq - b.seq);
  const grid = gridFor(m, orders);
  if (bookless || orders.length === 0) return { market: grid, book: null };
  try {
    const { book } = bookOf(log, orders, grid);
    book.advanceSeq(current.lastSeq);
    for (const o of orders) o.market = grid;
    return { market: grid, book };
  } catch (e) {
    return e as Error;
  }
}

/** A book's levels as decimal prices and quantities of its grid. */
export function depthOf(book: OrderBook, g: Market, levels: number): Depth {
  const d = book.depth(levels);
  const conv = (l: { price: number; qty: number }) => ({
    price: priceOf(g, l.price).toFixed(),
    qty: qtyOf(g, l.qty).toFixed(),
  });
  return { bids: d.bids.map(conv), asks: d.asks.map(conv) };
}
