import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BookSide } from './book-side.ts';
import { type EngineEvent, EventLog } from './event-log.ts';
import { OrderBook } from './order-book.ts';
import { ReferenceBook } from './reference-book.ts';
import type { Command, EngineSink, OrderId, OwnerId, Reject, RestingOrder } from './types.ts';

// ---- Command streams ------------------------------------------------------------------------
// Intents are drawn by fast-check, then turned into commands with unique ids (a cancel names an
// earlier id, which may be resting, done or never accepted). Few prices and owners, so orders
// cross, queue at the same price and meet orders of their own owner often.

const side = fc.constantFrom('buy' as const, 'sell' as const);
const owner = fc.integer({ min: 1, max: 4 });
/** Limit prices drawn from [lo, hi]: a narrow range makes orders meet, a wide one makes many levels. */
const intentIn = (lo: number, hi: number) =>
  fc.oneof(
    {
      weight: 50,
      arbitrary: fc.record({
        k: fc.constant('limit' as const),
        side,
        owner,
        price: fc.integer({ min: lo, max: hi }),
        qty: fc.integer({ min: 1, max: 20 }),
      }),
    },
    {
      weight: 8,
      arbitrary: fc.record({
        k: fc.constant('market' as const),
        side,
        owner,
        qty: fc.integer({ min: 1, max: 40 }),
      }),
    },
    {
      weight: 5,
      arbitrary: fc.record({
        k: fc.constant('amount' as const),
        owner,
        amount: fc.integer({ min: 1, max: 4000 }),
      }),
    },
    { weight: 20, arbitrary: fc.record({ k: fc.constant('cancel' as const), target: fc.nat() }) },
    {
      weight: 3,
      arbitrary: fc.record({
        k: fc.constant('bad' as const),
        side,
        owner,
        qty: fc.constantFrom(0, -3, 1.5, Number.NaN, 2 ** 53, 5),
        price: fc.constantFrom(100, 0, -1, 99.5, Number.POSITIVE_INFINITY),
      }),
    },
    { weight: 2, arbitrary: fc.record({ k: fc.constant('dup' as const), side, owner, target: fc.nat() }) },
  );
const intent = intentIn(95, 105);
type Intent = typeof intent extends fc.Arbitrary<infer T> ? T : never;

function toCommands(intents: Intent[]): Command[] {
  const ids: OrderId[] = [];
  const out: Command[] = [];
  intents.forEach((x, i) => {
    const id = i % 2 === 0 ? i + 1 : `o${i + 1}`; // both kinds of id the server may use
    switch (x.k) {
      case 'limit':
        out.push({ type: 'limit', id, owner: x.owner, side: x.side, price: x.price, qty: x.qty });
        break;
      case 'market':
        out.push({ type: 'market', id, owner: x.owner, side: x.side, qty: x.qty });
        break;
      case 'amount':
        out.push({ type: 'market_amount', id, owner: x.owner, amount: x.amount });
        break;
      case 'cancel':
        out.push({ type: 'cancel', id: ids.length ? ids[x.target % ids.length]! : 'nobody' });
        return;
      case 'bad':
        out.push({ type: 'limit', id, owner: x.owner, side: x.side, price: x.price, qty: x.qty });
        break;
      case 'dup':
        out.push({
          type: 'limit',
          id: ids.length ? ids[x.target % ids.length]! : id,
          owner: x.owner,
          side: x.side,
          price: 100,
          qty: 1,
        });
        return;
    }
    ids.push(id);
  });
  return out;
}

/** May reuse ids (of resting orders: refused; of finished orders: a new order). */
const streams = fc.array(intent, { minLength: 1, maxLength: 300, size: 'max' }).map(toCommands);
/** Every order id is new: what the server does (database ids). */
const uniqueStreams = fc
  .array(
    intent.filter((x) => x.k !== 'dup'),
    { minLength: 1, maxLength: 300, size: 'max' },
  )
  .map(toCommands);

/**
 * Hundreds of price levels per side, so the level index splits, borrows and merges nodes; limit
 * orders dominate and a third of them cross, so levels are also consumed from the top.
 */
const wideStreams = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: intentIn(1, 2000) },
      {
        weight: 1,
        arbitrary: fc.record({
          k: fc.constant('cancel' as const),
          target: fc.nat(),
        }),
      },
    ),
    { minLength: 1, maxLength: 1500, size: 'max' },
  )
  .map(toCommands);

/** Runs commands, checking after each that the book is not crossed and its totals add up. */
function run(book: OrderBook, log: EventLog, cmds: Command[]) {
  const perCommand: EngineEvent[][] = [];
  const rejects: (Reject | null)[] = [];
  for (const c of cmds) {
    rejects.push(book.apply(c));
    perCommand.push(log.take());
    const bid = book.bestBid();
    const ask = book.bestAsk();
    if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
  }
  return { perCommand, rejects };
}

