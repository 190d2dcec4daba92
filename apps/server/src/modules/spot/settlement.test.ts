import type { OrderSide, OrderType } from '@verdant/api';
import { type Dec, dec, EventLog, OrderBook } from '@verdant/engine';
import { describe, expect, it } from 'vitest';
import type { Posting } from '../../ledger/ledger.ts';
import type { Market } from '../market/service.ts';
import { newOrder, type Order, type Request } from './order.ts';
import {
  accountsAtStake,
  emptySettlement,
  freezeFor,
  freezePosting,
  type Settlement,
  settle,
} from './settlement.ts';
import { checkPlace } from './validation.ts';

// Settlement without a database: a real engine, the events it emits, and the postings, trades
// and order states they become.

const BTC = 1;
const USDT = 3;
const market: Market = {
  id: 7,
  symbol: 'btcusdt',
  simulated: true,
  base: 'BTC',
  quote: 'USDT',
  baseCurrencyId: BTC,
  quoteCurrencyId: USDT,
  quoteDecimals: 4,
  tickSize: '0.01',
  lotSize: '0.0001',
  minAmount: '1',
  makerFee: '0.001',
  takerFee: '0.002',
  priceDecimals: 2,
  amountDecimals: 4,
  enabled: true,
  sort: 1,
  simPrice: '65000',
  simVolatility: '0',
  simVolume: '0',
  maxQty: '1000',
  maxAmount: '10000000',
  maxOpenOrders: 200,
  priceBand: '0.2',
};

/** One market's book and resting orders, as a desk holds them, and the settlement of each command. */
function desk() {
  const log = new EventLog();
  const book = new OrderBook(log);
  const open = new Map<number, Order>();
  let nextId = 100;
  const ctx = (now: number) => ({
    market,
    baseDecimals: 8,
    quoteDecimals: 4,
    now,
    resting: (id: number) => open.get(id)!,
    rest: (o: Order) => open.set(o.id, o),
    unrest: (o: Order) => open.delete(o.id),
  });
  return {
    book,
    open,
    /** Validates, freezes and runs one order; answers the order and what its command settled. */
    place(
      userId: number,
      side: OrderSide,
      body: { price?: string; qty?: string; amount?: string; type?: OrderType },
      now = 1_700_000_000_000,
    ): { order: Order; out: Settlement; freeze: Posting | null } {
      const type = body.type ?? 'limit';
      const input = checkPlace(userId, { side, type }, { symbol: 'btcusdt', ...body }, market, {
        index: () => null,
        sweepCost: (s, lots, owner) => book.sweepCost(s, lots, owner),
      });
      const order = newOrder(nextId++, market, input, freezeFor(market, input, book), now);
      const freeze = freezePosting(order);
      const out = emptySettlement();
      out.changed.set(order.id, order);
      const reject =
        type === 'limit'
          ? book.placeLimit(order.id, userId, side, input.ticks, input.lots)
          : side === 'sell'
            ? book.placeMarket(order.id, userId, side, input.lots)
            : book.placeMarketBuyAmount(order.id, userId, input.units);
      expect(reject).toBeNull();
      settle(log.take(), order, ctx(now), out);
      return { order, out, freeze };
    },
    cancel(order: Order, now = 1_700_000_000_000): Settlement {
      const out = emptySettlement();
      expect(book.cancel(order.id)).toBeNull();
      settle(log.take(), order, ctx(now), out);
      return out;
    },
  };
}

/** Per account (user or house, currency), the change of available and frozen over some postings. */
function net(postings: readonly Posting[]) {
  const out = new Map<string, { available: Dec; frozen: Dec }>();
  for (const p of postings)
    for (const leg of p.legs) {
      const a = leg.account;
      const key = 'house' in a ? `${a.house}:${a.currencyId}` : `${a.userId}:${a.currencyId}`;
      const cur = out.get(key) ?? { available: dec('0'), frozen: dec('0') };
      out.set(key, {
        available: cur.available.plus(leg.available ?? '0'),
        frozen: cur.frozen.plus(leg.frozen ?? '0'),
      });
    }
  const show = (key: string) => {
    const v = out.get(key);
    return v ? { available: v.available.toFixed(), frozen: v.frozen.toFixed() } : undefined;
  };
  return { show, out };
}

/** Every posting moves money between accounts: each currency sums to zero. */
function expectBalanced(postings: readonly Posting[]) {
  for (const p of postings) {
    const sums = new Map<number, Dec>();
    for (const leg of p.legs) {
      const c = leg.account.currencyId;
      sums.set(c, (sums.get(c) ?? dec('0')).plus(leg.available ?? '0').plus(leg.frozen ?? '0'));
    }
    for (const [c, s] of sums) expect(s.isZero(), `${p.reason} in currency ${c}`).toBe(true);
  }
}

