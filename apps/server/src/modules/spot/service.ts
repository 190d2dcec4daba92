import {
  type CancelOrderBody,
  type Depth,
  ORDER_STATUSES,
  type OrderFill,
  type OrderListQuery,
  type OrderSide,
  type OrderStatus,
  type OrderType,
  type PlaceOrderBody,
  SpotEvents,
  type SpotOrder,
  type SpotOrderPage,
} from '@verdant/api';
import {
  type Dec,
  dec,
  type EngineEvent,
  EventLog,
  OrderBook,
  parseDecimal,
  truncateDecimal,
} from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { pageOf, parsePaging } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { type AccountRef, LedgerBatch, type Posting } from '../../ledger/ledger.ts';
import { userRoom } from '../../realtime/index.ts';
import type { Market } from '../market/markets.ts';
import type { MarketService, RecordedTrades, TradeInput } from '../market/service.ts';
import { amountOf, countOf, type Grid, priceOf, qtyOf, toCount, unitsOf } from './grid.ts';

/** Requests one batch (one transaction) takes at most from a market's queue. */
export const BATCH_MAX = 512;
/**
 * Group commit. Under load the requests of a market come in waves: those answered by the last
 * commit place their next orders while the next batch runs, so batches alternate between two
 * halves of the traders, each paying a whole commit. When the last batch was at least
 * GATHER_MIN requests, the next one waits up to GATHER_MS for as many as were in flight (the
 * last batch and those queued behind it), so one commit serves them all. Quieter markets never
 * wait.
 */
const GATHER_MIN = 16;
const GATHER_MS = 4;
/** Inputs stop below NUMERIC(36,18)'s 18 integer digits. */
const MAX_INPUT = dec('1000000000000000');
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/**
 * A halted market (its book could not be read back after a failed batch) tries to reload every
 * RELOAD_FIRST_MS, doubling up to RELOAD_MAX_MS: soon after the database is back, without
 * hammering it while it is not.
 */
const RELOAD_FIRST_MS = 250;
const RELOAD_MAX_MS = 5000;

type CancelReason = 'user' | 'unfilled' | 'self_trade';

/** An order as the service holds it while it is open or being changed by a batch. */
interface Order {
  id: number;
  userId: number;
  market: Market;
  side: OrderSide;
  type: OrderType;
  price: string | null;
  qty: string | null;
  amount: string | null;
  filledQty: Dec;
  filledAmount: Dec;
  fee: Dec;
  /** Still frozen by the ledger for this order (quote for buys, base for sells). */
  frozen: Dec;
  status: OrderStatus;
  cancelReason: CancelReason | null;
  seq: number;
  createdAt: number;
  updatedAt: number;
  /** Fills of the current batch, for the answer and the socket push. */
  fills: OrderFill[];
}

/** A validated order request: everything the engine needs, in its units. */
interface PlaceInput {
  userId: number;
  market: Market;
  side: OrderSide;
  type: OrderType;
  price: string | null;
  qty: string | null;
  amount: string | null;
  ticks: number;
  lots: number;
  /** Quote units of a market buy by amount. */
  units: number;
}

/** A batch as the one after it sees it: whether its current attempt committed, and its end. */
interface InFlight {
  committed: Promise<boolean>;
  ended: Promise<void>;
}

/** A promise and its resolve (Node 20 has no Promise.withResolvers). */
function signal<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Thrown inside a batch's transaction when the batch before it failed: roll back, run again. */
const STEPPED_BACK = new Error('spot: the batch before failed');

type Request =
  | { kind: 'place'; input: PlaceInput; resolve(o: SpotOrder): void; reject(e: unknown): void }
  | {
      kind: 'cancel';
      userId: number;
      orderId: number;
      resolve(o: SpotOrder): void;
      reject(e: unknown): void;
    };

const spot = (userId: number, currencyId: number): AccountRef => ({ userId, type: 'spot', currencyId });
const fees = (currencyId: number): AccountRef => ({ house: 'fees', currencyId });

/** Buyers pay their fee in the base currency (what they receive), sellers in the quote. */
const feeCurrency = (m: Market, side: OrderSide) => (side === 'buy' ? m.base : m.quote);

function toApi(o: Order): SpotOrder {
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
    created_at: o.createdAt,
    updated_at: o.updatedAt,
    fills: o.fills,
  };
}

interface OrderRow {
  id: string;
  user_id: number;
  market_id: number;
  side: OrderSide;
  type: OrderType;
  price: string | null;
  qty: string | null;
  amount: string | null;
  filled_qty: string;
  filled_amount: string;
  fee: string;
  frozen: string;
  status: OrderStatus;
  cancel_reason: CancelReason | null;
  seq: string;
  c: string;
  u: string;
}

// A bare `ORDER BY id` (or `seq`) after these would sort the text output columns ("9" after "10"):
// order by the qualified column, which is the number.
const ORDER_COLUMNS = `id::text, user_id, market_id, side, type, price::text, qty::text, amount::text,
  filled_qty::text, filled_amount::text, fee::text, frozen::text, status, cancel_reason, seq::text,
  (extract(epoch FROM created_at) * 1000)::bigint::text AS c, (extract(epoch FROM updated_at) * 1000)::bigint::text AS u`;

function fromRow(r: OrderRow, m: Market): Order {
  const n = (v: string | null) => (v === null ? null : canon(v));
  return {
    id: Number(r.id),
    userId: r.user_id,
    market: m,
    side: r.side,
    type: r.type,
    price: n(r.price),
    qty: n(r.qty),
    amount: n(r.amount),
    filledQty: dec(r.filled_qty),
    filledAmount: dec(r.filled_amount),
    fee: dec(r.fee),
    frozen: dec(r.frozen),
    status: r.status,
    cancelReason: r.cancel_reason,
    seq: Number(r.seq),
    createdAt: Number(r.c),
    updatedAt: Number(r.u),
    fills: [],
  };
}

