import type { CancelOrderBody, Depth, PlaceOrderBody, SpotOrder } from '@verdant/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/errors.ts';
import type { Jobs } from '../jobs/singleton.ts';
import type { Market } from '../modules/market/markets.ts';
import type { MarketService } from '../modules/market/service.ts';
import type { SpotService } from '../modules/spot/service.ts';
import { type Bus, NoSuchNode, NotHere, OutcomeUnknown } from './bus.ts';

/**
 * One writer per market across a cluster. Each market's book is a singleton job (`spot:<symbol>`,
 * jobs/singleton.ts): the process that takes it raises the market's token in `market_writers`
 * (waiting for the last owner's batches still committing), rebuilds the book from the open
 * orders, and from then on every batch checks the token inside its own transaction, so a batch
 * of a process that lost the market fails and changes nothing (migration 0012).
 *
 * Any process accepts any request: `routeSpot` answers a spot service whose commands run here
 * when this process owns the market, and are otherwise handed to the owner over the bus (Redis
 * request/reply, see bus.ts) and answered with the owner's answer. Who owns what is kept in a
 * Redis hash and announced on the bus at each change. A command whose owner dies before
 * answering is answered 503 "outcome unknown: check your orders" (it is either committed whole
 * or not at all: the batch is one transaction).
 */

/** How long a forwarded command may take: a batch takes milliseconds, a takeover seconds. */
const FORWARD_TIMEOUT_MS = 15_000;
/** While a market has no owner (its owner just died), how long a command waits for the next. */
const OWNER_WAIT_MS = 5_000;

export interface MarketOwner {
  market: string;
  node: string | null;
  token: string | null;
  since: string | null;
}

