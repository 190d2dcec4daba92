import { beforeEach, describe, expect, it } from 'vitest';
import { EventLog } from './event-log.ts';
import { OrderBook } from './order-book.ts';

let log: EventLog;
let book: OrderBook;
beforeEach(() => {
  log = new EventLog();
  book = new OrderBook(log);
});

/** Places resting orders and forgets their events. */
function seed(...orders: [id: string, owner: number, side: 'buy' | 'sell', price: number, qty: number][]) {
  for (const [id, owner, side, price, qty] of orders)
    expect(book.placeLimit(id, owner, side, price, qty)).toBeNull();
  log.take();
}

describe('limit orders', () => {
  it('rest on an empty book', () => {
    expect(book.placeLimit('a', 1, 'buy', 100, 5)).toBeNull();
    expect(log.take()).toEqual([
      { type: 'accepted', id: 'a', seq: 1 },
      { type: 'rested', id: 'a', price: 100, remaining: 5 },
    ]);
    expect(book.bestBid()).toBe(100);
    expect(book.bestAsk()).toBeUndefined();
    expect(book.getOrder('a')).toEqual({ id: 'a', owner: 1, side: 'buy', price: 100, remaining: 5, seq: 1 });
  });

  it('do not trade when they do not cross', () => {
    seed(['s', 1, 'sell', 101, 5]);
    book.placeLimit('b', 2, 'buy', 100, 5);
    expect(log.take().map((e) => e.type)).toEqual(['accepted', 'rested']);
    expect(book.depth()).toEqual({
      bids: [{ price: 100, qty: 5, orders: 1 }],
      asks: [{ price: 101, qty: 5, orders: 1 }],
    });
  });

  it('trade at the maker price, best price first, and rest the remainder (buy)', () => {
    seed(['s1', 1, 'sell', 102, 3], ['s2', 1, 'sell', 101, 2]);
    book.placeLimit('b', 2, 'buy', 103, 10);
    expect(log.take()).toEqual([
      { type: 'accepted', id: 'b', seq: 3 },
      { type: 'fill', makerId: 's2', takerId: 'b', price: 101, qty: 2, makerRemaining: 0, takerRemaining: 8 },
      { type: 'done', id: 's2', reason: 'filled', remaining: 0 },
      { type: 'fill', makerId: 's1', takerId: 'b', price: 102, qty: 3, makerRemaining: 0, takerRemaining: 5 },
      { type: 'done', id: 's1', reason: 'filled', remaining: 0 },
      { type: 'rested', id: 'b', price: 103, remaining: 5 },
    ]);
    expect(book.bestBid()).toBe(103);
    expect(book.bestAsk()).toBeUndefined();
  });

  it('trade at the maker price, best price first (sell), and stop at the limit', () => {
    seed(['b1', 1, 'buy', 99, 3], ['b2', 1, 'buy', 100, 2], ['b3', 1, 'buy', 97, 4]);
    book.placeLimit('s', 2, 'sell', 98, 10);
    expect(log.take().filter((e) => e.type === 'fill')).toEqual([
      { type: 'fill', makerId: 'b2', takerId: 's', price: 100, qty: 2, makerRemaining: 0, takerRemaining: 8 },
      { type: 'fill', makerId: 'b1', takerId: 's', price: 99, qty: 3, makerRemaining: 0, takerRemaining: 5 },
    ]);
    expect(book.depth()).toEqual({
      bids: [{ price: 97, qty: 4, orders: 1 }],
      asks: [{ price: 98, qty: 5, orders: 1 }],
    });
  });

  it('fill partially: the maker keeps its place and its remainder', () => {
    seed(['s1', 1, 'sell', 100, 10], ['s2', 1, 'sell', 100, 10]);
    book.placeLimit('b', 2, 'buy', 100, 4);
    expect(log.take()).toEqual([
      { type: 'accepted', id: 'b', seq: 3 },
      { type: 'fill', makerId: 's1', takerId: 'b', price: 100, qty: 4, makerRemaining: 6, takerRemaining: 0 },
      { type: 'done', id: 'b', reason: 'filled', remaining: 0 },
    ]);
    book.placeLimit('b2', 2, 'buy', 100, 7);
    expect(log.take().filter((e) => e.type === 'fill')).toEqual([
      {
        type: 'fill',
        makerId: 's1',
        takerId: 'b2',
        price: 100,
        qty: 6,
        makerRemaining: 0,
        takerRemaining: 1,
      },
      {
        type: 'fill',
        makerId: 's2',
        takerId: 'b2',
        price: 100,
        qty: 1,
        makerRemaining: 9,
        takerRemaining: 0,
      },
    ]);
    expect(book.getOrder('s2')?.remaining).toBe(9);
  });

  it('queue behind earlier orders at the same price (time priority)', () => {
    seed(['b1', 1, 'buy', 100, 1], ['b2', 2, 'buy', 100, 1], ['b3', 3, 'buy', 100, 1]);
    book.cancel('b2');
    seed(['b4', 4, 'buy', 100, 1]);
    book.placeMarket('m', 9, 'sell', 3);
    expect(
      log
        .take()
        .filter((e) => e.type === 'fill')
        .map((e) => (e.type === 'fill' ? e.makerId : '')),
    ).toEqual(['b1', 'b3', 'b4']);
  });
});

