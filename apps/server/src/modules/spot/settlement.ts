import type { OrderFill } from '@verdant/api';
import { type Dec, dec, type EngineEvent, type OrderBook, truncateDecimal } from '@verdant/engine';
import type { AccountRef, Posting } from '../../ledger/ledger.ts';
import type { Market, TradeInput } from '../market/service.ts';
import type { FeeCharge } from '../referral/index.ts';
import { amountOf, priceOf, qtyOf, unitsOf } from './grid.ts';
import { feeCurrency, type Order, type PlaceInput, type Request } from './order.ts';

// What the engine's events mean for money, as plain data: postings for the ledger, trades for
// the market, the orders' new state. No database here: the desk hands the result to the I/O.

export const spotAccount = (userId: number, currencyId: number): AccountRef => ({
  userId,
  type: 'spot',
  currencyId,
});
export const feeAccount = (currencyId: number): AccountRef => ({ house: 'fees', currencyId });

/** The currency an order freezes: quote for buys, base for sells. */
const frozenCurrency = (o: { market: Market; side: 'buy' | 'sell' }) =>
  o.side === 'buy' ? o.market.quoteCurrencyId : o.market.baseCurrencyId;

/** What a new order freezes: quote for buys (limit price × qty, the amount, or the sweep), base for sells. */
export function freezeFor(m: Market, p: PlaceInput, book: OrderBook): Dec {
  if (p.side === 'sell') return qtyOf(m, p.lots);
  if (p.type === 'limit') return amountOf(m, unitsOf(p.ticks, p.lots));
  if (p.lots === 0) return amountOf(m, p.units);
  return amountOf(m, book.sweepCost('buy', p.lots, p.userId).amount);
}

/** The freeze of a new order, or null when it freezes nothing. */
export function freezePosting(o: Order): Posting | null {
  if (o.frozen.isZero()) return null;
  const f = o.frozen.toFixed();
  return {
    reason: 'spot_freeze',
    refType: 'spot_order',
    refId: o.id,
    legs: [{ account: spotAccount(o.userId, frozenCurrency(o)), available: `-${f}`, frozen: f }],
  };
}

/** Gives back what an order still froze (the caller zeroes `frozen` if the order lives on). */
export function releasePosting(o: Order): Posting | null {
  if (o.frozen.isZero()) return null;
  const f = o.frozen.toFixed();
  return {
    reason: 'spot_release',
    refType: 'spot_order',
    refId: o.id,
    legs: [{ account: spotAccount(o.userId, frozenCurrency(o)), available: f, frozen: `-${f}` }],
  };
}

/** Everything one batch's commands did, gathered for the writes. */
export interface Settlement {
  /** Every order the batch changed (new ones included), by id. */
  changed: Map<number, Order>;
  postings: Posting[];
  trades: TradeInput[];
  /** Per trade, the two orders' fill entries: they take the trade's id once it has one. */
  tradeFills: OrderFill[][];
}

export const emptySettlement = (): Settlement => ({
  changed: new Map(),
  postings: [],
  trades: [],
  tradeFills: [],
});

/** What `settle` needs besides the events: the market's resting orders and its currencies' decimals. */
export interface SettleContext {
  market: Market;
  /** Fees truncate to the currency's decimals. */
  baseDecimals: number;
  quoteDecimals: number;
  now: number;
  /** A resting order of this market (every maker is one). */
  resting(id: number): Order;
  /** The taker now rests on the book. */
  rest(o: Order): void;
  /** The order left the book. */
  unrest(o: Order): void;
}

/**
 * Applies the engine's events of one command (its taker placed or cancelled) to the orders and
 * adds the postings, trades and fills to `out`. Each fill moves the buyer's frozen quote to the
 * seller and the seller's frozen base to the buyer, less the fees, which go to the house fee
 * accounts (buyers pay in base, sellers in quote, truncated: never more than the rate); an order
 * that finishes gives back what it still froze.
 */
