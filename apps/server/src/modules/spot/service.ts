import type {
  CancelOrderBody,
  Depth,
  OrderListQuery,
  OrderSide,
  PlaceOrderBody,
  SpotOrder,
  SpotOrderPage,
} from '@verdant/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { parsePaging } from '../../db/paging.ts';
import { AppError } from '../../http/errors.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import type { Market, MarketService } from '../market/service.ts';
import { sweepCostOn } from './book-grid.ts';
import { Desk } from './desk.ts';
import { type PlaceInput, toApi } from './order.ts';
import { Turns } from './pipeline.ts';
import { createOrderStore } from './store.ts';
import {
  checkPlace,
  haltedError,
  parseKind,
  parseOrderId,
  parseStatuses,
  unknownMarket,
} from './validation.ts';

export type SpotService = ReturnType<typeof createSpotService>;

/**
 * Spot orders. Each market has one in-memory order book and one writer, its desk (desk.ts):
 * requests are validated here (validation.ts, pure), queue on the desk (pipeline.ts), and a
 * batch runs the engine and settlement (settlement.ts, pure) between one transaction's reads
 * and writes (store.ts, the ledger, the market's trades), then one commit answers them all.
 */
export function createSpotService(
  ctx: AppContext,
  market: MarketService,
  io: Server,
  log: FastifyBaseLogger,
  opts: {
    /**
     * One process of a cluster: no book is read at start; each is written here only between
     * `adopt` and `abandon` (cluster/spot.ts hands the others' commands to their owners).
     */
    clustered?: boolean;
  } = {},
) {
  const { db } = ctx;
  const store = createOrderStore(db);
  const desks = new Map<number, Desk>();
  /** Which market each resting order is on (cancel finds its desk). */
  const where = new Map<number, Desk>();
  const turns = new Turns();
  let ready: Promise<void> | null = null;
  let closed = false;
  const deps = { db, store, market, io, log, turns, where, closed: () => closed };

  function desk(m: Market): Desk {
    const d = desks.get(m.id);
    if (!d) throw new AppError('NOT_FOUND', 'spot.unknownMarket', { symbol: m.symbol }, 'symbol');
    return d;
  }

  /** A market another process writes (or is taking over): nothing was done, try again. */
  const elsewhere = () => new AppError('UNAVAILABLE', 'errors.tryAgain');

  /** The rules of spec §8 that need no batch, with what they look up: the market, its index, its book. */
  async function validate(userId: number, body: PlaceOrderBody): Promise<PlaceInput> {
    const kind = parseKind(body);
    let m: Market;
    try {
      m = await market.market(kind.symbol);
    } catch {
      throw unknownMarket(kind.symbol);
    }
    const d = desk(m);
    if (!d.takes) throw elsewhere();
    if (d.halted) throw haltedError(m);
    // Read ahead for a limit order, and handed over as it came out: a failed read is thrown
    // where the band is checked, so errors found before it still come first.
    const index =
      kind.type === 'limit'
        ? await market.currentIndex(m.id).then(
            (v) => () => v,
            (e) => () => {
              throw e;
            },
          )
        : () => null;
    return checkPlace(userId, kind, body, m, {
      index,
      sweepCost: (side, lots, owner) => sweepCostOn(d.book, d.market, m, side, lots, owner),
    });
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

  /** Opens a desk for every market that has none yet (alone: its book read from the open orders). */
  async function openDesks(): Promise<Market[]> {
    const currencies = await currenciesById(db);
    const decimals = (id: number) => currencies.get(id)!.decimals;
    const added: Market[] = [];
    for (const m of await market.allMarkets()) {
      if (desks.has(m.id) || closed) continue;
      const d = new Desk(m, { base: decimals(m.baseCurrencyId), quote: decimals(m.quoteCurrencyId) }, deps);
      if (opts.clustered) d.owned = false;
      else await d.restore();
      desks.set(m.id, d);
      added.push(m);
    }
    return added;
  }
  /** One opening at a time: a reload during the start (or another reload) opens each desk once. */
  let opening: Promise<unknown> = Promise.resolve();
  const serially = <T>(f: () => Promise<T>): Promise<T> => {
    const p = opening.then(f, f);
    opening = p.catch(() => {});
    return p;
  };

  const service = {
    /**
     * An operator changed markets (fees, tick, lot): each book takes the new values between two
     * batches; resting orders keep their price and quantity (Desk.reconfigure).
     */
    async reconfigure(): Promise<void> {
      for (const m of await market.allMarkets()) desks.get(m.id)?.reconfigure(m);
    },

    /** Loads the markets and rebuilds every book from the open orders (recovery). */
    start(): Promise<void> {
      ready ??= serially(async () => {
        await openDesks();
        market.setDepthProvider((m, levels) => desks.get(m.id)?.depth(levels) ?? { bids: [], asks: [] });
      });
      return ready;
    },

    /**
     * Opens the books of markets added since the start (a launched coin's market): answers them.
     * Called after `market.added` (app.ts; in a cluster cluster/spot.ts then runs their jobs).
     */
    async addMarkets(): Promise<Market[]> {
      await service.start();
      return serially(openDesks);
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
      const orderId = parseOrderId(body.id);
      const d = deskOfOpen(userId, orderId);
      if (!d) {
        const row = await store.owner(orderId);
        // Someone else's order is answered as unknown: ids are not a way to learn about others.
        if (!row || row.user_id !== userId) throw new AppError('NOT_FOUND', 'spot.orderNotFound', {}, 'id');
        if (desks.get(row.market_id)?.takes === false) throw elsewhere();
        const halted = [...desks.values()].find((x) => x.market.id === row.market_id && x.halted);
        if (halted) throw haltedError(halted.market);
        throw new AppError('CONFLICT', 'spot.orderFinished', {}, 'id');
      }
      if (!d.takes) throw elsewhere();
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
          d?.takes
            ? queueCancel(d, userId, orderId)
            : Promise.reject(d ? elsewhere() : new AppError('CONFLICT', 'spot.orderFinished', {}, 'id')),
        );
      }
      for (const r of inputs)
        answers.push(r.status === 'fulfilled' ? queuePlace(r.value) : Promise.reject(r.reason));
      return Promise.allSettled(answers);
    },

    /**
     * Resting orders of a user on a market (the market maker refreshes its quotes with it).
     * A promise: in a cluster the book may be another process's (cluster/spot.ts asks it).
     */
    async openOrders(
      userId: number,
      marketId: number,
    ): Promise<{ id: number; side: OrderSide; price: string }[]> {
      const d = desks.get(marketId);
      if (d && !d.takes) throw elsewhere();
      if (!d || d.halted) return [];
      return [...d.open.values()]
        .filter((o) => o.userId === userId)
        .map((o) => ({ id: o.id, side: o.side, price: o.price! }));
    },

    async list(userId: number, query: OrderListQuery): Promise<SpotOrderPage> {
      const paging = parsePaging(query);
      const statuses = parseStatuses(query.status);
      const ms = await market.allMarkets();
      let marketId: number | null = null;
      if (query.symbol?.trim()) {
        const m = await market.market(query.symbol).catch(() => {
          throw unknownMarket(query.symbol!);
        });
        marketId = m.id;
      }
      const { orders, total } = await store.page(userId, { statuses, marketId }, paging, ms);
      return { list: orders.map(toApi), page: paging.page, limit: paging.limit, total };
    },

    /** Whether this process writes the market's book (always, alone; see Desk.owned). */
    owns(marketId: number): boolean {
      return desks.get(marketId)?.takes ?? false;
    },

    /** In a cluster: this process takes the market's book, its writer token raised (cluster/spot.ts). */
    async adopt(marketId: number, token: string): Promise<void> {
      await service.start();
      const d = desks.get(marketId);
      if (!d) throw new Error(`spot: no market ${marketId}`);
      await d.adopt(token);
    },

    /** In a cluster: this process stops writing the market's book (its batches under way end). */
    async abandon(marketId: number): Promise<void> {
      await desks.get(marketId)?.abandon();
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

// read by the operators' console (modules/admin)
export { userSpotOrders } from './operator-reads.ts';