describe('market orders', () => {
  it('on an empty book: accepted, then the whole quantity is cancelled as unfilled', () => {
    expect(book.placeMarket('m', 1, 'buy', 5)).toBeNull();
    expect(log.take()).toEqual([
      { type: 'accepted', id: 'm', seq: 1 },
      { type: 'done', id: 'm', reason: 'unfilled', remaining: 5 },
    ]);
    expect(book.size).toBe(0);
  });

  it('into a thin book: takes every level, the remainder never rests', () => {
    seed(['s1', 1, 'sell', 100, 2], ['s2', 1, 'sell', 150, 1]);
    book.placeMarket('m', 2, 'buy', 10);
    expect(log.take()).toEqual([
      { type: 'accepted', id: 'm', seq: 3 },
      { type: 'fill', makerId: 's1', takerId: 'm', price: 100, qty: 2, makerRemaining: 0, takerRemaining: 8 },
      { type: 'done', id: 's1', reason: 'filled', remaining: 0 },
      { type: 'fill', makerId: 's2', takerId: 'm', price: 150, qty: 1, makerRemaining: 0, takerRemaining: 7 },
      { type: 'done', id: 's2', reason: 'filled', remaining: 0 },
      { type: 'done', id: 'm', reason: 'unfilled', remaining: 7 },
    ]);
    expect(book.depth()).toEqual({ bids: [], asks: [] });
    expect(book.has('m')).toBe(false);
  });

  it('sell: fills completely when the bids suffice', () => {
    seed(['b1', 1, 'buy', 100, 2], ['b2', 1, 'buy', 90, 5]);
    book.placeMarket('m', 2, 'sell', 4);
    const events = log.take();
    expect(events.at(-1)).toEqual({ type: 'done', id: 'm', reason: 'filled', remaining: 0 });
    expect(book.depth().bids).toEqual([{ price: 90, qty: 3, orders: 1 }]);
  });

  it('buy by quote amount: whole lots only, never more than the amount', () => {
    seed(['s1', 1, 'sell', 100, 3], ['s2', 1, 'sell', 120, 10]);
    // 300 buys the 3 lots at 100, 250 left buys 2 lots at 120, 10 left is dust.
    expect(book.placeMarketBuyAmount('m', 2, 550)).toBeNull();
    expect(log.take()).toEqual([
      { type: 'accepted', id: 'm', seq: 3 },
      {
        type: 'fill',
        makerId: 's1',
        takerId: 'm',
        price: 100,
        qty: 3,
        makerRemaining: 0,
        takerRemaining: 250,
      },
      { type: 'done', id: 's1', reason: 'filled', remaining: 0 },
      {
        type: 'fill',
        makerId: 's2',
        takerId: 'm',
        price: 120,
        qty: 2,
        makerRemaining: 8,
        takerRemaining: 10,
      },
      { type: 'done', id: 'm', reason: 'filled', remaining: 10 },
    ]);
  });

  it('buy by quote amount: unfilled when the amount buys nothing, or the asks run out', () => {
    seed(['s1', 1, 'sell', 100, 1]);
    book.placeMarketBuyAmount('m1', 2, 99);
    expect(log.take().at(-1)).toEqual({ type: 'done', id: 'm1', reason: 'unfilled', remaining: 99 });
    book.placeMarketBuyAmount('m2', 2, 1000);
    expect(log.take().at(-1)).toEqual({ type: 'done', id: 'm2', reason: 'unfilled', remaining: 900 });
    expect(book.placeMarketBuyAmount('m3', 2, 1000)).toBeNull();
    expect(log.take().at(-1)).toEqual({ type: 'done', id: 'm3', reason: 'unfilled', remaining: 1000 });
  });

  it('buy by quote amount: exact to the last quote unit with large numbers', () => {
    const price = 2 ** 40 + 7;
    seed(['s', 1, 'sell', price, 2 ** 12]);
    const amount = Number.MAX_SAFE_INTEGER; // pays for 8191 lots at this price: it takes all 4096
    book.placeMarketBuyAmount('m', 2, amount);
    const events = log.take();
    expect(events[1]).toMatchObject({ type: 'fill', qty: 2 ** 12 });
    expect(events.at(-1)).toEqual({
      type: 'done',
      id: 'm',
      reason: 'unfilled',
      remaining: amount - 2 ** 12 * price,
    });
  });

  it('sweepCost tells the exact amount a market order would take', () => {
    seed(['s1', 1, 'sell', 100, 3], ['s2', 2, 'sell', 110, 2], ['s3', 1, 'sell', 120, 10]);
    expect(book.sweepCost('buy', 6, 3)).toEqual({ qty: 6, amount: 3n * 100n + 2n * 110n + 120n });
    // Owner 2's own ask would be cancelled, not bought.
    expect(book.sweepCost('buy', 6, 2)).toEqual({ qty: 6, amount: 3n * 100n + 3n * 120n });
    expect(book.sweepCost('buy', 100, 3)).toEqual({ qty: 15, amount: 300n + 220n + 1200n });
    expect(book.sweepCost('sell', 1, 3)).toEqual({ qty: 0, amount: 0n });
  });
});