/** A sink that throws at its event number `n` (from 0). */
function throwingSink(n: number): EngineSink {
  let seen = 0;
  const hit = () => {
    if (seen++ === n) throw new Error('sink down');
  };
  return { accepted: hit, fill: hit, rested: hit, done: hit };
}

function fresh() {
  const log = new EventLog();
  return { log, book: new OrderBook(log) };
}

const runs = { numRuns: 200 };

describe('OrderBook properties', { timeout: 60_000 }, () => {
  it('emits exactly the events of a naive reference book, and refuses the same commands', () => {
    fc.assert(
      fc.property(streams, (cmds) => {
        const { book, log } = fresh();
        const ref = new ReferenceBook();
        for (const c of cmds) {
          const expected: EngineEvent[] = [];
          const refReject = ref.apply(c, expected);
          expect(book.apply(c)).toBe(refReject);
          expect(log.take()).toEqual(expected);
        }
        const sortById = (a: RestingOrder[]) => [...a].sort((x, y) => x.seq - y.seq);
        expect(sortById(book.orders())).toEqual(sortById(ref.resting));
      }),
      runs,
    );
  });

  it("emits the reference book's events on a book of hundreds of levels, its level index intact", () => {
    fc.assert(
      fc.property(wideStreams, (cmds) => {
        const { book, log } = fresh();
        const ref = new ReferenceBook();
        const sides = book as unknown as Record<'bids' | 'asks', BookSide>;
        for (const c of cmds) {
          const expected: EngineEvent[] = [];
          expect(book.apply(c)).toBe(ref.apply(c, expected));
          expect(log.take()).toEqual(expected);
        }
        expect(sides.bids.check()).toBeNull();
        expect(sides.asks.check()).toBeNull();
        const sortById = (a: RestingOrder[]) => [...a].sort((x, y) => x.seq - y.seq);
        expect(sortById(book.orders())).toEqual(sortById(ref.resting));
      }),
      { numRuns: 60 },
    );
  });

  it('leaves the book exactly as it was when the sink throws at any event of a command', () => {
    fc.assert(
      fc.property(fc.oneof(streams, wideStreams), fc.nat(), (cmds, pick) => {
        const { book, log } = fresh();
        const ref = new ReferenceBook();
        const sides = book as unknown as Record<'bids' | 'asks', BookSide>;
        const state = () => ({
          orders: book.orders(),
          depth: book.depth(10_000),
          bid: book.bestBid(),
          ask: book.bestAsk(),
          seq: book.lastSeq,
          size: book.size,
          buy: book.sideTotal('buy'),
          sell: book.sideTotal('sell'),
        });
        cmds.forEach((c, i) => {
          const expected: EngineEvent[] = [];
          const refReject = ref.apply(c, expected);
          // Every few commands, a sink that fails at one of the command's events.
          if (expected.length > 0 && (i + pick) % 3 === 0) {
            const failAt = (pick + i) % expected.length;
            const before = state();
            book.setSink(throwingSink(failAt));
            expect(() => book.apply(c)).toThrow('sink down');
            expect(state()).toEqual(before);
            book.setSink(log);
          }
          expect(book.apply(c)).toBe(refReject);
          expect(log.take()).toEqual(expected);
        });
        expect(sides.bids.check()).toBeNull();
        expect(sides.asks.check()).toBeNull();
      }),
      { numRuns: 100 },
    );
  });

  it('never leaves the book crossed after a command', () => {
    fc.assert(
      fc.property(streams, (cmds) => {
        const { book, log } = fresh();
        run(book, log, cmds); // `run` checks bid < ask after every command
      }),
      runs,
    );
  });

  it('conserves quantity: each order is filled, resting or cancelled, and nothing else', () => {
    fc.assert(
      fc.property(uniqueStreams, (cmds) => {
        const { book, log } = fresh();
        const { perCommand, rejects } = run(book, log, cmds);
        const filled = new Map<OrderId, number>();
        const spent = new Map<OrderId, number>();
        const closed = new Map<OrderId, number>();
        const add = (m: Map<OrderId, number>, k: OrderId, v: number) => m.set(k, (m.get(k) ?? 0) + v);
        for (const e of perCommand.flat()) {
          if (e.type === 'fill') {
            add(filled, e.makerId, e.qty);
            add(filled, e.takerId, e.qty);
            add(spent, e.takerId, e.qty * e.price);
          } else if (e.type === 'done') {
            closed.set(e.id, e.remaining);
          }
        }
        const resting = new Map(book.orders().map((o) => [o.id, o.remaining]));
        cmds.forEach((c, i) => {
          if (c.type === 'cancel' || rejects[i] !== null) return;
          const open = resting.get(c.id) ?? closed.get(c.id);
          expect(open).toBeDefined();
          if (c.type === 'market_amount') {
            expect((spent.get(c.id) ?? 0) + open!).toBe(c.amount);
          } else {
            expect((filled.get(c.id) ?? 0) + open!).toBe(c.qty);
          }
        });
        // Aggregates agree with the orders.
        const sum = (s: 'buy' | 'sell') =>
          book
            .orders()
            .filter((o) => o.side === s)
            .reduce((a, o) => a + o.remaining, 0);
        expect(book.sideTotal('buy')).toBe(sum('buy'));
        expect(book.sideTotal('sell')).toBe(sum('sell'));
        const depth = book.depth(1000);
        expect(depth.bids.reduce((a, l) => a + l.qty, 0)).toBe(sum('buy'));
        expect(depth.asks.reduce((a, l) => a + l.qty, 0)).toBe(sum('sell'));
        expect(
          depth.bids.reduce((a, l) => a + l.orders, 0) + depth.asks.reduce((a, l) => a + l.orders, 0),
        ).toBe(book.size);
      }),
      runs,
    );
  });

  it('fills the earliest order at a price first', () => {
    fc.assert(
      fc.property(uniqueStreams, (cmds) => {
        const { book, log } = fresh();
        const { perCommand } = run(book, log, cmds);
        // A shadow of the resting orders rebuilt from the events alone.
        const live = new Map<OrderId, { price: number; seq: number; buy: boolean }>();
        const seqOf = new Map<OrderId, number>();
        cmds.forEach((c, i) => {
          for (const e of perCommand[i]!) {
            if (e.type === 'accepted') seqOf.set(e.id, e.seq);
            else if (e.type === 'rested')
              live.set(e.id, {
                price: e.price,
                seq: seqOf.get(e.id)!,
                buy: c.type !== 'cancel' && c.type !== 'market_amount' && c.side === 'buy',
              });
            else if (e.type === 'done') live.delete(e.id);
            else if (e.type === 'fill') {
              const maker = live.get(e.makerId)!;
              expect(maker.price).toBe(e.price);
              for (const o of live.values()) {
                if (o.buy === maker.buy && o.price === maker.price)
                  expect(o.seq).toBeGreaterThanOrEqual(maker.seq);
                // and no better price was left behind on that side
                if (o.buy === maker.buy)
                  expect(maker.buy ? o.price <= maker.price : o.price >= maker.price).toBe(true);
              }
            }
          }
        });
      }),
      runs,
    );
  });

  it('never fills a cancelled order', () => {
    fc.assert(
      fc.property(uniqueStreams, (cmds) => {
        const { book, log } = fresh();
        const cancelled = new Set<OrderId>();
        for (const c of cmds) {
          book.apply(c);
          for (const e of log.take()) {
            if (e.type === 'fill') {
              expect(cancelled.has(e.makerId)).toBe(false);
              expect(cancelled.has(e.takerId)).toBe(false);
            }
            if (e.type === 'done' && (e.reason === 'cancelled' || e.reason === 'self_trade'))
              cancelled.add(e.id);
          }
          // A cancelled id is gone: cancelling it again is refused and emits nothing.
          if (c.type === 'cancel' && cancelled.has(c.id)) {
            expect(book.has(c.id)).toBe(false);
          }
        }
      }),
      runs,
    );
  });

  it('gives the same events when the same commands are replayed', () => {
    fc.assert(
      fc.property(streams, (cmds) => {
        const a = fresh();
        const b = fresh();
        expect(run(b.book, b.log, cmds)).toEqual(run(a.book, a.log, cmds));
        expect(b.book.orders()).toEqual(a.book.orders());
      }),
      runs,
    );
  });

  it('rebuilds a book exactly from its resting orders, in any order, and then matches the same', () => {
    fc.assert(
      fc.property(streams, fc.nat(), fc.integer(), (cmds, cutAt, shuffleSeed) => {
        const cut = cutAt % (cmds.length + 1);
        const original = fresh();
        run(original.book, original.log, cmds.slice(0, cut));
        // What the server reads back from the database after a crash, in whatever order.
        const stored = original.book.orders();
        const shuffled = fc.sample(fc.shuffledSubarray(stored, { minLength: stored.length }), {
          seed: shuffleSeed,
          numRuns: 1,
        })[0]!;
        const rebuilt = fresh();
        for (const o of shuffled) expect(rebuilt.book.restore(o)).toBeNull();
        rebuilt.book.advanceSeq(original.book.lastSeq);
        expect(rebuilt.log.take()).toEqual([]);
        expect(rebuilt.book.orders()).toEqual(stored);
        expect(rebuilt.book.depth(1000)).toEqual(original.book.depth(1000));
        const rest = cmds.slice(cut);
        expect(run(rebuilt.book, rebuilt.log, rest)).toEqual(run(original.book, original.log, rest));
      }),
      runs,
    );
  });

  it('prices a market order exactly as it then trades (sweepCost)', () => {
    fc.assert(
      fc.property(streams, side, owner, fc.integer({ min: 1, max: 200 }), (cmds, s, who, qty) => {
        const { book, log } = fresh();
        run(book, log, cmds);
        const cost = book.sweepCost(s, qty, who);
        book.placeMarket('probe', who, s, qty);
        let lots = 0;
        let amount = 0n;
        for (const e of log.take()) {
          if (e.type === 'fill') {
            lots += e.qty;
            amount += BigInt(e.qty) * BigInt(e.price);
          }
        }
        expect(cost).toEqual({ qty: lots, amount });
      }),
      runs,
    );
  });

  it('keeps integer arithmetic exact with large prices and amounts (market buy by amount)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            price: fc.integer({ min: 1, max: 2 ** 40 }),
            qty: fc.integer({ min: 1, max: 2 ** 30 }),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (asks, amount) => {
          const { book, log } = fresh();
          const ref = new ReferenceBook();
          asks.forEach((a, i) => {
            const cmd: Command = { type: 'limit', id: i, owner: 1, side: 'sell', price: a.price, qty: a.qty };
            expect(book.apply(cmd)).toBe(ref.apply(cmd, []));
          });
          log.take();
          const cmd: Command = { type: 'market_amount', id: 'big', owner: 2, amount };
          const expected: EngineEvent[] = [];
          ref.apply(cmd, expected);
          book.apply(cmd);
          const events = log.take();
          expect(events).toEqual(expected);
          let spent = 0n;
          for (const e of events) if (e.type === 'fill') spent += BigInt(e.qty) * BigInt(e.price);
          const done = events.at(-1)!;
          expect(done.type).toBe('done');
          if (done.type === 'done') expect(spent + BigInt(done.remaining)).toBe(BigInt(amount));
        },
      ),
      runs,
    );
  });

  it('reach() names every owner a batch of orders then trades with (a superset of the makers)', () => {
    const batchOrder = fc.record({
      k: fc.constantFrom('limit' as const, 'market' as const, 'amount' as const, 'cancel' as const),
      side,
      owner: fc.integer({ min: 1, max: 8 }),
      price: fc.integer({ min: 95, max: 105 }),
      qty: fc.integer({ min: 1, max: 30 }),
      amount: fc.integer({ min: 1, max: 5000 }),
      target: fc.nat(),
    });
    fc.assert(
      fc.property(uniqueStreams, fc.array(batchOrder, { minLength: 1, maxLength: 20 }), (cmds, batch) => {
        const { book, log } = fresh();
        run(book, log, cmds);
        const resting = book.orders();
        // the batch, as the server sees it before matching
        const placers = new Set<OwnerId>();
        const gone = new Set<OrderId>();
        const want = {
          buy: { lots: 0, units: 0n, limit: null as number | null, market: false },
          sell: { lots: 0, units: 0n, limit: null as number | null, market: false },
        };
        const batchCmds: Command[] = batch.map((b, i) => {
          const id = `b${i}`;
          if (b.k === 'cancel') {
            const r = resting.length ? resting[b.target % resting.length]! : null;
            if (r) gone.add(r.id);
            return { type: 'cancel', id: r ? r.id : 'nobody' };
          }
          placers.add(b.owner);
          const w = want[b.k === 'amount' ? 'buy' : b.side];
          if (b.k === 'amount') {
            w.units += BigInt(b.amount);
            w.market = true;
            return { type: 'market_amount', id, owner: b.owner, amount: b.amount };
          }
          w.lots += b.qty;
          if (b.k === 'market') {
            w.market = true;
            return { type: 'market', id, owner: b.owner, side: b.side, qty: b.qty };
          }
          const better = b.side === 'buy' ? Math.max : Math.min;
          w.limit = w.limit === null ? b.price : better(w.limit, b.price);
          return { type: 'limit', id, owner: b.owner, side: b.side, price: b.price, qty: b.qty };
        });
        const reached = new Set<OwnerId>(placers);
        for (const s of ['buy', 'sell'] as const) {
          const w = want[s];
          for (const o of book.reach(s, w.market ? null : w.limit, w.lots, w.units, placers, gone))
            reached.add(o);
        }
        const ownerOf = new Map<OrderId, OwnerId>(resting.map((r) => [r.id, r.owner]));
        batch.forEach((b, i) => {
          if (b.k !== 'cancel') ownerOf.set(`b${i}`, b.owner);
        });
        for (const c of batchCmds) {
          book.apply(c);
          for (const e of log.take())
            if (e.type === 'fill') expect(reached).toContain(ownerOf.get(e.makerId));
        }
      }),
      runs,
    );
  });
});
