import { ContractEvents, ContractStreams, type ContractTick } from '@verdant/api';
import {
  type ContractSpec,
  type Fired,
  priceToTicks,
  type Trigger,
  TriggerIndex,
  ticksToPrice,
} from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { Db, Queryable } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import type { Market, MarketService } from '../market/service.ts';
import { writeMessage } from '../news/service.ts';
import { postCharging } from '../referral/index.ts';
import { closeSettlement, fillPosting, triggersOf } from './settlement.ts';
import {
  addEvent,
  type CloseReason,
  changedPositions,
  crossingTicks,
  eventsTx,
  lastEventId,
  lastTickId,
  lockOpenPositions,
  markClosed,
  markFilled,
  openPositions,
  type PositionRow,
  positionsByIds,
  readCursor,
  type Tick,
  ticksAfter,
  writeCursor,
} from './store.ts';

/** Ticks read per query while the trigger job catches up. */
const TICK_BATCH = 2000;

/** A contract as this process keeps it: its rules and its triggers' state. */
export interface Contract {
  id: number;
  market: Market;
  currencyId: number;
  currency: string;
  spec: ContractSpec;
  sort: number;
  /** Every pending order's and holding position's triggers, by trigger price. */
  index: TriggerIndex;
  /** The last index tick of the market the triggers have seen. */
  cursor: number;
  savedCursor: number;
  /** At start-up: positions armed after the cursor, ascending, armed as the replay passes them. */
  waiting: { armed: number; id: number; triggers: Trigger[] }[];
  /** The contract's single writer: opens, closes, stop changes and ticks run one at a time. */
  chain: Promise<unknown>;
  lastTick: ContractTick | null;
  /** The last contract_events id this process has looked at (changes made by other processes). */
  lastEvent: number;
}

export interface TriggerJobOptions {
  /** How often the running job looks for ticks without being told (ticks recorded by another process). */
  pollMs?: number;
  /** How long a user's action on a process without the job waits for the job to reach its tick. */
  waitMs?: number;
  /** Tests: no subscription to the feed; they call `advanceAll()` after recording ticks. */
  manualTriggers?: boolean;
}

interface Deps {
  db: Db;
  market: MarketService;
  io: Server;
  log: FastifyBaseLogger;
  load: () => Promise<Contract[]>;
  /** The contracts if loaded already (stopping loads nothing). */
  loaded: () => readonly Contract[];
  latestTick: (c: Contract) => Promise<Tick | null>;
  /** Tells the positions' owners what changed (after the transaction). */
  emit: (c: Contract, rows: PositionRow[]) => Promise<void>;
  opts: TriggerJobOptions;
}

/** Runs `fn` as the contract's single writer, after whatever the contract is doing now. */
export function locked<T>(c: Contract, fn: () => Promise<T>): Promise<T> {
  const p = c.chain.then(fn);
  c.chain = p.catch(() => {});
  return p;
}

/** Puts a position's triggers where they belong now: the index, the waiting list, or nowhere. */
export function place(c: Contract, row: PositionRow): void {
  const id = Number(row.id);
  c.index.remove(id);
  c.waiting = c.waiting.filter((w) => w.id !== id);
  if (row.status !== 'pending' && row.status !== 'holding') return;
  const armed = Number(row.armed_tick_id);
  const triggers = triggersOf(c.spec, row);
  if (armed <= c.cursor) c.index.set(id, triggers);
  else {
    c.waiting.push({ armed, id, triggers });
    c.waiting.sort((a, b) => a.armed - b.armed || a.id - b.id);
  }
}

function armWaiting(c: Contract, tickId: number): void {
  while (c.waiting.length > 0 && c.waiting[0]!.armed < tickId) {
    const w = c.waiting.shift()!;
    c.index.set(w.id, w.triggers);
  }
}

async function saveCursor(q: Queryable, c: Contract): Promise<void> {
  if (c.cursor === c.savedCursor) return;
  await writeCursor(q, c.id, c.cursor);
  c.savedCursor = c.cursor;
}