describe('cancel', () => {
  it('removes a resting order and reports what was left', () => {
    seed(['a', 1, 'buy', 100, 5], ['s', 2, 'sell', 100, 2]);
    expect(book.cancel('a')).toBeNull();
    expect(log.take()).toEqual([{ type: 'done', id: 'a', reason: 'cancelled', remaining: 3 }]);
    expect(book.depth()).toEqual({ bids: [], asks: [] });
  });

  it('from the middle of a queue and of the book', () => {
    seed(['a', 1, 'buy', 100, 1], ['b', 1, 'buy', 100, 2], ['c', 1, 'buy', 100, 3], ['d', 1, 'buy', 99, 1]);
    seed(['e', 1, 'buy', 98, 1]);
    book.cancel('b');
    book.cancel('d');
    expect(book.depth().bids).toEqual([
      { price: 100, qty: 4, orders: 2 },
      { price: 98, qty: 1, orders: 1 },
    ]);
    expect(book.orders().map((o) => o.id)).toEqual(['a', 'c', 'e']);
  });

  it('of an unknown id is refused and changes nothing', () => {
    seed(['a', 1, 'buy', 100, 1]);
    expect(book.cancel('zzz')).toBe('unknown_order');
    expect(book.cancel(42)).toBe('unknown_order');
    expect(log.take()).toEqual([]);
    expect(book.size).toBe(1);
  });

  it('of an order already filled or cancelled is refused', () => {
    seed(['a', 1, 'buy', 100, 1], ['s', 2, 'sell', 100, 1]);
    expect(book.cancel('a')).toBe('unknown_order');
    seed(['b', 1, 'buy', 100, 1]);
    expect(book.cancel('b')).toBeNull();
    expect(book.cancel('b')).toBe('unknown_order');
  });
});

