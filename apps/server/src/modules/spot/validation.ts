import {
  ORDER_STATUSES,
  type OrderSide,
  type OrderStatus,
  type OrderType,
  type PlaceOrderBody,
} from '@verdant/api';
import { dec, parseDecimal, type SweepCost } from '@verdant/engine';
import { AppError, invalid } from '../../http/errors.ts';
import type { Market } from '../market/service.ts';
import { amountOf, countOf, toCount, unitsOf } from './grid.ts';
import type { Order, Outcome, PlaceInput, Request } from './order.ts';

// The rules of spec §8 as pure functions: they read the request, the market and what the caller
// looked up for them (the index, the book's sweep cost), and throw the user's error or answer.

/** Inputs stop below NUMERIC(36,18)'s 18 integer digits. */
const MAX_INPUT = dec('1000000000000000');
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Side and type of a placement, and whether it names a market: checked before the market is looked up. */
export function parseKind(body: PlaceOrderBody): { side: OrderSide; type: OrderType; symbol: string } {
  const sideIn = (body.side ?? '').trim().toLowerCase();
  if (sideIn !== 'buy' && sideIn !== 'sell') throw invalid('spot.sideInvalid', 'side');
  const typeIn = (body.type ?? '').trim().toLowerCase() || 'limit';
  if (typeIn !== 'limit' && typeIn !== 'market') throw invalid('spot.typeInvalid', 'type');
  if (!body.symbol?.trim()) throw invalid('spot.symbolRequired', 'symbol');
  return { side: sideIn, type: typeIn, symbol: body.symbol };
}

export const unknownMarket = (symbol: string) =>
  new AppError('NOT_FOUND', 'spot.unknownMarket', { symbol: symbol.slice(0, 30) }, 'symbol');

export const haltedError = (m: Market) =>
  new AppError('CONFLICT', 'spot.marketHalted', { market: `${m.base}/${m.quote}` });

/** What validation needs from outside: the latest index (the price band) and the book as it stands. */
export interface PlaceLookups {
  /**
   * The market's latest index price; null when it has none yet (then there is no band). Read
   * only for a limit price on the grid: a failed look-up surfaces there, after the errors before it.
   */
  index(): string | null;
  /** What a market order of `lots` would trade now (the minimum of a market order by quantity). */
  sweepCost(side: OrderSide, lots: number, owner: number): SweepCost;
}

/**
 * The price band: a limit order must be priced within the market's band around its latest
 * index price (both ends on the tick grid, inside the band). Without any index tick yet there
 * is nothing to be around, and no band.
 */
export function checkBand(m: Market, index: string | null, price: string): void {
  if (index === null) return;
  const tick = dec(m.tickSize);
  const band = dec(m.priceBand);
  const lo = dec(index).times(dec('1').minus(band)).div(tick).ceil().times(tick);
  const hi = dec(index).times(dec('1').plus(band)).div(tick).floor().times(tick);
  const p = dec(price);
  if (p.lt(lo) || p.gt(hi))
    throw invalid('spot.priceOutOfBand', 'price', {
      min: lo.toFixed(),
      max: hi.toFixed(),
      band: band.times(100).toFixed(),
    });
}