describe('spot settlement', () => {
  it('a crossing buy trades at the resting price, pays fees truncated to the decimals and gets its extra freeze back', () => {
    const d = desk();
    const seller = 11;
    const buyer = 22;
    const ask = d.place(seller, 'sell', { price: '65999.99', qty: '0.0003' });
    // The sell freezes its base and rests: no trade, nothing settled yet.
    expect(ask.freeze?.legs).toEqual([
      { account: { userId: seller, type: 'spot', currencyId: BTC }, available: '-0.0003', frozen: '0.0003' },
    ]);
    expect(ask.out.postings).toEqual([]);
    expect(ask.order.status).toBe('waiting');
    expect(d.open.has(ask.order.id)).toBe(true);

    // The buy freezes 66000 × 0.0001 and trades one lot at the maker's 65999.99.
    const bid = d.place(buyer, 'buy', { price: '66000', qty: '0.0001' }, 1_700_000_000_500);
    expect(bid.freeze?.legs[0]).toMatchObject({ available: '-6.6', frozen: '6.6' });
    expectBalanced(bid.out.postings);
    expect(bid.out.postings.map((p) => p.reason)).toEqual(['spot_fill', 'spot_release']);
    const { show } = net([bid.freeze!, ...bid.out.postings]);
    // value 6.599999; the seller (maker, 0.1 %) pays 0.006599999 truncated to 4 decimals: 0.0065, not 0.0066.
    expect(show(`${seller}:${USDT}`)).toEqual({ available: '6.593499', frozen: '0' });
    expect(show(`fees:${USDT}`)).toEqual({ available: '0.0065', frozen: '0' });
    // The buyer (taker, 0.2 %) pays in BTC; what it froze beyond the trade's value comes back.
    expect(show(`${buyer}:${BTC}`)).toEqual({ available: '0.0000998', frozen: '0' });
    expect(show(`fees:${BTC}`)).toEqual({ available: '0.0000002', frozen: '0' });
    expect(show(`${buyer}:${USDT}`)).toEqual({ available: '-6.599999', frozen: '0' });
    expect(show(`${seller}:${BTC}`)).toEqual({ available: '0', frozen: '-0.0001' });

    expect(bid.order).toMatchObject({ status: 'completed', fee: dec('0.0000002'), frozen: dec('0') });
    expect(bid.order.filledAmount.toFixed()).toBe('6.599999');
    expect(ask.order.status).toBe('waiting');
    expect(ask.order.filledQty.toFixed()).toBe('0.0001');
    expect(ask.order.frozen.toFixed()).toBe('0.0002');
    expect([...bid.out.changed.keys()].sort()).toEqual([ask.order.id, bid.order.id].sort());

    expect(bid.out.trades).toEqual([
      {
        marketId: market.id,
        price: '65999.99',
        qty: '0.0001',
        takerSide: 'buy',
        makerOrderId: ask.order.id,
        takerOrderId: bid.order.id,
        at: 1_700_000_000_500,
        makerUserId: seller,
        takerUserId: buyer,
        makerFee: '0.0065',
        takerFee: '0.0000002',
      },
    ]);
    // Both orders' fill entries, which take the trade's id once it has one.
    expect(bid.out.tradeFills[0]!.map((f) => [f.role, f.fee, f.fee_currency])).toEqual([
      ['taker', '0.0000002', 'BTC'],
      ['maker', '0.0065', 'USDT'],
    ]);
  });

  it('a cancel gives back what the order still froze; a market sell takes what the book has and finishes', () => {
    const d = desk();
    const bid = d.place(1, 'buy', { price: '60000', qty: '0.001' });
    const sell = d.place(2, 'sell', { type: 'market', qty: '0.0004' });
    expectBalanced(sell.out.postings);
    expect(sell.order.status).toBe('completed');
    expect(bid.order.frozen.toFixed()).toBe('36');

    const out = d.cancel(bid.order);
    expect(out.postings).toEqual([
      {
        reason: 'spot_release',
        refType: 'spot_order',
        refId: bid.order.id,
        legs: [{ account: { userId: 1, type: 'spot', currencyId: USDT }, available: '36', frozen: '-36' }],
      },
    ]);
    expect(bid.order).toMatchObject({ status: 'cancelled', cancelReason: 'user' });
    expect(bid.order.frozen.isZero()).toBe(true);
    expect(d.open.size).toBe(0);
  });

  it("an order meeting its owner's resting order cancels the resting one (self-trade) and releases its funds", () => {
    const d = desk();
    const mine = d.place(5, 'sell', { price: '65000', qty: '0.001' });
    const other = d.place(6, 'sell', { price: '65001', qty: '0.001' });
    const bid = d.place(5, 'buy', { price: '65001', qty: '0.001' });
    expectBalanced(bid.out.postings);
    expect(mine.order).toMatchObject({ status: 'cancelled', cancelReason: 'self_trade' });
    expect(mine.order.frozen.isZero()).toBe(true);
    expect(bid.out.trades).toHaveLength(1);
    expect(bid.out.trades[0]).toMatchObject({ makerOrderId: other.order.id, price: '65001' });
    expect(net(bid.out.postings).show(`5:${BTC}`)).toEqual({
      // 0.001 bought less the 0.2 % taker fee, and the self-traded 0.001 unfrozen
      available: '0.001998',
      frozen: '-0.001',
    });
  });

  it('a batch locks its placers, the owners it could trade with and the fee accounts', () => {
    const d = desk();
    d.place(31, 'sell', { price: '65000', qty: '0.001' });
    d.place(32, 'sell', { price: '65100', qty: '0.001' });
    d.place(33, 'sell', { price: '70000', qty: '0.001' });
    const input = checkPlace(40, { side: 'buy', type: 'limit' }, { price: '65100', qty: '0.002' }, market, {
      index: () => null,
      sweepCost: () => ({ qty: 0, amount: 0n }),
    });
    const batch: Request[] = [{ kind: 'place', input, resolve() {}, reject() {} }];
    const refs = accountsAtStake(market, d.book, batch);
    const users = new Set(refs.flatMap((r) => ('userId' in r ? [r.userId] : [])));
    expect(users).toEqual(new Set([40, 31, 32]));
    expect(refs.filter((r) => 'house' in r)).toEqual([
      { house: 'fees', currencyId: BTC },
      { house: 'fees', currencyId: USDT },
    ]);
  });
});