export function settle(
  events: readonly EngineEvent[],
  taker: Order,
  ctx: SettleContext,
  out: Settlement,
): void {
  const m = ctx.market;
  const now = ctx.now;
  for (const e of events) {
    switch (e.type) {
      case 'accepted':
        taker.seq = e.seq;
        break;
      case 'fill': {
        const maker = ctx.resting(Number(e.makerId));
        out.changed.set(maker.id, maker);
        const qty = qtyOf(m, e.qty);
        const value = amountOf(m, unitsOf(e.price, e.qty));
        const buyer = maker.side === 'buy' ? maker : taker;
        const seller = maker.side === 'buy' ? taker : maker;
        const rate = (o: Order) => dec(o === maker ? m.makerFee : m.takerFee);
        const buyerFee = dec(truncateDecimal(qty.times(rate(buyer)).toFixed(), ctx.baseDecimals));
        const sellerFee = dec(truncateDecimal(value.times(rate(seller)).toFixed(), ctx.quoteDecimals));
        const q = qty.toFixed();
        const v = value.toFixed();
        out.postings.push({
          reason: 'spot_fill',
          refType: 'spot_order',
          refId: taker.id,
          legs: [
            { account: spotAccount(buyer.userId, m.quoteCurrencyId), frozen: `-${v}` },
            {
              account: spotAccount(seller.userId, m.quoteCurrencyId),
              available: value.minus(sellerFee).toFixed(),
            },
            { account: feeAccount(m.quoteCurrencyId), available: sellerFee.toFixed() },
            { account: spotAccount(seller.userId, m.baseCurrencyId), frozen: `-${q}` },
            {
              account: spotAccount(buyer.userId, m.baseCurrencyId),
              available: qty.minus(buyerFee).toFixed(),
            },
            { account: feeAccount(m.baseCurrencyId), available: buyerFee.toFixed() },
          ],
        });
        buyer.frozen = buyer.frozen.minus(value);
        seller.frozen = seller.frozen.minus(qty);
        const fillEntries: OrderFill[] = [];
        for (const [o, fee] of [
          [buyer, buyerFee],
          [seller, sellerFee],
        ] as const) {
          o.filledQty = o.filledQty.plus(qty);
          o.filledAmount = o.filledAmount.plus(value);
          o.fee = o.fee.plus(fee);
          o.updatedAt = now;
          const fill: OrderFill = {
            id: '',
            price: priceOf(m, e.price).toFixed(),
            qty: q,
            amount: v,
            fee: fee.toFixed(),
            fee_currency: feeCurrency(m, o.side),
            role: o === maker ? 'maker' : 'taker',
            time: new Date(now).toISOString(),
          };
          o.fills.push(fill);
          fillEntries.push(fill);
        }
        out.trades.push({
          marketId: m.id,
          price: priceOf(m, e.price).toFixed(),
          qty: q,
          takerSide: taker.side,
          makerOrderId: maker.id,
          takerOrderId: taker.id,
          at: now,
          makerUserId: maker.userId,
          takerUserId: taker.userId,
          makerFee: (maker === buyer ? buyerFee : sellerFee).toFixed(),
          takerFee: (taker === buyer ? buyerFee : sellerFee).toFixed(),
        });
        out.tradeFills.push(fillEntries);
        break;
      }
      case 'rested':
        ctx.rest(taker);
        break;
      case 'done': {
        const o = e.id === taker.id ? taker : ctx.resting(Number(e.id));
        out.changed.set(o.id, o);
        ctx.unrest(o);
        if (e.reason === 'filled') o.status = 'completed';
        else if (e.reason === 'unfilled' && !o.filledQty.isZero()) o.status = 'completed';
        else {
          o.status = 'cancelled';
          o.cancelReason = e.reason === 'cancelled' ? 'user' : e.reason;
        }
        o.updatedAt = now;
        // What a finished order froze beyond what it used goes back.
        const release = releasePosting(o);
        if (release) {
          out.postings.push(release);
          o.frozen = dec('0');
        }
        break;
      }
    }
  }
}

/**
 * The spot accounts (both currencies) of everyone a batch may move money for, and the fee
 * accounts: whoever places or cancels, and the owners of the resting orders its orders could
 * trade with (engine.reach, from the book as the batch begins: a superset).
 */
export function accountsAtStake(m: Market, book: OrderBook, batch: readonly Request[]): AccountRef[] {
  const people = new Set<number>();
  const gone = new Set<number>();
  const want = {
    buy: { lots: 0, units: 0n, limit: null as number | null, market: false },
    sell: { lots: 0, units: 0n, limit: null as number | null, market: false },
  };
  for (const r of batch) {
    if (r.kind === 'cancel') {
      people.add(r.userId);
      gone.add(r.orderId);
      continue;
    }
    const p = r.input;
    people.add(p.userId);
    const w = want[p.side];
    w.lots += p.lots;
    w.units += BigInt(p.units);
    if (p.type === 'market') w.market = true;
    else
      w.limit =
        w.limit === null
          ? p.ticks
          : p.side === 'buy'
            ? Math.max(w.limit, p.ticks)
            : Math.min(w.limit, p.ticks);
  }
  const placers = new Set<number>(people);
  for (const side of ['buy', 'sell'] as const) {
    const w = want[side];
    if (w.lots === 0 && w.units === 0n) continue;
    for (const owner of book.reach(side, w.market ? null : w.limit, w.lots, w.units, placers, gone))
      people.add(Number(owner));
  }
  const refs: AccountRef[] = [feeAccount(m.baseCurrencyId), feeAccount(m.quoteCurrencyId)];
  for (const u of people) refs.push(spotAccount(u, m.baseCurrencyId), spotAccount(u, m.quoteCurrencyId));
  return refs;
}

/**
 * The fees a batch's trades charged, one per side of each trade that paid one, for the payers'
 * referrers' rebates: buyers pay in the base currency, sellers in the quote (as `settle` charges).
 */
export function feeCharges(m: Market, trades: readonly TradeInput[]): FeeCharge[] {
  const out: FeeCharge[] = [];
  for (const t of trades) {
    const takerBuys = t.takerSide === 'buy';
    for (const [payerId, fee, orderId, buys] of [
      [t.takerUserId, t.takerFee, t.takerOrderId, takerBuys],
      [t.makerUserId, t.makerFee, t.makerOrderId, !takerBuys],
    ] as const) {
      if (payerId == null || fee === undefined || fee === '0') continue;
      out.push({
        kind: 'spot',
        payerId,
        currencyId: buys ? m.baseCurrencyId : m.quoteCurrencyId,
        fee,
        accountType: 'spot',
        refType: 'spot_order',
        refId: orderId ?? '',
      });
    }
  }
  return out;
}