/** Closes a holding position at `tick` (locked by the caller): the ledger, the row and its history. */
export async function closeRow(
  q: Queryable,
  c: Contract,
  row: PositionRow,
  tick: Tick,
  why: CloseReason,
): Promise<PositionRow> {
  const s = closeSettlement(c.spec, row, c.currencyId, tick.price, why);
  await postCharging(q, s.posting, 'contract');
  const updated = await markClosed(q, row.id, tick, why, s);
  // the row was locked FOR UPDATE as holding: a miss here is a bug, and rolls everything back
  if (!updated) throw new Error(`contract position ${row.id} changed under its lock`);
  await addEvent(q, {
    positionId: row.id,
    kind: why === 'user' ? 'close' : why,
    tickId: tick.id,
    price: tick.price,
  });
  if (why === 'liquidation')
    await writeMessage(q, row.user_id, 'position_liquidated', {
      id: row.id,
      symbol: `${c.market.base}/${c.market.quote}`,
      price: tick.price,
      payout: s.payout,
      currency_id: c.currencyId,
    });
  return updated;
}

async function fill(q: Queryable, c: Contract, row: PositionRow, tick: Tick): Promise<PositionRow> {
  const updated = await markFilled(q, row.id, tick.id);
  const posting = fillPosting(row, c.currencyId);
  if (posting) await postCharging(q, posting, 'contract');
  await addEvent(q, { positionId: row.id, kind: 'open', tickId: tick.id, price: row.price });
  return updated;
}

/**
 * The trigger job: settles take-profits, stop-losses, liquidations and limit orders on each
 * recorded index tick, in tick order, and brings a contract up to date before a user acts on it.
 */