/** PostgreSQL's deadlock and serialization failures: the transaction did nothing and may run again. */
function isTransient(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

export type SpotService = ReturnType<typeof createSpotService>;

/**
 * Spot orders. Each market has one in-memory order book and one writer: requests queue, and a
 * loop takes everything queued (up to BATCH_MAX) into ONE transaction: funds frozen, the engine
 * run, fills recorded and settled, leftovers released, orders written, then one commit answers
 * them all. The next batch locks its accounts while that commit is on its way, and computes
 * once it has landed. If a transaction fails, the market's book is rebuilt from the database
 * (and a batch already waiting behind it runs again), so memory never keeps what was not
 * committed.
 */
export function createSpotService(
  ctx: AppContext,
  market: MarketService,
  io: Server,
  log: FastifyBaseLogger,
) {
  const { db } = ctx;
  const desks = new Map<number, Desk>();
  /** Which market each resting order is on (cancel finds its desk). */
  const where = new Map<number, Desk>();
  const decimalsOf = new Map<number, number>();
  let ready: Promise<void> | null = null;
  let closed = false;
  /**
   * Order and trade ids taken from their sequences ahead, a block at a time, so a batch spends
   * no round trip on them (and its writes can leave together, see apply). Ids taken and never
   * used (a restart, a failed batch) are gaps, nothing more: an order's time priority is `seq`,
   * and ids still grow with time, since only this service takes them.
   */
  const idPools = { spot_orders: [] as number[], trades: [] as number[] };
  /**
   * Spot transactions take turns to lock, across all markets. A batch locks its accounts in
   * two steps (the freeze, then the settlement, whose makers are known only after matching), so
   * two batches locking at once could each hold what the other's settlement needs: a deadlock
   * on PostgreSQL, and a failed batch. The next batch's turn comes once the one before has sent
   * its last write: that one holds every lock it will take and waits for nothing but its
   * COMMIT, so the next may wait on it but never the other way round. Its BEGIN and locks (and
   * on another market, all of it) then overlap the previous batch's writes and commit.
   */
  let turn: Promise<void> = Promise.resolve();
  function takeTurn(): Promise<() => void> {
    const mine = signal();
    const before = turn;
    turn = mine.promise;
    return before.then(() => mine.resolve);
  }
  const ID_BLOCK = 1024;

  async function takeIds(q: Queryable, table: keyof typeof idPools, n: number): Promise<number[]> {
    const pool = idPools[table];
    if (pool.length < n) {
      const rows = await q.query<{ id: string }>(
        `SELECT nextval(pg_get_serial_sequence($1, 'id'))::text AS id FROM generate_series(1, $2::int)`,
        [table, Math.max(ID_BLOCK, n - pool.length)],
      );
      pool.push(...rows.map((r) => Number(r.id)).sort((a, b) => a - b));
    }
    return pool.splice(0, n);
  }

  class Desk {
    book: OrderBook;
    readonly log = new EventLog();
    /** Resting orders. */
    readonly open = new Map<number, Order>();
    /** Resting orders per user (the open-order limit is checked against it). */
    readonly openBy = new Map<number, number>();
    private queue: Request[] = [];
    private running: Promise<void> | null = null;
    /**
     * Set when a failed batch's book could not be read back: memory may hold what the
     * database rolled back, so nothing is matched, placed or cancelled here (and no depth is
     * shown) until a reload succeeds.
     */
    halted = false;
    /** The engine's sequence must not go back below what the failed batch handed out. */
    private haltSeq = 0;
    private reloadTimer: NodeJS.Timeout | null = null;

    constructor(readonly market: Market) {
      this.book = new OrderBook(this.log);
    }

    get grid(): Grid {
      return this.market;
    }

    /** Set while the loop waits for a batch to fill (GATHER_MS). */
    private gathering: { target: number; wake: () => void } | null = null;

    /** Set while the loop, its queue empty, waits for the batch in flight to end. */
    private arrived: (() => void) | null = null;

    enqueue(r: Request): void {
      this.queue.push(r);
      this.arrived?.();
      if (this.gathering && this.queue.length >= this.gathering.target) this.gathering.wake();
      this.running ??= this.drain().finally(() => {
        this.running = null;
      });
    }

    async idle(): Promise<void> {
      while (this.running) await this.running;
    }

    private async drain(): Promise<void> {
      // Let requests arriving in the same tick join the first batch.
      await new Promise<void>((r) => setImmediate(r));
      let last = 0;
      let previous: InFlight = { committed: Promise.resolve(true), ended: Promise.resolve() };
      while (this.queue.length > 0) {
        const target = last + this.queue.length;
        if (last >= GATHER_MIN && this.queue.length < target) await this.gather(target);
        const batch = this.queue.splice(0, BATCH_MAX);
        last = batch.length;
        // The next batch may begin once this one's writes are out (see takeTurn); it computes
        // only after this one has committed.
        const sent = signal();
        const current: InFlight = { committed: Promise.resolve(true), ended: Promise.resolve() };
        // Ended means this batch and every one before it (idle() waits for them all).
        const ran = this.run(batch, previous, current, sent.resolve);
        current.ended = Promise.all([ran, previous.ended]).then(() => {});
        previous = current;
        await Promise.race([sent.promise, current.ended]);
        // Nothing queued: wait for this batch to end, or for a request to start the next.
        if (this.queue.length === 0) {
          const arrival = signal();
          this.arrived = arrival.resolve;
          await Promise.race([current.ended, arrival.promise]);
          this.arrived = null;
        }
      }
    }

    /** Resolves once `target` requests are queued, or after GATHER_MS. */
    private gather(target: number): Promise<void> {
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => this.gathering?.wake(), GATHER_MS);
        this.gathering = {
          target,
          wake: () => {
            clearTimeout(timer);
            this.gathering = null;
            resolve();
          },
        };
      });
    }

    /**
     * Rebuilds the book from the database's open orders, in time priority. Read and built
     * aside first: if either fails, the desk is left as it was (the caller halts it).
     */
    async restore(q: Queryable = db): Promise<void> {
      const rows = await q.query<OrderRow>(
        `SELECT ${ORDER_COLUMNS} FROM spot_orders WHERE market_id = $1 AND status = 'waiting' ORDER BY spot_orders.seq`,
        [this.market.id],
      );
      this.log.take();
      const book = new OrderBook(this.log);
      const open = new Map<number, Order>();
      let maxSeq = 0;
      for (const r of rows) {
        const o = fromRow(r, this.market);
        const ticks = toCount(o.price!, this.market.tickSize)!;
        const remaining = toCount(dec(o.qty!).minus(o.filledQty).toFixed(), this.market.lotSize);
        const err =
          remaining === null
            ? 'bad remaining'
            : book.restore({
                id: o.id,
                owner: o.userId,
                side: o.side,
                price: ticks,
                remaining,
                seq: o.seq,
              });
        if (err) throw new Error(`spot: cannot restore order ${o.id} of ${this.market.symbol}: ${err}`);
        open.set(o.id, o);
        maxSeq = Math.max(maxSeq, o.seq);
      }
      book.advanceSeq(maxSeq);
      this.log.take();
      for (const id of this.open.keys()) where.delete(id);
      this.open.clear();
      this.openBy.clear();
      for (const o of open.values()) this.rest(o);
      this.book = book;
    }

    private rest(o: Order): void {
      this.open.set(o.id, o);
      where.set(o.id, this);
      this.openBy.set(o.userId, (this.openBy.get(o.userId) ?? 0) + 1);
    }

    private unrest(o: Order): void {
      if (!this.open.delete(o.id)) return;
      where.delete(o.id);
      const n = (this.openBy.get(o.userId) ?? 1) - 1;
      if (n > 0) this.openBy.set(o.userId, n);
      else this.openBy.delete(o.userId);
    }

    /** Stops the market until the book is read back; retries with back-off (see RELOAD_FIRST_MS). */
    private halt(seq: number): void {
      this.haltSeq = Math.max(this.haltSeq, seq);
      if (!this.halted) {
        this.halted = true;
        log.error({ market: this.market.symbol }, 'spot: market halted until its book can be read back');
        market.publishDepth(this.market.symbol);
      }
      if (this.reloadTimer) return;
      let wait = RELOAD_FIRST_MS;
      const attempt = () => {
        this.reloadTimer = null;
        if (closed) return;
        this.restore().then(
          () => {
            this.book.advanceSeq(this.haltSeq);
            this.halted = false;
            log.warn({ market: this.market.symbol }, 'spot: book read back, market resumed');
            market.publishDepth(this.market.symbol);
          },
          (err) => {
            log.error({ err, market: this.market.symbol }, 'spot: book reload failed, market still halted');
            wait = Math.min(wait * 2, RELOAD_MAX_MS);
            if (!closed) this.reloadTimer = setTimeout(attempt, wait);
          },
        );
      };
      this.reloadTimer = setTimeout(attempt, wait);
    }

    /** No more reload attempts (the service is stopping). */
    stopReloading(): void {
      if (this.reloadTimer) clearTimeout(this.reloadTimer);
      this.reloadTimer = null;
    }

    /**
     * One batch, to its end: committed and answered, or failed and the book read back. It
     * computes only once `previous` (the batch before it on this market, possibly still
     * committing) has committed; if that one fails instead, this one steps back, waits for it
     * to end, and runs again. `me.committed` tells the batch after this one the same.
     */
    private async run(batch: Request[], previous: InFlight, me: InFlight, sent: () => void): Promise<void> {
      const outcome = new Map<Request, { ok: SpotOrder } | { err: unknown }>();
      let recorded: Promise<RecordedTrades> = Promise.resolve({ trades: [], candles: [] });
      let touched: Order[] = [];
      let before = previous.committed;
      const lastSeq = this.book.lastSeq;
      let committed!: (ok: boolean) => void;
      for (let attempt = 1; ; ) {
        if (this.halted) {
          // The book may disagree with the database: nothing of this batch was done.
          for (const req of batch) req.reject(haltedError(this.market));
          return;
        }
        const attemptCommitted = signal<boolean>();
        me.committed = attemptCommitted.promise;
        committed = attemptCommitted.resolve;
        const release = await takeTurn();
        try {
          const r = await db.tx((q) =>
            this.apply(q, batch, outcome, before, () => {
              release();
              sent();
            }),
          );
          recorded = r.recorded;
          touched = r.touched;
        } catch (e) {
          release();
          committed(false);
          outcome.clear();
          if (e === STEPPED_BACK) {
            await previous.ended;
            before = Promise.resolve(true);
            continue;
          }
          let again = attempt === 1 && isTransient(e);
          log[again ? 'warn' : 'error'](
            { err: e, market: this.market.symbol, requests: batch.length },
            again ? 'spot batch failed, running it again' : 'spot batch failed',
          );
          // Memory may hold what the rolled-back transaction did: read the book back, and
          // if that fails too, halt the market until a reload succeeds.
          try {
            await this.restore();
            this.book.advanceSeq(lastSeq);
          } catch (e2) {
            log.error({ err: e2 }, 'spot: book restore failed');
            again = false;
            this.halt(lastSeq);
          }
          if (again) {
            attempt++;
            continue;
          }
          for (const req of batch) req.reject(new AppError('CONFLICT', 'spot.retry'));
          return;
        }
        break;
      }
      for (const req of batch) {
        const out = outcome.get(req);
        if (out && 'ok' in out) req.resolve(out.ok);
        else req.reject(out?.err ?? new AppError('CONFLICT', 'spot.retry'));
      }
      // After the commit, and before the next batch computes: the users' own orders as this
      // batch left them, its trades, candles and depth.
      for (const o of touched) {
        io.to(userRoom(o.userId)).emit(SpotEvents.order, toApi(o));
        o.fills = [];
      }
      const trades = await recorded;
      const published = trades.trades.length > 0 ? market.publish(trades) : null;
      if (touched.length > 0) market.publishDepth(this.market.symbol);
      committed(true);
      await published?.catch((e) => log.error({ err: e }));
    }

    /** Everything one batch does, inside its transaction. */
    private async apply(
      q: Queryable,
      batch: Request[],
      outcome: Map<Request, { ok: SpotOrder } | { err: unknown }>,
      before: Promise<boolean>,
      sent: () => void,
    ): Promise<{ recorded: Promise<RecordedTrades>; touched: Order[] }> {
      const m = this.market;
      const now = Date.now();
      this.refuseOverLimit(batch, outcome);
      const places = batch.filter(
        (r): r is Extract<Request, { kind: 'place' }> => r.kind === 'place' && !outcome.has(r),
      );

      // 1. Every account the batch may touch, locked in one statement: the placers', the fee
      //    accounts, and the owners of the resting orders the batch could reach (engine.reach,
      //    a superset). A maker missed would still be locked when its fill is posted, by one
      //    more statement.
      const ledger = new LedgerBatch(q);
      await ledger.lock(this.accountsAtStake(batch));
      const ids = await takeIds(q, 'spot_orders', places.length);
      // The batch before may still be committing: the balances just read are after it (its
      // locked rows were waited for), but the book must be too.
      if (!(await before)) throw STEPPED_BACK;
      const freezes: { req: (typeof places)[number]; order: Order; posting: Posting | null }[] = [];
      places.forEach((req, i) => {
        const p = req.input;
        const amountToFreeze = this.freezeFor(p);
        const order: Order = {
          id: ids[i]!,
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
          frozen: amountToFreeze,
          status: 'waiting',
          cancelReason: null,
          seq: 0,
          createdAt: now,
          updatedAt: now,
          fills: [],
        };
        const currency = p.side === 'buy' ? m.quoteCurrencyId : m.baseCurrencyId;
        const f = amountToFreeze.toFixed();
        freezes.push({
          req,
          order,
          posting: amountToFreeze.isZero()
            ? null
            : {
                reason: 'spot_freeze',
                refType: 'spot_order',
                refId: order.id,
                legs: [{ account: spot(p.userId, currency), available: `-${f}`, frozen: f }],
              },
        });
      });
      // The funds each new order freezes; the ledger reports who is short.
      const withPosting = freezes.filter((f) => f.posting !== null);
      const frozenResults = await ledger.post(withPosting.map((f) => f.posting!));
      const short = new Set<Order>();
      withPosting.forEach((f, i) => {
        if (!frozenResults[i]!.ok) short.add(f.order);
      });
      const orderOf = new Map(freezes.map((f) => [f.req as Request, f.order]));

      // 2. The engine, request by request, in arrival order.
      const created: Order[] = [];
      const changed = new Map<number, Order>();
      const settlements: Posting[] = [];
      const trades: TradeInput[] = [];
      /** Per trade, the two orders' fill entries: they take the trade's id once it has one. */
      const tradeFills: OrderFill[][] = [];
      for (const req of batch) {
        if (req.kind === 'place') {
          const order = orderOf.get(req);
          if (!order) continue; // refused before the batch began (open-order limit)
          if (short.has(order)) {
            outcome.set(req, {
              err: new AppError(
                'INSUFFICIENT_BALANCE',
                order.side === 'buy' ? 'spot.insufficientBalance' : 'spot.insufficientSellable',
                {},
                order.side === 'buy' && order.type === 'market' && order.amount ? 'amount' : 'qty',
              ),
            });
            continue;
          }
          const p = req.input;
          let reject: string | null;
          if (p.type === 'limit') reject = this.book.placeLimit(order.id, p.userId, p.side, p.ticks, p.lots);
          else if (p.side === 'sell') reject = this.book.placeMarket(order.id, p.userId, 'sell', p.lots);
          else if (p.lots === 0) reject = this.book.placeMarketBuyAmount(order.id, p.userId, p.units);
          else {
            // By quantity: what was frozen is what the book cost when the batch began. If orders
            // ahead in this batch made it dearer, spend the frozen amount instead (fewer lots,
            // never more money than frozen).
            const cost = this.book.sweepCost('buy', p.lots, p.userId);
            const frozenUnits = toCount(order.frozen.toFixed(), amountOf(m, 1).toFixed()) ?? 0;
            reject =
              BigInt(frozenUnits) >= cost.amount
                ? this.book.placeMarket(order.id, p.userId, 'buy', p.lots)
                : frozenUnits > 0
                  ? this.book.placeMarketBuyAmount(order.id, p.userId, frozenUnits)
                  : this.book.placeMarket(order.id, p.userId, 'buy', p.lots);
          }
          if (reject !== null) {
            // The engine refused it (a book total would pass its integer range): this order
            // alone fails, its freeze is given back in this same transaction, the batch goes on.
            log.warn({ order: order.id, reject }, 'spot: engine refused an order');
            if (!order.frozen.isZero()) {
              const f = order.frozen.toFixed();
              const currency = order.side === 'buy' ? m.quoteCurrencyId : m.baseCurrencyId;
              settlements.push({
                reason: 'spot_release',
                refType: 'spot_order',
                refId: order.id,
                legs: [{ account: spot(order.userId, currency), available: f, frozen: `-${f}` }],
              });
            }
            this.log.take();
            outcome.set(req, { err: invalid('spot.tooLarge', 'qty') });
            continue;
          }
          created.push(order);
          changed.set(order.id, order);
          this.events(order, changed, settlements, trades, tradeFills, now);
          outcome.set(req, { ok: toApi(order) });
        } else {
          const order = this.open.get(req.orderId);
          if (!order || order.userId !== req.userId) {
            outcome.set(req, { err: new AppError('CONFLICT', 'spot.orderFinished', {}, 'id') });
            continue;
          }
          const reject = this.book.cancel(order.id);
          if (reject !== null) throw new Error(`spot: engine refused cancel ${order.id}: ${reject}`);
          changed.set(order.id, order);
          this.events(order, changed, settlements, trades, tradeFills, now);
          outcome.set(req, { ok: toApi(order) });
        }
      }

      // 3. The fills' settlement and the releases, in memory; then every write of the batch
      //    leaves without waiting for the one before (trades and candles, the ledger, the
      //    orders), and db.tx sends COMMIT right behind them: one round trip.
      const tradeIds = await takeIds(q, 'trades', trades.length);
      trades.forEach((t, i) => {
        t.id = tradeIds[i]!;
        for (const fill of tradeFills[i]!) fill.id = String(t.id);
      });
      const settled = await ledger.post(settlements);
      const bad = settled.findIndex((r) => !r.ok);
      if (bad >= 0)
        throw new Error(`spot: settlement '${settlements[bad]!.reason}' would overdraw an account`);
      const writeTrades = await market.prepareTrades(q, trades);
      // Sent in this order before apply returns, nothing awaited: db.tx awaits each of them
      // with the COMMIT and fails the batch if any failed (the catches only keep a failure from
      // counting as unhandled before that).
      const recorded = writeTrades();
      recorded.catch(() => {});
      ledger.write().catch(() => {});

      const createdIds = new Set(created.map((o) => o.id));
      const updated = [...changed.values()].filter((o) => !createdIds.has(o.id));
      const at = new Date(now).toISOString();
      const col = <T>(list: Order[], f: (o: Order) => T) => list.map(f);
      // New orders and changed orders: one statement.
      void q.query(
        `WITH created AS (
           INSERT INTO spot_orders (id, user_id, market_id, side, type, price, qty, amount, filled_qty, filled_amount,
                                    fee, frozen, status, cancel_reason, seq, created_at, updated_at)
           OVERRIDING SYSTEM VALUE
           SELECT id, user_id, $1, side, type, price, qty, amount, fq, fa, fee, frozen, status, reason, seq, $2, $2
             FROM unnest($3::bigint[], $4::int[], $5::text[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[],
                         $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::text[], $15::text[],
                         $16::bigint[]) WITH ORDINALITY
                  AS x(id, user_id, side, type, price, qty, amount, fq, fa, fee, frozen, status, reason, seq, n)
            ORDER BY n
           RETURNING 1
         ), changed AS (
           UPDATE spot_orders o SET filled_qty = x.fq, filled_amount = x.fa, fee = x.fee, frozen = x.frozen,
                  status = x.status, cancel_reason = x.reason, updated_at = $2
             FROM unnest($17::bigint[], $18::numeric[], $19::numeric[], $20::numeric[], $21::numeric[], $22::text[],
                         $23::text[]) AS x(id, fq, fa, fee, frozen, status, reason)
            WHERE o.id = x.id
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM created) + (SELECT count(*) FROM changed) AS n`,
        [
          m.id,
          at,
          col(created, (o) => o.id),
          col(created, (o) => o.userId),
          col(created, (o) => o.side),
          col(created, (o) => o.type),
          col(created, (o) => o.price),
          col(created, (o) => o.qty),
          col(created, (o) => o.amount),
          col(created, (o) => o.filledQty.toFixed()),
          col(created, (o) => o.filledAmount.toFixed()),
          col(created, (o) => o.fee.toFixed()),
          col(created, (o) => o.frozen.toFixed()),
          col(created, (o) => o.status),
          col(created, (o) => o.cancelReason),
          col(created, (o) => o.seq),
          col(updated, (o) => o.id),
          col(updated, (o) => o.filledQty.toFixed()),
          col(updated, (o) => o.filledAmount.toFixed()),
          col(updated, (o) => o.fee.toFixed()),
          col(updated, (o) => o.frozen.toFixed()),
          col(updated, (o) => o.status),
          col(updated, (o) => o.cancelReason),
        ],
      );
      // The answers carry the final state of each order after the whole batch.
      for (const req of batch) {
        const out = outcome.get(req);
        if (!out || !('ok' in out)) continue;
        const o = req.kind === 'place' ? orderOf.get(req)! : changed.get(req.orderId)!;
        outcome.set(req, { ok: toApi(o) });
      }
      // Every lock this batch takes is held and every write is out: the next may take its turn.
      sent();
      return { recorded, touched: [...changed.values()] };
    }

    /**
     * The open-order limit, checked here because this desk is the market's only writer: in
     * arrival order, each limit order counts its owner's resting orders, less those cancelled
     * ahead of it in the batch, plus the limit orders accepted ahead of it (counted as resting
     * even if they will trade at once: the check is before matching, and never lets a user past
     * the limit). Refused orders freeze nothing.
     */
    private refuseOverLimit(
      batch: Request[],
      outcome: Map<Request, { ok: SpotOrder } | { err: unknown }>,
    ): void {
      const delta = new Map<number, number>();
      const cancelled = new Set<number>();
      for (const r of batch) {
        if (r.kind === 'cancel') {
          const o = this.open.get(r.orderId);
          if (o && o.userId === r.userId && !cancelled.has(o.id)) {
            cancelled.add(o.id);
            delta.set(r.userId, (delta.get(r.userId) ?? 0) - 1);
          }
          continue;
        }
        const p = r.input;
        if (p.type !== 'limit') continue;
        const n = (this.openBy.get(p.userId) ?? 0) + (delta.get(p.userId) ?? 0);
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

    /**
     * The spot accounts (both currencies) of everyone a batch may move money for, and the fee
     * accounts: whoever places or cancels, and the owners of the resting orders its orders
     * could trade with (engine.reach, from the book as the batch begins).
     */
    private accountsAtStake(batch: Request[]): AccountRef[] {
      const m = this.market;
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
        for (const owner of this.book.reach(side, w.market ? null : w.limit, w.lots, w.units, placers, gone))
          people.add(Number(owner));
      }
      const refs: AccountRef[] = [fees(m.baseCurrencyId), fees(m.quoteCurrencyId)];
      for (const u of people) refs.push(spot(u, m.baseCurrencyId), spot(u, m.quoteCurrencyId));
      return refs;
    }

    /** What a new order freezes: quote for buys (limit price × qty, the amount, or the sweep), base for sells. */
    private freezeFor(p: PlaceInput): Dec {
      const m = this.market;
      if (p.side === 'sell') return qtyOf(m, p.lots);
      if (p.type === 'limit') return amountOf(m, unitsOf(p.ticks, p.lots));
      if (p.lots === 0) return amountOf(m, p.units);
      return amountOf(m, this.book.sweepCost('buy', p.lots, p.userId).amount);
    }

    /** Applies the engine's events of one command to the orders and the postings. */
    private events(
      taker: Order,
      changed: Map<number, Order>,
      settlements: Posting[],
      trades: TradeInput[],
      tradeFills: OrderFill[][],
      now: number,
    ): void {
      const m = this.market;
      for (const e of this.log.take() as EngineEvent[]) {
        switch (e.type) {
          case 'accepted':
            taker.seq = e.seq;
            break;
          case 'fill': {
            const maker = this.open.get(Number(e.makerId))!;
            changed.set(maker.id, maker);
            const qty = qtyOf(m, e.qty);
            const value = amountOf(m, unitsOf(e.price, e.qty));
            const buyer = maker.side === 'buy' ? maker : taker;
            const seller = maker.side === 'buy' ? taker : maker;
            const rate = (o: Order) => dec(o === maker ? m.makerFee : m.takerFee);
            // Fees truncate to the currency's decimals: never more than the rate.
            const buyerFee = dec(
              truncateDecimal(qty.times(rate(buyer)).toFixed(), decimalsOf.get(m.baseCurrencyId)!),
            );
            const sellerFee = dec(
              truncateDecimal(value.times(rate(seller)).toFixed(), decimalsOf.get(m.quoteCurrencyId)!),
            );
            const q = qty.toFixed();
            const v = value.toFixed();
            settlements.push({
              reason: 'spot_fill',
              refType: 'spot_order',
              refId: taker.id,
              legs: [
                { account: spot(buyer.userId, m.quoteCurrencyId), frozen: `-${v}` },
                {
                  account: spot(seller.userId, m.quoteCurrencyId),
                  available: value.minus(sellerFee).toFixed(),
                },
                { account: fees(m.quoteCurrencyId), available: sellerFee.toFixed() },
                { account: spot(seller.userId, m.baseCurrencyId), frozen: `-${q}` },
                { account: spot(buyer.userId, m.baseCurrencyId), available: qty.minus(buyerFee).toFixed() },
                { account: fees(m.baseCurrencyId), available: buyerFee.toFixed() },
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
                time: now,
              };
              o.fills.push(fill);
              fillEntries.push(fill);
            }
            trades.push({
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
            tradeFills.push(fillEntries);
            break;
          }
          case 'rested':
            this.rest(taker);
            break;
          case 'done': {
            const o = e.id === taker.id ? taker : this.open.get(Number(e.id))!;
            changed.set(o.id, o);
            this.unrest(o);
            if (e.reason === 'filled') o.status = 'completed';
            else if (e.reason === 'unfilled' && !o.filledQty.isZero()) o.status = 'completed';
            else {
              o.status = 'cancelled';
              o.cancelReason = e.reason === 'cancelled' ? 'user' : e.reason;
            }
            o.updatedAt = now;
            if (!o.frozen.isZero()) {
              // What a finished order froze beyond what it used goes back.
              const f = o.frozen.toFixed();
              settlements.push({
                reason: 'spot_release',
                refType: 'spot_order',
                refId: o.id,
                legs: [
                  {
                    account: spot(o.userId, o.side === 'buy' ? m.quoteCurrencyId : m.baseCurrencyId),
                    available: f,
                    frozen: `-${f}`,
                  },
                ],
              });
              o.frozen = dec('0');
            }
            break;
          }
        }
      }
    }

    depth(levels: number): Depth {
      // A halted book may show orders the database does not have.
      if (this.halted) return { bids: [], asks: [] };
      const d = this.book.depth(levels);
      const conv = (l: { price: number; qty: number }) => ({
        price: priceOf(this.market, l.price).toFixed(),
        qty: qtyOf(this.market, l.qty).toFixed(),
      });
      return { bids: d.bids.map(conv), asks: d.asks.map(conv) };
    }
  }

  function desk(m: Market): Desk {
    const d = desks.get(m.id);
    if (!d) throw new AppError('NOT_FOUND', 'spot.unknownMarket', { symbol: m.symbol }, 'symbol');
    return d;
  }

  function haltedError(m: Market): AppError {
    return new AppError('CONFLICT', 'spot.marketHalted', { market: `${m.base}/${m.quote}` });
  }

  /**
   * The price band: a limit order must be priced within the market's band around its latest
   * index price (both ends on the tick grid, inside the band). Without any index tick yet there
   * is nothing to be around, and no band.
   */
  async function checkBand(m: Market, price: string): Promise<void> {
    const index = await market.currentIndex(m.id);
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

  /** The rules of spec §8 that need no book: sides, types, the grid, the minimum, the limits. */
  async function validate(userId: number, body: PlaceOrderBody): Promise<PlaceInput> {
    const sideIn = (body.side ?? '').trim().toLowerCase();
    if (sideIn !== 'buy' && sideIn !== 'sell') throw invalid('spot.sideInvalid', 'side');
    const side: OrderSide = sideIn;
    const typeIn = (body.type ?? '').trim().toLowerCase() || 'limit';
    if (typeIn !== 'limit' && typeIn !== 'market') throw invalid('spot.typeInvalid', 'type');
    const type: OrderType = typeIn;
    if (!body.symbol?.trim()) throw invalid('spot.symbolRequired', 'symbol');
    let m: Market;
    try {
      m = await market.market(body.symbol);
    } catch {
      throw new AppError('NOT_FOUND', 'spot.unknownMarket', { symbol: body.symbol.slice(0, 30) }, 'symbol');
    }
    if (desk(m).halted) throw haltedError(m);
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
      await checkBand(m, price);
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
    // quantity is checked against what it would trade now (in the batch, see below).
    const minimum = dec(m.minAmount);
    const value = type === 'limit' ? amountOf(m, unitsOf(ticks, lots)) : amount !== null ? dec(amount) : null;
    if (value?.lt(minimum))
      throw new AppError(
        'AMOUNT_BELOW_MINIMUM',
        'spot.belowMinimum',
        { min: m.minAmount, currency: m.quote },
        type === 'limit' ? 'qty' : 'amount',
      );
    if (value === null) {
      // Priced at the best opposite price of the book as it stands.
      const d = desk(m);
      const cost = d.book.sweepCost(side === 'buy' ? 'buy' : 'sell', lots, userId);
      if (cost.qty > 0 && amountOf(m, cost.amount).lt(minimum))
        throw new AppError(
          'AMOUNT_BELOW_MINIMUM',
          'spot.belowMinimum',
          { min: m.minAmount, currency: m.quote },
          'qty',
        );
    }
    return { userId, market: m, side, type, price, qty, amount, ticks, lots, units };
  }

  async function orderFills(ids: number[]): Promise<Map<number, OrderFill[]>> {
    const out = new Map<number, OrderFill[]>();
    if (ids.length === 0) return out;
    const rows = await db.query<{
      id: string;
      maker_order_id: string | null;
      taker_order_id: string | null;
      taker_side: OrderSide;
      price: string;
      qty: string;
      amount: string;
      maker_fee: string;
      taker_fee: string;
      t: string;
      market_id: number;
    }>(
      `SELECT id::text, maker_order_id::text, taker_order_id::text, taker_side, price::text, qty::text,
              amount::text, maker_fee::text, taker_fee::text, market_id,
              (extract(epoch FROM created_at) * 1000)::bigint::text AS t
         FROM trades WHERE maker_order_id = ANY($1::bigint[]) OR taker_order_id = ANY($1::bigint[])
        ORDER BY trades.id`,
      [ids],
    );
    const wanted = new Set(ids);
    const ms = await market.allMarkets();
    for (const r of rows) {
      const m = ms.find((x) => x.id === r.market_id)!;
      for (const role of ['maker', 'taker'] as const) {
        const oid = Number(role === 'maker' ? r.maker_order_id : r.taker_order_id);
        if (!wanted.has(oid)) continue;
        const side: OrderSide = role === 'taker' ? r.taker_side : r.taker_side === 'buy' ? 'sell' : 'buy';
        const list = out.get(oid) ?? [];
        list.push({
          id: r.id,
          price: canon(r.price),
          qty: canon(r.qty),
          amount: canon(r.amount),
          fee: canon(role === 'maker' ? r.maker_fee : r.taker_fee),
          fee_currency: feeCurrency(m, side),
          role,
          time: Number(r.t),
        });
        out.set(oid, list);
      }
    }
    return out;
  }

  /** The desk an open order of this user rests on, or undefined (unknown, finished, or someone else's). */
  function deskOfOpen(userId: number, orderId: number): Desk | undefined {
    const d = where.get(orderId);
    return d && d.open.get(orderId)?.userId === userId ? d : undefined;
  }

  /** Queues a placement on its market's desk; answered after the batch's commit. */
  const queuePlace = (input: PlaceInput) =>
    new Promise<SpotOrder>((resolve, reject) =>
      desk(input.market).enqueue({ kind: 'place', input, resolve, reject }),
    );

  /** Queues a cancel on the desk the order rests on; answered after the batch's commit. */
  const queueCancel = (d: Desk, userId: number, orderId: number) =>
    new Promise<SpotOrder>((resolve, reject) =>
      d.enqueue({ kind: 'cancel', userId, orderId, resolve, reject }),
    );

  const service = {
    /** Loads the markets and rebuilds every book from the open orders (recovery). */
    start(): Promise<void> {
      ready ??= (async () => {
        for (const r of await db.query<{ id: number; decimals: number }>(
          'SELECT id, decimals FROM currencies',
        ))
          decimalsOf.set(r.id, r.decimals);
        for (const m of await market.allMarkets()) {
          const d = new Desk(m);
          await d.restore();
          desks.set(m.id, d);
        }
        market.setDepthProvider((m, levels) => desks.get(m.id)?.depth(levels) ?? { bids: [], asks: [] });
      })();
      return ready;
    },

    /** Waits for every queued request to be answered, then refuses new ones. */
    async stop(): Promise<void> {
      closed = true;
      for (const d of desks.values()) d.stopReloading();
      await Promise.all([...desks.values()].map((d) => d.idle()));
    },

    async place(userId: number, body: PlaceOrderBody): Promise<SpotOrder> {
      await service.start();
      const input = await validate(userId, body);
      if (closed) throw new AppError('CONFLICT', 'spot.retry');
      return queuePlace(input);
    },

    async cancel(userId: number, body: CancelOrderBody): Promise<SpotOrder> {
      await service.start();
      const s = (body.id ?? '').trim();
      if (!/^\d{1,15}$/.test(s)) throw invalid('spot.orderIdInvalid', 'id');
      const orderId = Number(s);
      const d = deskOfOpen(userId, orderId);
      if (!d) {
        const [row] = await db.query<{ user_id: number; status: OrderStatus; market_id: number }>(
          'SELECT user_id, status, market_id FROM spot_orders WHERE id = $1',
          [orderId],
        );
        // Someone else's order is answered as unknown: ids are not a way to learn about others.
        if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND', 'spot.orderNotFound', {}, 'id');
        const halted = [...desks.values()].find((x) => x.market.id === row.market_id && x.halted);
        if (halted) throw haltedError(halted.market);
        throw new AppError('CONFLICT', 'spot.orderFinished', {}, 'id');
      }
      if (d.halted) throw haltedError(d.market);
      if (closed) throw new AppError('CONFLICT', 'spot.retry');
      return queueCancel(d, userId, orderId);
    },

    /**
     * Cancels some of a user's open orders and places new ones in one batch, the cancels first:
     * the market maker's requote, so its quotes never leave the book between the two. Answers
     * every request as `Promise.allSettled` would, the cancels then the places.
     */
    async replace(
      userId: number,
      cancelIds: readonly number[],
      bodies: readonly PlaceOrderBody[],
    ): Promise<PromiseSettledResult<SpotOrder>[]> {
      await service.start();
      const inputs = await Promise.allSettled(bodies.map((b) => validate(userId, b)));
      if (closed) throw new AppError('CONFLICT', 'spot.retry');
      // No await from here on: every request joins its desk's queue in this order, together.
      const answers: Promise<SpotOrder>[] = [];
      for (const orderId of cancelIds) {
        const d = deskOfOpen(userId, orderId);
        answers.push(
          d
            ? queueCancel(d, userId, orderId)
            : Promise.reject(new AppError('CONFLICT', 'spot.orderFinished', {}, 'id')),
        );
      }
      for (const r of inputs)
        answers.push(r.status === 'fulfilled' ? queuePlace(r.value) : Promise.reject(r.reason));
      return Promise.allSettled(answers);
    },

    /** Resting orders of a user on a market (the market maker refreshes its quotes with it). */
    openOrders(userId: number, marketId: number): { id: number; side: OrderSide; price: string }[] {
      const d = desks.get(marketId);
      if (!d || d.halted) return [];
      return [...d.open.values()]
        .filter((o) => o.userId === userId)
        .map((o) => ({ id: o.id, side: o.side, price: o.price! }));
    },

    async list(userId: number, query: OrderListQuery): Promise<SpotOrderPage> {
      const paging = parsePaging(query);
      const statuses = (query.status ?? '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean);
      for (const s of statuses)
        if (!(ORDER_STATUSES as readonly string[]).includes(s)) throw invalid('spot.statusInvalid', 'status');
      const ms = await market.allMarkets();
      let marketId: number | null = null;
      if (query.symbol?.trim()) {
        const m = await market.market(query.symbol).catch(() => {
          throw new AppError(
            'NOT_FOUND',
            'spot.unknownMarket',
            { symbol: query.symbol!.slice(0, 30) },
            'symbol',
          );
        });
        marketId = m.id;
      }
      const params = [userId, statuses.length ? statuses : [...ORDER_STATUSES], marketId];
      const where = 'WHERE user_id = $1 AND status = ANY($2::text[]) AND ($3::int IS NULL OR market_id = $3)';
      const { rows, total } = await pageOf<OrderRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM spot_orders ${where}`,
          list: `SELECT ${ORDER_COLUMNS} FROM spot_orders ${where} ORDER BY spot_orders.id DESC`,
        },
        params,
        paging,
      );
      const fills = await orderFills(rows.map((r) => Number(r.id)));
      const list = rows.map((r) => {
        const o = fromRow(r, ms.find((m) => m.id === r.market_id)!);
        o.fills = fills.get(o.id) ?? [];
        return toApi(o);
      });
      return { list, page: paging.page, limit: paging.limit, total };
    },

    /** Whether a market is halted until its book can be read back (see Desk.halted). */
    halted(marketId: number): boolean {
      return desks.get(marketId)?.halted ?? false;
    },

    /** Every queued request answered (tests). */
    async idle(): Promise<void> {
      await Promise.all([...desks.values()].map((d) => d.idle()));
    },

    /** A market's book in engine units (tests compare books across restarts). */
    depthOf(marketId: number, levels = 1000): Depth {
      return desks.get(marketId)?.depth(levels) ?? { bids: [], asks: [] };
    },
  };
  return service;
}

declare module 'fastify' {
  interface FastifyInstance {
    spot: SpotService;
  }
}
