import { type Depth, SpotEvents } from '@verdant/api';
import { EventLog, OrderBook } from '@verdant/engine';
import type { Queryable } from '../../db/client.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { LedgerBatch } from '../../ledger/ledger.ts';
import { userRoom } from '../../realtime/index.ts';
import type { Market, RecordedTrades } from '../market/service.ts';
import { rebatePostings } from '../referral/index.ts';
import { bookOf, depthOf, gridFor, onGrid, regrid } from './book-grid.ts';
import { type DeskDeps, isTransient } from './desk-deps.ts';
import {
  newOrder,
  type Order,
  type Outcome,
  type PlaceRequest,
  placeOnBook,
  type Request,
  toApi,
} from './order.ts';
import { BatchQueue, type InFlight, signal } from './pipeline.ts';
import {
  accountsAtStake,
  emptySettlement,
  feeCharges,
  freezeFor,
  freezePosting,
  releasePosting,
  type SettleContext,
  settle,
} from './settlement.ts';
import { haltedError, refuseOverLimit } from './validation.ts';

/**
 * A halted market (its book could not be read back after a failed batch) tries to reload every
 * RELOAD_FIRST_MS, doubling up to RELOAD_MAX_MS: soon after the database is back, without
 * hammering it while it is not.
 */
const RELOAD_FIRST_MS = 250;
const RELOAD_MAX_MS = 5000;

/** Thrown inside a batch's transaction when the batch before it failed: roll back, run again. */
const STEPPED_BACK = new Error('spot: the batch before failed');

/** The writer token check (migration 0012): another process owns this market now. */
const FENCED = 'VF001';

/**
 * One market's single writer: its in-memory book and resting orders, and the batches that
 * change them. A batch runs the pure part (validation of the open-order limit, the engine,
 * settlement) between the I/O: accounts locked and funds frozen before, then every write sent
 * at once and one commit. If a transaction fails, the book is rebuilt from the database (and a
 * batch already waiting behind it runs again), so memory never keeps what was not committed.
 */
export class Desk {
  book: OrderBook;
  readonly log = new EventLog();
  /** Resting orders. */
  readonly open = new Map<number, Order>();
  /** Resting orders per user (the open-order limit is checked against it). */
  readonly openBy = new Map<number, number>();
  /**
   * Set when a failed batch's book could not be read back: memory may hold what the
   * database rolled back, so nothing is matched, placed or cancelled here (and no depth is
   * shown) until a reload succeeds.
   */
  halted = false;
  /** The engine's sequence must not go back below what the failed batch handed out. */
  private haltSeq = 0;
  /**
   * Whether this process writes this market's book. Always, alone; in a cluster only between
   * `adopt` and `abandon` (cluster/spot.ts), and never after a batch found its token fenced out.
   * A batch that begins while it is false answers "try again" and changes nothing.
   */
  owned = true;
  /** Set while `abandon` lets the requests already queued run: new ones are refused. */
  private leaving = false;
  /** In a cluster: the writer token every batch checks in its transaction (null: alone). */
  private fence: string | null = null;
  /** Set when a batch's token check failed: another process took the market. */
  private fencedOut = false;
  private reloadTimer: NodeJS.Timeout | null = null;
  private readonly queue: BatchQueue<Request>;
  /** The market as an operator last configured it, until the book takes it (`reconfigure`). */
  private pending: Market | null = null;

  constructor(
    /** The market on the book's grid (book-grid.ts): the configured one, or a finer step. */
    public market: Market,
    /** Decimals of the base and quote currencies: fees truncate to them. */
    private readonly decimals: { base: number; quote: number },
    private readonly deps: DeskDeps,
  ) {
    this.book = new OrderBook(this.log);
    this.queue = new BatchQueue((batch, previous, me, sent) => this.run(batch, previous, me, sent));
  }