export interface ClusterSpot {
  /** The spot service every route and the market maker use. */
  spot: SpotService;
  /** Which process owns each market, from the database (the operator endpoint). */
  owners(): Promise<MarketOwner[]>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function clusterSpot(opts: {
  local: SpotService;
  market: MarketService;
  bus: Bus;
  jobs: Jobs;
  db: Db;
  log: FastifyBaseLogger;
}): Promise<ClusterSpot> {
  const { local, market, bus, jobs, db, log } = opts;
  const hash = `${bus.prefix}spot-owners`;
  /** Market id → the process that owns it, as last heard. */
  const ownerOf = new Map<number, string>();
  for (const [id, node] of Object.entries(await bus.redis.hgetall(hash))) ownerOf.set(Number(id), node);
  bus.onBroadcast('spot-owner', (data) => {
    const { marketId, node } = data as { marketId: number; node: string };
    ownerOf.set(marketId, node);
  });

  // ---- ownership -----------------------------------------------------------------------------

  const takeMarket = async (m: Market) => {
    // Waits for the last owner's batches (they hold the row FOR SHARE) and fences out any later.
    const [row] = await db.query<{ token: string }>(
      `INSERT INTO market_writers (market_id, token, node) VALUES ($1, 1, $2)
       ON CONFLICT (market_id) DO UPDATE SET token = market_writers.token + 1, node = $2, taken_at = now()
       RETURNING token::text`,
      [m.id, bus.nodeId],
    );
    const token = row!.token;
    await local.adopt(m.id, token);
    ownerOf.set(m.id, bus.nodeId);
    // Announced to the others; this process owns the market whether or not Redis hears it (the
    // others ask the hash again while they wait).
    const announced = await Promise.all([
      bus.redis.hset(hash, String(m.id), bus.nodeId),
      bus.broadcast('spot-owner', { marketId: m.id, node: bus.nodeId }),
    ]).then(
      () => true,
      () => false,
    );
    if (!announced)
      log.error({ market: m.symbol }, `market ${m.symbol}: could not announce its new owner on Redis`);
    log.info(
      { market: m.symbol, node: bus.nodeId, token },
      `market ${m.symbol}: this process (${bus.nodeId}) owns the order book now (writer token ${token})`,
    );
    return async () => {
      await local.abandon(m.id);
      // no longer named as its owner (unless a successor already is): nothing stale is left behind
      await bus.redis
        .eval(
          "if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0",
          1,
          hash,
          String(m.id),
          bus.nodeId,
        )
        .catch(() => {});
      log.warn(
        { market: m.symbol, node: bus.nodeId },
        `market ${m.symbol}: this process no longer owns the order book`,
      );
    };
  };
  const runBooks = async () => {
    for (const m of await market.allMarkets()) jobs.runSingleton(`spot:${m.symbol}`, () => takeMarket(m));
  };
  await runBooks();
  // A market added while the cluster runs (a launch, here or on another process: app.ts relays
  // the reload) gets its desk on every process and its book's job, which one process takes.
  market.onAdded(() => {
    void local
      .addMarkets()
      .then(runBooks)
      .catch((err) => log.error({ err }, 'spot: a new market could not be opened'));
  });

  // ---- handing commands to the owner -----------------------------------------------------------

  /** Runs `here` when this process owns the market, else asks its owner to run `method`. */
  async function onOwner<T>(
    marketId: number,
    method: string,
    args: unknown,
    here: () => Promise<T>,
  ): Promise<T> {
    const deadline = Date.now() + OWNER_WAIT_MS;
    for (;;) {
      if (local.owns(marketId)) return here();
      const node = ownerOf.get(marketId);
      if (node && node !== bus.nodeId) {
        try {
          return await bus.request<T>(node, method, args, {
            timeoutMs: FORWARD_TIMEOUT_MS,
            gone: () => ownerOf.get(marketId) !== node,
          });
        } catch (e) {
          if (e instanceof OutcomeUnknown) throw new AppError('UNAVAILABLE', 'spot.outcomeUnknown');
          if (e instanceof AppError) throw e;
          // Redis unreachable: nothing was sent
          if (!(e instanceof NoSuchNode)) throw new AppError('UNAVAILABLE', 'errors.tryAgain');
          // that process is gone and nothing was sent: wait for the next owner
        }
      }
      if (Date.now() > deadline) throw new AppError('UNAVAILABLE', 'errors.tryAgain');
      await sleep(100);
      const fresh = await bus.redis.hget(hash, String(marketId)).catch(() => null);
      if (fresh) ownerOf.set(marketId, fresh);
    }
  }

  const marketOf = async (symbol: string | undefined): Promise<number | null> => {
    try {
      return (await market.market(symbol)).id;
    } catch {
      return null; // unknown: the local service answers the localized error
    }
  };
  const marketOfOrder = async (userId: number, id: string | undefined): Promise<number | null> => {
    const s = (id ?? '').trim();
    if (!/^\d{1,15}$/.test(s)) return null;
    const [row] = await db.query<{ market_id: number }>(
      'SELECT market_id FROM spot_orders WHERE id = $1 AND user_id = $2',
      [Number(s), userId],
    );
    return row?.market_id ?? null;
  };

  type PlaceArgs = { marketId: number; userId: number; body: PlaceOrderBody };
  type CancelArgs = { marketId: number; userId: number; body: CancelOrderBody };
  type ReplaceArgs = { marketId: number; userId: number; cancelIds: number[]; bodies: PlaceOrderBody[] };
  type OpenArgs = { userId: number; marketId: number };
  type DepthArgs = { marketId: number; levels: number };

  // The owner's side: the same calls on its own books. A process that no longer owns the market
  // (it is stopping, or lost it) says so before doing anything, and the caller asks the next owner.
  const mine = (marketId: number) => {
    if (!local.owns(marketId)) throw new NotHere();
  };
  bus.serve('spot.place', async (a) => {
    const { marketId, userId, body } = a as PlaceArgs;
    mine(marketId);
    return local.place(userId, body);
  });
  bus.serve('spot.cancel', async (a) => {
    const { marketId, userId, body } = a as CancelArgs;
    mine(marketId);
    return local.cancel(userId, body);
  });
  bus.serve('spot.replace', async (a) => {
    const { marketId, userId, cancelIds, bodies } = a as ReplaceArgs;
    mine(marketId);
    return local.replace(userId, cancelIds, bodies);
  });
  bus.serve('spot.openOrders', async (a) => {
    const { marketId, userId } = a as OpenArgs;
    mine(marketId);
    return local.openOrders(userId, marketId);
  });
  bus.serve('spot.depth', async (a) => local.depthOf((a as DepthArgs).marketId, (a as DepthArgs).levels));

  const routed: SpotService = {
    ...local,
    async place(userId, body) {
      const id = await marketOf(body.symbol);
      if (id === null) return local.place(userId, body);
      return onOwner<SpotOrder>(id, 'spot.place', { marketId: id, userId, body } satisfies PlaceArgs, () =>
        local.place(userId, body),
      );
    },
    async cancel(userId, body) {
      const id = await marketOfOrder(userId, body.id);
      if (id === null) return local.cancel(userId, body);
      return onOwner<SpotOrder>(id, 'spot.cancel', { marketId: id, userId, body } satisfies CancelArgs, () =>
        local.cancel(userId, body),
      );
    },
    async replace(userId, cancelIds, bodies) {
      const id =
        bodies.length > 0
          ? await marketOf(bodies[0]!.symbol)
          : await marketOfOrder(userId, String(cancelIds[0] ?? ''));
      if (id === null) return local.replace(userId, cancelIds, bodies);
      // answers cross the bus as JSON: the settled results' errors come back as plain objects
      const answers = await onOwner<PromiseSettledResult<SpotOrder>[]>(
        id,
        'spot.replace',
        { marketId: id, userId, cancelIds: [...cancelIds], bodies: [...bodies] } satisfies ReplaceArgs,
        () => local.replace(userId, cancelIds, bodies),
      );
      return answers;
    },
    async openOrders(userId, marketId) {
      return onOwner(marketId, 'spot.openOrders', { userId, marketId } satisfies OpenArgs, async () =>
        local.openOrders(userId, marketId),
      );
    },
  };

  // Depth of a book owned elsewhere is the owner's (the depth stream's snapshot, currency/deal).
  market.setDepthProvider(async (m, levels) => {
    if (local.owns(m.id)) return local.depthOf(m.id, levels);
    const node = ownerOf.get(m.id);
    if (!node) return { bids: [], asks: [] };
    return bus
      .request<Depth>(node, 'spot.depth', { marketId: m.id, levels } satisfies DepthArgs, {
        timeoutMs: 3_000,
      })
      .catch(() => ({ bids: [], asks: [] }));
  });

  return {
    spot: routed,
    async owners() {
      const writers = new Map(
        (
          await db.query<{ market_id: number; token: string; since: string }>(
            `SELECT market_id, token::text AS token, taken_at::text AS since FROM market_writers`,
          )
        ).map((r) => [r.market_id, r]),
      );
      // the job's lock says who holds each market now; market_writers, since when and its token
      const running = new Map((await jobs.owners()).map((j) => [j.name, j.node]));
      return (await market.allMarkets()).map((m) => ({
        market: m.symbol,
        node: running.get(`spot:${m.symbol}`) ?? null,
        token: writers.get(m.id)?.token ?? null,
        since: writers.get(m.id)?.since ?? null,
      }));
    },
  };
}