export function createTriggerJob({ db, market, io, log, load, loaded, latestTick, emit, opts }: Deps) {
  let stopTicks: (() => void) | null = null;
  /** True unless this process runs the trigger job (start() was called and stop() was not). */
  let stopped = true;
  let poll: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  /**
   * Takes in open positions armed before the cursor that this process's triggers have not seen
   * (opened or changed on another process, or by an earlier owner of the job). They are run alone,
   * in one pass over the ticks from the earliest one's armed tick up to the cursor, each armed as
   * the pass reaches its armed tick: each fires at the same tick as if the triggers had known it
   * all along (a limit order that fills goes on with its stops). What is still open after the
   * cursor joins the index. Exact, with no time window; the database hands over only the ticks
   * priced where one of these positions' triggers could fire, so a long-held position with
   * distant stops costs little however many ticks have passed since it was armed.
   */
  async function admit(c: Contract, rows: PositionRow[]): Promise<number> {
    const behind: { armed: number; row: PositionRow }[] = [];
    for (const row of rows) {
      const armed = Number(row.armed_tick_id);
      if ((row.status === 'pending' || row.status === 'holding') && armed < c.cursor) {
        // out of the live index while the pass runs: it would otherwise fire them again at the cursor
        c.index.remove(Number(row.id));
        c.waiting = c.waiting.filter((w) => w.id !== Number(row.id));
        behind.push({ armed, row });
      } else place(c, row);
    }
    if (behind.length === 0) return 0;
    behind.sort((a, b) => a.armed - b.armed || Number(a.row.id) - Number(b.row.id));
    const solo = new TriggerIndex();
    const open = new Map<number, PositionRow>();
    let next = 0;
    let from = behind[0]!.armed;
    let settled = 0;
    /** The lowest `up` and highest `down` level of every position still in the pass, as prices. */
    const bounds = () => {
      let up: number | null = null;
      let down: number | null = null;
      for (const row of [...open.values(), ...behind.slice(next).map((b) => b.row)])
        for (const t of triggersOf(c.spec, row)) {
          if (t.crossing === 'up') up = up === null ? t.level : Math.min(up, t.level);
          else down = down === null ? t.level : Math.max(down, t.level);
        }
      const price = (l: number | null) => (l === null ? null : ticksToPrice(l, c.spec.tickSize));
      return { up: price(up), down: price(down) };
    };
    for (;;) {
      // bounds again each batch: a fill brings in its stops, a close takes its triggers out
      const ticks = await crossingTicks(db, c.market.id, from, c.cursor, bounds(), TICK_BATCH);
      for (const tick of ticks) {
        // as armWaiting: a position armed at a tick is judged from the next one (the ticks
        // skipped in between fire nothing for anyone in the pass)
        while (next < behind.length && behind[next]!.armed < tick.id) {
          const { row } = behind[next++]!;
          solo.set(Number(row.id), triggersOf(c.spec, row));
          open.set(Number(row.id), row);
        }
        const at = priceToTicks(tick.price, c.spec.tickSize);
        const out = at === null ? [] : solo.tick(at);
        if (out.length === 0) continue;
        const changed = await settleFired(c, tick, out, false);
        settled += changed.length;
        for (const f of out) open.delete(f.id);
        for (const row of changed)
          if (row.status === 'holding') {
            // a limit order filled at this tick: its stops and liquidation watch the ticks after it
            c.index.remove(Number(row.id));
            solo.set(Number(row.id), triggersOf(c.spec, row));
            open.set(Number(row.id), row);
          }
      }
      if (ticks.length < TICK_BATCH) break;
      from = ticks[ticks.length - 1]!.id;
    }
    // the cursor reached: armed now (rows not yet armed when the ticks ran out are placed as they are)
    for (const row of open.values()) place(c, row);
    for (const { row } of behind.slice(next)) place(c, row);
    return settled;
  }

  /**
   * Positions changed by another process since the last look (their history rows say which):
   * their triggers are taken in, and one armed before the cursor is first run over the ticks it
   * missed, so it fires at the same tick as if this process had known it all along.
   */
  async function syncChanges(c: Contract): Promise<number> {
    const last = await lastEventId(db, c.id);
    if (last <= c.lastEvent) return 0;
    const rows = await changedPositions(db, c.id, c.lastEvent, last);
    // a known position whose stops changed elsewhere at tick t is run again from t with its new
    // stops, like a new one: the ticks between t and the cursor were judged with the old ones
    const settled = await admit(c, rows);
    // only once they are in: a failed pass leaves them to the next look
    c.lastEvent = last;
    return settled;
  }

  /**
   * Runs the triggers over every recorded tick of the contract's market after the cursor (up to
   * `upTo`), in order. Call inside the contract's lock. A tick that fires nothing costs only the
   * index's two comparisons; one that does settles what it fired in one transaction.
   */
  async function advance(c: Contract, upTo: number | null = null): Promise<number> {
    let settled = await syncChanges(c);
    if (c.index.size === 0 && c.waiting.length === 0) {
      // nothing to trigger: move the cursor without reading the ticks
      const last = await lastTickId(db, c.market.id, upTo);
      if (last !== null && last > c.cursor) c.cursor = last;
      await saveCursor(db, c);
      return settled;
    }
    for (;;) {
      const ticks = await ticksAfter(db, c.market.id, c.cursor, upTo, TICK_BATCH);
      for (const tick of ticks) {
        armWaiting(c, tick.id);
        const at = priceToTicks(tick.price, c.spec.tickSize);
        const fired = at === null ? [] : c.index.tick(at);
        if (fired.length > 0) settled += (await settleFired(c, tick, fired)).length;
        c.cursor = tick.id;
        c.lastTick = {
          id: String(tick.id),
          symbol: c.market.symbol,
          price: tick.price,
          time: tick.time,
          source: tick.source,
        };
      }
      await saveCursor(db, c);
      if (ticks.length < TICK_BATCH) return settled;
    }
  }

  /** Settles what one tick fired: limit orders open, positions close at the tick. Answers the rows changed. */
  async function settleFired(
    c: Contract,
    tick: Tick,
    fired: Fired[],
    moveCursor = true,
  ): Promise<PositionRow[]> {
    let changed: PositionRow[];
    try {
      changed = await eventsTx(db, c.id, async (q) => {
        const rows = await lockOpenPositions(
          q,
          fired.map((f) => f.id),
        );
        const byPos = new Map(rows.map((r) => [Number(r.id), r]));
        const out: PositionRow[] = [];
        for (const f of fired) {
          const row = byPos.get(f.id);
          if (!row) continue;
          if (f.kind === 'limit' && row.status === 'pending') out.push(await fill(q, c, row, tick));
          else if (f.kind !== 'limit' && row.status === 'holding')
            out.push(await closeRow(q, c, row, tick, f.kind));
        }
        if (moveCursor) {
          c.cursor = tick.id;
          await saveCursor(q, c);
        }
        return out;
      });
    } catch (e) {
      // nothing was settled: put the fired positions back so the next run fires them again
      await positionsByIds(
        db,
        fired.map((f) => f.id),
      )
        .then((rows) => {
          for (const r of rows) c.index.set(Number(r.id), triggersOf(c.spec, r));
        })
        .catch(() => {});
      throw e;
    }
    for (const row of changed) if (row.status === 'holding') place(c, row);
    await emit(c, changed);
    return changed;
  }

  /** The tick a user's action uses: the latest recorded one, with every trigger up to it fired. */
  async function current(c: Contract): Promise<Tick> {
    const t = await latestTick(c);
    if (!t) throw new AppError('UNAVAILABLE', 'contract.noPrice');
    if (!stopped) {
      await advance(c, t.id);
      return t;
    }
    // the trigger job runs on another process: wait until it has seen this tick
    const until = Date.now() + (opts.waitMs ?? 5_000);
    for (;;) {
      const cursor = await readCursor(db, c.id);
      if (cursor !== null && cursor >= t.id) return t;
      if (Date.now() >= until) throw new AppError('UNAVAILABLE', 'errors.tryAgain');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Brings every contract's triggers up to the latest tick; answers the positions settled. */
  async function advanceAll(): Promise<number> {
    let n = 0;
    for (const c of await load()) {
      n += await locked(c, () => advance(c));
      if (c.lastTick) io.to(ContractStreams.tick(c.market.symbol)).emit(ContractEvents.tick, c.lastTick);
    }
    return n;
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await advanceAll();
      } while (again && !stopped);
    })()
      .catch((err) => log.error({ err }, 'contract triggers'))
      .finally(() => {
        running = null;
      });
  }

  return {
    current,
    advanceAll,

    /**
     * Loads the contracts and every open position's triggers, then fires, in tick order, what
     * the ticks recorded since the cursor trigger (those recorded while the job was down).
     */
    async start(): Promise<number> {
      stopped = false;
      let settled = 0;
      for (const c of await load()) {
        settled += await locked(c, async () => {
          // afresh: another process may have run the job since this one last did
          const cursor = await readCursor(db, c.id);
          if (cursor !== null) c.cursor = c.savedCursor = cursor;
          c.index = new TriggerIndex();
          c.waiting = [];
          c.lastEvent = await lastEventId(db, c.id);
          // the last owner may never have seen a position opened or changed on another process (at
          // any time before the cursor): every open one is run over the ticks since its armed tick
          const fired = await admit(c, await openPositions(db, c.id));
          return fired + (await advance(c));
        });
      }
      if (settled > 0) log.info({ settled }, 'contract triggers due while stopped fired at start');
      if (!opts.manualTriggers) {
        stopTicks = market.onTicks(() => wake());
        // ticks recorded by another process (the feed may run elsewhere) are not announced here
        poll = setInterval(wake, opts.pollMs ?? 1_000);
        poll.unref();
      }
      return settled;
    },

    async stop(): Promise<void> {
      stopped = true;
      stopTicks?.();
      stopTicks = null;
      if (poll) clearInterval(poll);
      poll = null;
      await running;
      for (const c of loaded()) await c.chain;
    },
  };
}