  enqueue(r: Request): void {
    this.queue.enqueue(r);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Rebuilds the book from the database's open orders, in time priority. Read and built
   * aside first: if either fails, the desk is left as it was (the caller halts it).
   */
  async restore(q: Queryable = this.deps.db): Promise<void> {
    const configured = this.pending ?? this.market;
    const orders = await this.deps.store.openOrders(q, configured);
    const grid = gridFor(configured, orders);
    const { book } = bookOf(this.log, orders, grid);
    const open = new Map<number, Order>();
    for (const o of orders) {
      o.market = grid;
      open.set(o.id, o);
    }
    for (const id of this.open.keys()) this.deps.where.delete(id);
    this.open.clear();
    this.openBy.clear();
    for (const o of open.values()) this.rest(o);
    this.book = book;
    this.market = grid;
    if (this.pending === configured) this.pending = null;
  }

  /**
   * An operator changed the market (fees, tick, lot...): new orders are checked against the new
   * values at once; the book takes them between two batches, rebuilt in memory on a grid that
   * still holds every resting order as it was placed (their prices and quantities never change).
   */
  reconfigure(m: Market): void {
    this.pending = m;
    if (!this.queue.busy) this.takePending();
  }

  /** The pending configuration, when no batch computes (the caller makes sure of it). */
  private takePending(): void {
    const m = this.pending;
    this.pending = null;
    const next = m && regrid(m, [...this.open.values()], this.log, this.book, this.halted || !this.owned);
    if (next instanceof Error)
      this.deps.log.error({ err: next, market: m!.symbol }, 'spot: new grid refused');
    // a halted book, or one a new grid refused, takes the values at its next restore
    if (m && (this.halted || next instanceof Error)) this.pending = m;
    if (!next || next instanceof Error) return;
    this.market = next.market;
    this.book = next.book ?? this.book;
  }

  private rest(o: Order): void {
    this.open.set(o.id, o);
    this.deps.where.set(o.id, this);
    this.openBy.set(o.userId, (this.openBy.get(o.userId) ?? 0) + 1);
  }

  private unrest(o: Order): void {
    if (!this.open.delete(o.id)) return;
    this.deps.where.delete(o.id);
    const n = (this.openBy.get(o.userId) ?? 1) - 1;
    if (n > 0) this.openBy.set(o.userId, n);
    else this.openBy.delete(o.userId);
  }

  /** Stops the market until the book is read back; retries with back-off (see RELOAD_FIRST_MS). */
  private halt(seq: number): void {
    const { log, market } = this.deps;
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
      if (this.deps.closed()) return;
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
          if (!this.deps.closed()) this.reloadTimer = setTimeout(attempt, wait);
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
    const { db, log, market, io } = this.deps;
    const outcome = new Map<Request, Outcome>();
    let recorded: Promise<RecordedTrades> = Promise.resolve({ trades: [], candles: [] });
    let touched: Order[] = [];
    let before = previous.committed;
    const lastSeq = this.book.lastSeq;
    let committed!: (ok: boolean) => void;
    for (let attempt = 1; ; ) {
      if (!this.owned || this.fencedOut) {
        // Another process writes this book now (or is about to): nothing of this batch was done.
        for (const req of batch) req.reject(new AppError('UNAVAILABLE', 'errors.tryAgain'));
        return;
      }
      if (this.halted) {
        // The book may disagree with the database: nothing of this batch was done.
        for (const req of batch) req.reject(haltedError(this.market));
        return;
      }
      const attemptCommitted = signal<boolean>();
      me.committed = attemptCommitted.promise;
      committed = attemptCommitted.resolve;
      const release = await this.deps.turns.take();
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
        if (this.fencedOut) {
          // Rolled back whole; the book in memory is no longer this process's to keep.
          if (this.owned)
            log.warn(
              { market: this.market.symbol },
              'spot: another process took this market (writer token changed): its batches here are refused',
            );
          this.owned = false;
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
    outcome: Map<Request, Outcome>,
    before: Promise<boolean>,
    sent: () => void,
  ): Promise<{ recorded: Promise<RecordedTrades>; touched: Order[] }> {
    const { store, market, log } = this.deps;
    let m = this.market;
    const now = Date.now();
    refuseOverLimit(batch, this.open, this.openBy, outcome);
    const places = batch.filter((r): r is PlaceRequest => r.kind === 'place' && !outcome.has(r));

    // 1. Every account the batch may touch, locked in one statement: the placers', the fee
    //    accounts, and the owners of the resting orders the batch could reach (engine.reach,
    //    a superset). A maker missed would still be locked when its fill is posted, by one
    //    more statement.
    const ledger = new LedgerBatch(q);
    if (this.fence !== null) {
      // First in the transaction, pipelined with the locks: fails the whole batch when another
      // process has taken the market, and holds its row FOR SHARE so a taker waits for this
      // commit before it reads the open orders.
      const token = this.fence;
      q.query('SELECT spot_writer_check($1, $2)', [m.id, token]).catch((e: { code?: string }) => {
        if (e?.code === FENCED && this.fence === token) this.fencedOut = true;
      });
    }
    await ledger.lock(accountsAtStake(m, this.book, batch));
    const ids = await store.takeIds(q, 'spot_orders', places.length);
    // The batch before may still be committing: the balances just read are after it (its
    // locked rows were waited for), but the book must be too.
    if (!(await before)) throw STEPPED_BACK;
    // Every batch before has committed: the book may take an operator's new values now.
    this.takePending();
    m = this.market;
    for (const req of places) {
      const input = onGrid(req.input, m);
      if (input instanceof Error) outcome.set(req, { err: input });
      else req.input = input;
    }
    const orderOf = new Map<Request, Order>();
    const freezes: { order: Order; posting: NonNullable<ReturnType<typeof freezePosting>> }[] = [];
    places.forEach((req, i) => {
      if (outcome.has(req)) return;
      const order = newOrder(ids[i]!, m, req.input, freezeFor(m, req.input, this.book), now);
      orderOf.set(req, order);
      const posting = freezePosting(order);
      if (posting) freezes.push({ order, posting });
    });
    // The funds each new order freezes; the ledger reports who is short.
    const frozenResults = await ledger.post(freezes.map((f) => f.posting));
    const short = new Set<Order>();
    freezes.forEach((f, i) => {
      if (!frozenResults[i]!.ok) short.add(f.order);
    });

    // 2. The engine, request by request, in arrival order; settlement turns its events into
    //    postings, trades and the orders' new state.
    const created: Order[] = [];
    const s = emptySettlement();
    const ctx: SettleContext = {
      market: m,
      baseDecimals: this.decimals.base,
      quoteDecimals: this.decimals.quote,
      now,
      resting: (id) => this.open.get(id)!,
      rest: (o) => this.rest(o),
      unrest: (o) => this.unrest(o),
    };
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
        const reject = placeOnBook(this.book, this.market, order, req.input);
        if (reject !== null) {
          // The engine refused it (a book total would pass its integer range): this order
          // alone fails, its freeze is given back in this same transaction, the batch goes on.
          log.warn({ order: order.id, reject }, 'spot: engine refused an order');
          const release = releasePosting(order);
          if (release) s.postings.push(release);
          this.log.take();
          outcome.set(req, { err: invalid('spot.tooLarge', 'qty') });
          continue;
        }
        created.push(order);
        s.changed.set(order.id, order);
        settle(this.log.take(), order, ctx, s);
        outcome.set(req, { ok: toApi(order) });
      } else {
        const order = this.open.get(req.orderId);
        if (!order || order.userId !== req.userId) {
          outcome.set(req, { err: new AppError('CONFLICT', 'spot.orderFinished', {}, 'id') });
          continue;
        }
        const reject = this.book.cancel(order.id);
        if (reject !== null) throw new Error(`spot: engine refused cancel ${order.id}: ${reject}`);
        s.changed.set(order.id, order);
        settle(this.log.take(), order, ctx, s);
        outcome.set(req, { ok: toApi(order) });
      }
    }

    // 3. The postings go to the ledger in memory; then every write of the batch leaves without
    //    waiting for the one before (trades and candles, the ledger, the orders), and db.tx
    //    sends COMMIT right behind them: one round trip.
    const tradeIds = await store.takeIds(q, 'trades', s.trades.length);
    s.trades.forEach((t, i) => {
      t.id = tradeIds[i]!;
      for (const fill of s.tradeFills[i]!) fill.id = String(t.id);
    });
    // the payers' referrers get their rebates out of these fees: one query for the batch
    s.postings.push(...(await rebatePostings(q, feeCharges(m, s.trades))));
    const settled = await ledger.post(s.postings);
    const bad = settled.findIndex((r) => !r.ok);
    if (bad >= 0) throw new Error(`spot: settlement '${s.postings[bad]!.reason}' would overdraw an account`);
    const writeTrades = await market.prepareTrades(q, s.trades);
    // Sent in this order before apply returns, nothing awaited: db.tx awaits each of them
    // with the COMMIT and fails the batch if any failed (the catches only keep a failure from
    // counting as unhandled before that).
    const recorded = writeTrades();
    recorded.catch(() => {});
    ledger.write().catch(() => {});
    const createdIds = new Set(created.map((o) => o.id));
    const updated = [...s.changed.values()].filter((o) => !createdIds.has(o.id));
    store.writeBatch(q, m.id, now, created, updated);
    // The answers carry the final state of each order after the whole batch.
    for (const req of batch) {
      const out = outcome.get(req);
      if (!out || !('ok' in out)) continue;
      const o = req.kind === 'place' ? orderOf.get(req)! : s.changed.get(req.orderId)!;
      outcome.set(req, { ok: toApi(o) });
    }
    // Every lock this batch takes is held and every write is out: the next may take its turn.
    sent();
    return { recorded, touched: [...s.changed.values()] };
  }

  /**
   * A cluster's process takes this market (cluster/spot.ts): with `token` already raised in
   * market_writers (so the last owner's batches have committed or will fail), the book is read
   * from the open orders and batches run here, each checking the token.
   */
  async adopt(token: string): Promise<void> {
    this.owned = false;
    await this.idle();
    this.stopReloading();
    this.fence = token;
    this.fencedOut = false;
    await this.restore();
    this.halted = false;
    this.owned = true;
    this.deps.market.publishDepth(this.market.symbol);
  }

  /** Whether new requests may join this desk's queue (owned, and not being handed on). */
  get takes(): boolean {
    return this.owned && !this.leaving;
  }

  /**
   * This process stops writing the market: new requests are refused ("try again"), those
   * already queued run to their commit (the token is still this process's), and the book is
   * dropped from memory.
   */
  async abandon(): Promise<void> {
    this.leaving = true;
    try {
      await this.idle();
    } finally {
      this.leaving = false;
      this.owned = false;
    }
    this.stopReloading();
    for (const id of this.open.keys()) this.deps.where.delete(id);
    this.open.clear();
    this.openBy.clear();
    this.log.take();
    this.book = new OrderBook(this.log);
  }

  depth(levels: number): Depth {
    // A halted book may show orders the database does not have; a book owned elsewhere is not this one.
    return this.halted || !this.owned ? { bids: [], asks: [] } : depthOf(this.book, this.market, levels);
  }
}