describe('bad input is refused and changes nothing', () => {
  it.each([
    ['zero quantity', () => book.placeLimit('x', 1, 'buy', 100, 0), 'invalid_qty'],
    ['negative quantity', () => book.placeLimit('x', 1, 'buy', 100, -1), 'invalid_qty'],
    ['fractional quantity', () => book.placeLimit('x', 1, 'buy', 100, 0.5), 'invalid_qty'],
    ['unsafe quantity', () => book.placeLimit('x', 1, 'buy', 100, 2 ** 53), 'invalid_qty'],
    ['NaN quantity', () => book.placeMarket('x', 1, 'buy', Number.NaN), 'invalid_qty'],
    ['zero market quantity', () => book.placeMarket('x', 1, 'sell', 0), 'invalid_qty'],
    ['zero price', () => book.placeLimit('x', 1, 'buy', 0, 1), 'invalid_price'],
    ['negative price', () => book.placeLimit('x', 1, 'sell', -5, 1), 'invalid_price'],
    ['fractional price', () => book.placeLimit('x', 1, 'sell', 100.5, 1), 'invalid_price'],
    ['infinite price', () => book.placeLimit('x', 1, 'buy', Number.POSITIVE_INFINITY, 1), 'invalid_price'],
    ['zero amount', () => book.placeMarketBuyAmount('x', 1, 0), 'invalid_amount'],
    ['negative amount', () => book.placeMarketBuyAmount('x', 1, -10), 'invalid_amount'],
    ['unknown side', () => book.placeLimit('x', 1, 'hold' as 'buy', 100, 1), 'invalid_side'],
    ['empty id', () => book.placeLimit('', 1, 'buy', 100, 1), 'invalid_id'],
    ['fractional id', () => book.placeLimit(1.5, 1, 'buy', 100, 1), 'invalid_id'],
    [
      'missing owner',
      () => book.placeLimit('x', undefined as unknown as number, 'buy', 100, 1),
      'invalid_owner',
    ],
    ['id of a resting order', () => book.placeLimit('rest', 1, 'sell', 200, 1), 'duplicate_id'],
    ['market with a resting id', () => book.placeMarket('rest', 2, 'sell', 1), 'duplicate_id'],
    ['unknown command', () => book.apply({ type: 'stop' } as never), 'invalid_command'],
  ])('%s', (_name, act, reason) => {
    seed(['rest', 9, 'buy', 100, 3], ['ask', 9, 'sell', 110, 3]);
    const before = { orders: book.orders(), seq: book.lastSeq };
    expect(act()).toBe(reason);
    expect(log.take()).toEqual([]);
    expect({ orders: book.orders(), seq: book.lastSeq }).toEqual(before);
  });

  it('a side whose resting total would pass 2^53 − 1 lots', () => {
    seed(['big', 1, 'buy', 100, Number.MAX_SAFE_INTEGER - 10]);
    expect(book.placeLimit('more', 1, 'buy', 99, 11)).toBe('too_large');
    expect(book.placeLimit('ok', 1, 'buy', 99, 10)).toBeNull();
    expect(book.sideTotal('buy')).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('self-trade prevention: the resting order is cancelled', () => {
  it('the taker skips its own resting order and trades on', () => {
    seed(['own', 1, 'sell', 100, 5], ['other', 2, 'sell', 100, 5]);
    book.placeLimit('b', 1, 'buy', 100, 3);
    expect(log.take()).toEqual([
      { type: 'accepted', id: 'b', seq: 3 },
      { type: 'done', id: 'own', reason: 'self_trade', remaining: 5 },
      {
        type: 'fill',
        makerId: 'other',
        takerId: 'b',
        price: 100,
        qty: 3,
        makerRemaining: 2,
        takerRemaining: 0,
      },
      { type: 'done', id: 'b', reason: 'filled', remaining: 0 },
    ]);
  });

  it('a new quote that crosses the same owner’s stale quote replaces it', () => {
    seed(['ask', 7, 'sell', 100, 5]);
    book.placeLimit('bid', 7, 'buy', 101, 2);
    expect(log.take()).toEqual([
      { type: 'accepted', id: 'bid', seq: 2 },
      { type: 'done', id: 'ask', reason: 'self_trade', remaining: 5 },
      { type: 'rested', id: 'bid', price: 101, remaining: 2 },
    ]);
    expect(book.depth()).toEqual({ bids: [{ price: 101, qty: 2, orders: 1 }], asks: [] });
  });

  it('own orders behind the point where the taker is filled are left alone', () => {
    seed(['other', 2, 'sell', 100, 5], ['own', 1, 'sell', 100, 5]);
    book.placeMarket('m', 1, 'buy', 5);
    expect(book.has('own')).toBe(true);
  });
});

describe('rebuilding a book (restore)', () => {
  it('puts resting orders back by sequence without matching or events', () => {
    const a = new OrderBook();
    expect(a.restore({ id: 'c', owner: 1, side: 'buy', price: 100, remaining: 3, seq: 30 })).toBeNull();
    expect(a.restore({ id: 'a', owner: 1, side: 'buy', price: 100, remaining: 1, seq: 10 })).toBeNull();
    expect(a.restore({ id: 'b', owner: 2, side: 'buy', price: 100, remaining: 2, seq: 20 })).toBeNull();
    expect(a.restore({ id: 's', owner: 2, side: 'sell', price: 101, remaining: 2, seq: 5 })).toBeNull();
    expect(a.orders().map((o) => o.id)).toEqual(['a', 'b', 'c', 's']);
    expect(a.lastSeq).toBe(30);
    a.advanceSeq(41);
    const l = new EventLog();
    a.setSink(l);
    a.placeMarket('m', 3, 'sell', 6);
    expect(
      l
        .take()
        .map((e) =>
          e.type === 'fill'
            ? e.makerId
            : e.type === 'accepted'
              ? e.seq
              : e.type === 'done'
                ? e.reason
                : e.type,
        ),
    ).toEqual([42, 'a', 'filled', 'b', 'filled', 'c', 'filled', 'filled']);
  });

  it('refuses a state that would cross, a duplicate id and a bad sequence', () => {
    expect(book.restore({ id: 'a', owner: 1, side: 'buy', price: 100, remaining: 1, seq: 1 })).toBeNull();
    expect(book.restore({ id: 'x', owner: 2, side: 'sell', price: 100, remaining: 1, seq: 2 })).toBe(
      'would_cross',
    );
    expect(book.restore({ id: 'a', owner: 2, side: 'sell', price: 101, remaining: 1, seq: 2 })).toBe(
      'duplicate_id',
    );
    expect(book.restore({ id: 'y', owner: 2, side: 'sell', price: 101, remaining: 1, seq: 0 })).toBe(
      'invalid_seq',
    );
    expect(book.restore({ id: 'y', owner: 2, side: 'sell', price: 101, remaining: 0, seq: 3 })).toBe(
      'invalid_qty',
    );
    expect(book.size).toBe(1);
  });
});

describe('depth', () => {
  it('aggregates the top levels of each side, best first', () => {
    seed(
      ['b1', 1, 'buy', 99, 1],
      ['b2', 2, 'buy', 99, 2],
      ['b3', 1, 'buy', 98, 4],
      ['b4', 1, 'buy', 97, 8],
      ['s1', 1, 'sell', 101, 1],
      ['s2', 2, 'sell', 103, 2],
    );
    expect(book.depth(2)).toEqual({
      bids: [
        { price: 99, qty: 3, orders: 2 },
        { price: 98, qty: 4, orders: 1 },
      ],
      asks: [
        { price: 101, qty: 1, orders: 1 },
        { price: 103, qty: 2, orders: 1 },
      ],
    });
  });
});

describe('apply', () => {
  it('runs every command type', () => {
    expect(book.apply({ type: 'limit', id: 1, owner: 1, side: 'sell', price: 10, qty: 5 })).toBeNull();
    expect(book.apply({ type: 'market', id: 2, owner: 2, side: 'buy', qty: 1 })).toBeNull();
    expect(book.apply({ type: 'market_amount', id: 3, owner: 2, amount: 25 })).toBeNull();
    expect(book.apply({ type: 'cancel', id: 1 })).toBeNull();
    expect(log.take().filter((e) => e.type === 'done')).toEqual([
      { type: 'done', id: 2, reason: 'filled', remaining: 0 },
      { type: 'done', id: 3, reason: 'filled', remaining: 5 },
      { type: 'done', id: 1, reason: 'cancelled', remaining: 2 },
    ]);
  });
});

describe('a sink that throws', () => {
  /** A sink that records like the log but throws at its event number `n` (from 0). */
  const failingAt = (n: number) => {
    const inner = new EventLog();
    let seen = 0;
    const hit = () => {
      if (seen++ === n) throw new Error('sink down');
    };
    return {
      accepted(...a: Parameters<EventLog['accepted']>) {
        hit();
        inner.accepted(...a);
      },
      fill(...a: Parameters<EventLog['fill']>) {
        hit();
        inner.fill(...a);
      },
      rested(...a: Parameters<EventLog['rested']>) {
        hit();
        inner.rested(...a);
      },
      done(...a: Parameters<EventLog['done']>) {
        hit();
        inner.done(...a);
      },
    };
  };
  const state = () => ({
    depth: book.depth(100),
    orders: book.orders(),
    bid: book.bestBid(),
    ask: book.bestAsk(),
    seq: book.lastSeq,
    sell: book.sideTotal('sell'),
  });
  const commands = {
    'a limit buy that fills one maker, part of the next and rests': () =>
      book.placeLimit('t', 9, 'buy', 101, 10),
    'a market buy that sweeps both levels and cancels its own order on the way': () =>
      book.placeMarket('t', 1, 'buy', 20),
    'a market buy by amount': () => book.placeMarketBuyAmount('t', 9, 700),
    'a cancel': () => book.cancel('a2'),
  };

  for (const [name, run] of Object.entries(commands)) {
    it(`at any event of ${name}: the book stays exactly as it was, and the command then runs normally`, () => {
      seed(
        ['a1', 2, 'sell', 100, 5],
        ['own', 1, 'sell', 100, 1],
        ['a2', 3, 'sell', 101, 4],
        ['a3', 4, 'sell', 102, 2],
      );
      seed(['b1', 5, 'buy', 98, 3]);
      const before = state();
      // How many events the command sends when nothing fails.
      const probe = new OrderBook(new EventLog());
      for (const o of book.orders()) probe.restore(o);
      probe.advanceSeq(book.lastSeq);
      const probeLog = new EventLog();
      probe.setSink(probeLog);
      const swapped = book;
      book = probe;
      run();
      book = swapped;
      const events = probeLog.take();
      expect(events.length).toBeGreaterThan(0);
      for (let n = 0; n < events.length; n++) {
        book.setSink(failingAt(n));
        expect(run).toThrow('sink down');
        expect(state()).toEqual(before);
      }
      // The maker that was being filled when the sink failed is whole again, and a working sink
      // gets the same events as the book that never saw a failure.
      book.setSink(log);
      expect(run()).toBeNull();
      expect(log.take()).toEqual(events);
    });
  }
});