/** The rules of spec §8 that need no batch: the grid, the minimum, the limits of one order. */
export function checkPlace(
  userId: number,
  kind: { side: OrderSide; type: OrderType },
  body: PlaceOrderBody,
  m: Market,
  look: PlaceLookups,
): PlaceInput {
  const { side, type } = kind;
  const qtyRequired = side === 'buy' ? 'spot.qtyRequiredBuy' : 'spot.qtyRequiredSell';
  const number = (
    v: string | undefined,
    field: string,
    requiredKey: string,
    max?: { limit: string; key: string; currency: string },
  ): string | null => {
    const s = (v ?? '').trim();
    if (s === '') return null;
    const d = parseDecimal(s, { positive: true });
    if (d === null)
      throw invalid(requiredKey === qtyRequired ? 'spot.qtyInvalid' : `spot.${field}Invalid`, field);
    // The market's maximum, named, before anything else is said about a huge number.
    if (max && dec(d).gt(max.limit))
      throw invalid(max.key, field, { max: max.limit, currency: max.currency });
    if (dec(d).gte(MAX_INPUT)) throw invalid('spot.tooLarge', field);
    return d;
  };
  const price = type === 'limit' ? number(body.price, 'price', 'spot.priceRequired') : null;
  const qty = number(body.qty, 'qty', qtyRequired, {
    limit: m.maxQty,
    key: 'spot.qtyTooLarge',
    currency: m.base,
  });
  const amount =
    type === 'market' && side === 'buy'
      ? number(body.amount, 'amount', 'spot.amountInvalid', {
          limit: m.maxAmount,
          key: 'spot.amountTooLarge',
          currency: m.quote,
        })
      : null;
  if (qty !== null && amount !== null) throw invalid('spot.qtyOrAmount', 'qty');
  if (qty === null && amount === null) throw invalid(qtyRequired, 'qty');
  if (type === 'limit' && price === null) throw invalid('spot.priceRequired', 'price');
  const quoteStep = amountOf(m, 1).toFixed();
  let ticks = 0;
  let lots = 0;
  let units = 0;
  const valueTooLarge = () => invalid('spot.valueTooLarge', 'qty', { max: m.maxAmount, currency: m.quote });
  if (price !== null) {
    const t = countOf(price, m.tickSize);
    if (t === null) throw invalid('spot.priceOffGrid', 'price', { step: m.tickSize });
    checkBand(m, look.index(), price);
    // More ticks than the engine counts: no quantity keeps such an order under the maximum value.
    if (t > MAX_SAFE) throw valueTooLarge();
    ticks = Number(t);
  }
  if (qty !== null) {
    const l = toCount(qty, m.lotSize);
    if (l === null) throw invalid('spot.qtyOffGrid', 'qty', { step: m.lotSize });
    lots = l;
  }
  if (amount !== null) {
    const u = toCount(amount, quoteStep);
    if (u === null) throw invalid('spot.amountOffGrid', 'amount', { step: quoteStep });
    units = u;
  }
  if (type === 'limit' && dec(price!).times(qty!).gt(m.maxAmount)) throw valueTooLarge();
  if (type === 'limit' && unitsOf(ticks, lots) > MAX_SAFE) throw invalid('spot.tooLarge', 'qty');
  // The smallest order: a limit order's value, a market buy's amount. A market order by
  // quantity is checked against what it would trade now (and again in the batch).
  const minimum = dec(m.minAmount);
  const value = type === 'limit' ? amountOf(m, unitsOf(ticks, lots)) : amount !== null ? dec(amount) : null;
  const belowMinimum = (field: string) =>
    new AppError('AMOUNT_BELOW_MINIMUM', 'spot.belowMinimum', { min: m.minAmount, currency: m.quote }, field);
  if (value?.lt(minimum)) throw belowMinimum(type === 'limit' ? 'qty' : 'amount');
  if (value === null) {
    // Priced at the best opposite price of the book as it stands.
    const cost = look.sweepCost(side, lots, userId);
    if (cost.qty > 0 && amountOf(m, cost.amount).lt(minimum)) throw belowMinimum('qty');
  }
  return { userId, market: m, side, type, price, qty, amount, ticks, lots, units };
}

/** An order id as the cancel form carries it. */
export function parseOrderId(input: string | undefined): number {
  const s = (input ?? '').trim();
  if (!/^\d{1,15}$/.test(s)) throw invalid('spot.orderIdInvalid', 'id');
  return Number(s);
}

/** `status` of the order list: several comma-separated, none meaning all. */
export function parseStatuses(input: string | undefined): OrderStatus[] {
  const statuses = (input ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const s of statuses)
    if (!(ORDER_STATUSES as readonly string[]).includes(s)) throw invalid('spot.statusInvalid', 'status');
  return statuses.length ? (statuses as OrderStatus[]) : [...ORDER_STATUSES];
}

/**
 * The open-order limit, checked in the batch because the market's desk is its only writer: in
 * arrival order, each limit order counts its owner's resting orders, less those cancelled
 * ahead of it in the batch, plus the limit orders accepted ahead of it (counted as resting
 * even if they will trade at once: the check is before matching, and never lets a user past
 * the limit). Refused orders are set in `outcome` and freeze nothing.
 */
export function refuseOverLimit(
  batch: readonly Request[],
  open: ReadonlyMap<number, Order>,
  openBy: ReadonlyMap<number, number>,
  outcome: Map<Request, Outcome>,
): void {
  const delta = new Map<number, number>();
  const cancelled = new Set<number>();
  for (const r of batch) {
    if (r.kind === 'cancel') {
      const o = open.get(r.orderId);
      if (o && o.userId === r.userId && !cancelled.has(o.id)) {
        cancelled.add(o.id);
        delta.set(r.userId, (delta.get(r.userId) ?? 0) - 1);
      }
      continue;
    }
    const p = r.input;
    if (p.type !== 'limit') continue;
    const n = (openBy.get(p.userId) ?? 0) + (delta.get(p.userId) ?? 0);
    if (n >= p.market.maxOpenOrders) {
      outcome.set(r, {
        err: new AppError('CONFLICT', 'spot.tooManyOpenOrders', {
          max: p.market.maxOpenOrders,
          market: `${p.market.base}/${p.market.quote}`,
        }),
      });
      continue;
    }
    delta.set(p.userId, (delta.get(p.userId) ?? 0) + 1);
  }
}
