import {
  CONTRACT_STATUSES,
  type ContractCloseBody,
  type ContractCloseResult,
  type ContractDeal,
  type ContractDealQuery,
  ContractEvents,
  type ContractIdBody,
  type ContractListQuery,
  type ContractMarket,
  type ContractPosition,
  type ContractPositionPage,
  type ContractSetStopBody,
  type ContractStatus,
  ContractStreams,
  type ContractSubmitBody,
  type ContractTick,
  type ContractTickRecord,
} from '@verdant/api';
import {
  addDecimal,
  type ContractRule,
  type ContractSpec,
  checkLimitSide,
  checkLots,
  checkPrice,
  checkStops,
  type Direction,
  type Fired,
  liquidationTicks,
  openCost,
  priceToTicks,
  profitAndLoss,
  settle,
  type Trigger,
  TriggerIndex,
  ticksToPrice,
} from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { parsePaging } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { balanceOf, InsufficientFunds, LedgerBatch, type Leg, post } from '../../ledger/ledger.ts';
import { addStreamResolver, userRoom } from '../../realtime/index.ts';
import type { Market, MarketService } from '../market/service.ts';

/** Ticks read per query while the trigger job catches up. */
const TICK_BATCH = 2000;

interface Contract {
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

interface Tick {
  id: number;
  price: string;
  source: string;
  time: number;
}

interface PositionRow {
  id: string;
  user_id: number;
  contract_id: number;
  direction: Direction;
  type: 'market' | 'limit';
  status: ContractStatus;
  lots: number;
  multiple: number;
  lot_value: string;
  close_fee_rate: string;
  maintenance_rate: string;
  price: string;
  market_value: string;
  margin: string;
  open_fee: string;
  take_profit: string | null;
  stop_loss: string | null;
  liquidation_price: string | null;
  armed_tick_id: string;
  open_price: string | null;
  open_tick_id: string | null;
  close_price: string | null;
  close_tick_id: string | null;
  close_reason: 'user' | 'take_profit' | 'stop_loss' | 'liquidation' | null;
  pnl: string | null;
  close_fee: string | null;
  payout: string | null;
  created_at: string;
  opened_at: string | null;
  closed_at: string | null;
}

const POSITION_COLUMNS = `id::text, user_id, contract_id, direction, type, status, lots, multiple,
  lot_value::text, close_fee_rate::text, maintenance_rate::text, price::text, market_value::text,
  margin::text, open_fee::text, take_profit::text, stop_loss::text, liquidation_price::text,
  armed_tick_id::text, open_price::text, open_tick_id::text, close_price::text, close_tick_id::text,
  close_reason, pnl::text, close_fee::text, payout::text,
  (extract(epoch FROM created_at) * 1000)::bigint::text AS created_at,
  (extract(epoch FROM opened_at) * 1000)::bigint::text AS opened_at,
  (extract(epoch FROM closed_at) * 1000)::bigint::text AS closed_at`;

const LEDGER_REASON = {
  user: 'contract_close',
  take_profit: 'contract_take_profit',
  stop_loss: 'contract_stop_loss',
  liquidation: 'contract_liquidation',
} as const;

const nul = (v: string | null) => (v === null ? null : canon(v));
const iso = (ms: number) => new Date(ms).toISOString();

/** The contract's rules with what a position copied when it was opened (later data changes never reach it). */
const specOf = (c: Contract, row: PositionRow): ContractSpec => ({
  ...c.spec,
  lotValue: canon(row.lot_value),
  closeFeeRate: canon(row.close_fee_rate),
  maintenanceRate: canon(row.maintenance_rate),
});

export interface ContractServiceOptions {
  /** How often the running job looks for ticks without being told (ticks recorded by another process). */
  pollMs?: number;
  /** How long a user's action on a process without the job waits for the job to reach its tick. */
  waitMs?: number;
  /** Tests: no subscription to the feed; they call `advanceAll()` after recording ticks. */
  manualTriggers?: boolean;
}

export type ContractService = ReturnType<typeof createContractService>;

/**
 * Perpetual contracts: markets as data, positions, and the trigger job that settles
 * take-profits, stop-losses, liquidations and limit orders on each recorded index tick
 * (docs/decisions.md, "Contracts"). Each contract has one writer (its promise chain): a user's
 * open, close or stop change first brings the triggers up to the tick it will use, so every
 * trigger that tick or an earlier one fires has fired, in tick order, before the user acts.
 */
export function createContractService(
  ctx: AppContext,
  market: MarketService,
  io: Server,
  log: FastifyBaseLogger,
  opts: ContractServiceOptions = {},
) {
  const { db } = ctx;
  let contracts: Contract[] | null = null;
  let stopTicks: (() => void) | null = null;
  /** True unless this process runs the trigger job (start() was called and stop() was not). */
  let stopped = true;
  let poll: NodeJS.Timeout | null = null;

  function locked<T>(c: Contract, fn: () => Promise<T>): Promise<T> {
    const p = c.chain.then(fn);
    c.chain = p.catch(() => {});
    return p;
  }

  async function load(): Promise<Contract[]> {
    if (contracts) return contracts;
    const rows = await db.query<{
      id: number;
      market_id: number;
      currency_id: number;
      symbol: string;
      decimals: number;
      lot_value: string;
      multiples: number[];
      open_fee_rate: string;
      close_fee_rate: string;
      maintenance_rate: string;
      max_lots_per_order: number;
      max_lots_per_user: number;
      max_open_positions: number;
      sort: number;
      cursor: string | null;
      last: string | null;
    }>(
      `SELECT c.id, c.market_id, c.currency_id, cu.symbol, cu.decimals, c.lot_value::text, c.multiples,
              c.open_fee_rate::text, c.close_fee_rate::text, c.maintenance_rate::text, c.max_lots_per_order,
              c.max_lots_per_user, c.max_open_positions, c.sort, k.tick_id::text AS cursor,
              (SELECT max(id) FROM index_ticks WHERE market_id = c.market_id)::text AS last
         FROM contract_markets c JOIN currencies cu ON cu.id = c.currency_id
         LEFT JOIN contract_cursors k ON k.contract_id = c.id
        WHERE c.enabled ORDER BY c.sort, c.id`,
    );
    const ms = await market.markets();
    const out: Contract[] = [];
    for (const r of rows) {
      const m = ms.find((x) => x.id === r.market_id);
      if (!m) continue;
      // no cursor yet: nothing was ever open, so the triggers start from the latest tick
      const cursor = Number(r.cursor ?? r.last ?? 0);
      out.push({
        id: r.id,
        market: m,
        currencyId: r.currency_id,
        currency: r.symbol,
        spec: {
          lotValue: canon(r.lot_value),
          multiples: [...r.multiples].sort((a, b) => a - b),
          openFeeRate: canon(r.open_fee_rate),
          closeFeeRate: canon(r.close_fee_rate),
          maintenanceRate: canon(r.maintenance_rate),
          maxLotsPerOrder: r.max_lots_per_order,
          maxLotsPerUser: r.max_lots_per_user,
          maxOpenPositions: r.max_open_positions,
          decimals: r.decimals,
          tickSize: m.tickSize,
        },
        sort: r.sort,
        index: new TriggerIndex(),
        cursor,
        savedCursor: r.cursor === null ? -1 : cursor,
        waiting: [],
        chain: Promise.resolve(),
        lastTick: null,
        lastEvent: 0,
      });
    }
    contracts = out;
    return out;
  }

  async function contractOf(symbol: string | undefined): Promise<Contract> {
    if (!symbol?.trim()) throw invalid('contract.symbolRequired', 'symbol');
    const s = symbol
      .trim()
      .toLowerCase()
      .replace(/[/_\-\s]/g, '');
    const c = (await load()).find((x) => x.market.symbol === s);
    if (!c) throw new AppError('NOT_FOUND', 'contract.unknown', { symbol: symbol.slice(0, 30) }, 'symbol');
    return c;
  }

  const byId = async (id: number) => (await load()).find((c) => c.id === id);

  // ---- triggers ------------------------------------------------------------------------------

  /** What can settle a pending order or a holding position, in the market's ticks. */
  function triggersOf(c: Contract, row: PositionRow): Trigger[] {
    const long = row.direction === 'long';
    const ticks = (p: string) => priceToTicks(canon(p), c.spec.tickSize)!;
    if (row.status === 'pending')
      return [{ kind: 'limit', crossing: long ? 'down' : 'up', level: ticks(row.price) }];
    if (row.status !== 'holding') return [];
    const out: Trigger[] = [];
    const liq = liquidationTicks(
      specOf(c, row),
      row.direction,
      canon(row.open_price!),
      row.lots,
      canon(row.margin),
    );
    if (liq !== null) out.push({ kind: 'liquidation', crossing: long ? 'down' : 'up', level: liq });
    if (row.take_profit !== null && row.stop_loss !== null) {
      out.push({ kind: 'take_profit', crossing: long ? 'up' : 'down', level: ticks(row.take_profit) });
      out.push({ kind: 'stop_loss', crossing: long ? 'down' : 'up', level: ticks(row.stop_loss) });
    }
    return out;
  }

  function armWaiting(c: Contract, tickId: number): void {
    while (c.waiting.length > 0 && c.waiting[0]!.armed < tickId) {
      const w = c.waiting.shift()!;
      c.index.set(w.id, w.triggers);
    }
  }

  async function saveCursor(q: Queryable, c: Contract): Promise<void> {
    if (c.cursor === c.savedCursor) return;
    await q.query(
      `INSERT INTO contract_cursors (contract_id, tick_id) VALUES ($1, $2)
       ON CONFLICT (contract_id) DO UPDATE SET tick_id = EXCLUDED.tick_id`,
      [c.id, c.cursor],
    );
    c.savedCursor = c.cursor;
  }

  const tickOf = (r: { id: string; price: string; source: string; t: string }): Tick => ({
    id: Number(r.id),
    price: canon(r.price),
    source: r.source,
    time: Number(r.t),
  });

  /** Puts a position's triggers where they belong now: the index, the waiting list, or nowhere. */
  function place(c: Contract, row: PositionRow): void {
    const id = Number(row.id);
    c.index.remove(id);
    c.waiting = c.waiting.filter((w) => w.id !== id);
    if (row.status !== 'pending' && row.status !== 'holding') return;
    const armed = Number(row.armed_tick_id);
    const triggers = triggersOf(c, row);
    if (armed <= c.cursor) c.index.set(id, triggers);
    else {
      c.waiting.push({ armed, id, triggers });
      c.waiting.sort((a, b) => a.armed - b.armed || a.id - b.id);
    }
  }

  /**
   * Takes in an open position armed before the cursor that this process's triggers have not
   * seen: it is first run alone over the ticks after its armed tick, so it fires at the same tick
   * as if the triggers had known it all along; if none crosses, it joins the index.
   */
  async function admit(c: Contract, row: PositionRow): Promise<number> {
    const armed = Number(row.armed_tick_id);
    if ((row.status !== 'pending' && row.status !== 'holding') || armed >= c.cursor) {
      place(c, row);
      return 0;
    }
    const solo = new TriggerIndex();
    solo.set(Number(row.id), triggersOf(c, row));
    const ticks = await db.query<{ id: string; price: string; source: string; t: string }>(
      `SELECT id::text, price::text, source, (extract(epoch FROM created_at) * 1000)::bigint::text AS t
         FROM index_ticks WHERE market_id = $1 AND id > $2 AND id <= $3 ORDER BY id`,
      [c.market.id, armed, c.cursor],
    );
    for (const r of ticks) {
      const tick = tickOf(r);
      const at = priceToTicks(tick.price, c.spec.tickSize);
      const out = at === null ? [] : solo.tick(at);
      if (out.length > 0) return settleFired(c, tick, out, false);
    }
    place(c, row);
    return 0;
  }

  /**
   * Positions changed by another process since the last look (their history rows say which):
   * their triggers are taken in, and one armed before the cursor is first run over the ticks it
   * missed, so it fires at the same tick as if this process had known it all along.
   */
  async function syncChanges(c: Contract): Promise<number> {
    const [top] = await db.query<{ id: string | null }>('SELECT max(id)::text AS id FROM contract_events');
    const last = Number(top?.id ?? 0);
    if (last <= c.lastEvent) return 0;
    const rows = await db.query<PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM contract_positions
        WHERE contract_id = $1 AND id IN (SELECT position_id FROM contract_events WHERE id > $2 AND id <= $3)
        ORDER BY id`,
      [c.id, c.lastEvent, last],
    );
    c.lastEvent = last;
    let settled = 0;
    for (const row of rows) {
      if (c.index.has(Number(row.id))) place(c, row);
      else settled += await admit(c, row);
    }
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
      const [r] = await db.query<{ id: string | null }>(
        `SELECT max(id)::text AS id FROM index_ticks WHERE market_id = $1${upTo === null ? '' : ' AND id <= $2'}`,
        upTo === null ? [c.market.id] : [c.market.id, upTo],
      );
      if (r?.id != null && Number(r.id) > c.cursor) c.cursor = Number(r.id);
      await saveCursor(db, c);
      return settled;
    }
    for (;;) {
      const rows = await db.query<{ id: string; price: string; source: string; t: string }>(
        `SELECT id::text, price::text, source, (extract(epoch FROM created_at) * 1000)::bigint::text AS t
           FROM index_ticks WHERE market_id = $1 AND id > $2${upTo === null ? '' : ' AND id <= $4'}
          ORDER BY id LIMIT $3`,
        upTo === null ? [c.market.id, c.cursor, TICK_BATCH] : [c.market.id, c.cursor, TICK_BATCH, upTo],
      );
      for (const r of rows) {
        const tick = tickOf(r);
        armWaiting(c, tick.id);
        const at = priceToTicks(tick.price, c.spec.tickSize);
        const fired = at === null ? [] : c.index.tick(at);
        if (fired.length > 0) settled += await settleFired(c, tick, fired);
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
      if (rows.length < TICK_BATCH) return settled;
    }
  }

  /** Settles what one tick fired: limit orders open, positions close at the tick. */
  async function settleFired(c: Contract, tick: Tick, fired: Fired[], moveCursor = true): Promise<number> {
    let changed: PositionRow[];
    try {
      changed = await db.tx(async (q) => {
        const rows = await q.query<PositionRow>(
          `SELECT ${POSITION_COLUMNS} FROM contract_positions
            WHERE id = ANY($1::bigint[]) AND status IN ('pending', 'holding') ORDER BY id FOR UPDATE`,
          [fired.map((f) => f.id)],
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
      await reindex(
        c,
        fired.map((f) => f.id),
      ).catch(() => {});
      throw e;
    }
    for (const row of changed) if (row.status === 'holding') place(c, row);
    await emit(c, changed);
    return changed.length;
  }

  async function reindex(c: Contract, ids: number[]): Promise<void> {
    const rows = await db.query<PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM contract_positions WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    for (const r of rows) c.index.set(Number(r.id), triggersOf(c, r));
  }

  async function fill(q: Queryable, c: Contract, row: PositionRow, tick: Tick): Promise<PositionRow> {
    const [updated] = await q.query<PositionRow>(
      `UPDATE contract_positions SET status = 'holding', open_price = price, open_tick_id = $2, opened_at = now(),
              armed_tick_id = $2
        WHERE id = $1 AND status = 'pending' RETURNING ${POSITION_COLUMNS}`,
      [row.id, tick.id],
    );
    const fee = canon(row.open_fee);
    if (fee !== '0')
      await post(q, {
        reason: 'contract_open',
        refType: 'contract_position',
        refId: row.id,
        legs: [
          { account: { userId: row.user_id, type: 'contract', currencyId: c.currencyId }, frozen: `-${fee}` },
          { account: { house: 'fees', currencyId: c.currencyId }, available: fee },
        ],
      });
    await q.query('INSERT INTO contract_events (position_id, kind, tick_id, price) VALUES ($1, $2, $3, $4)', [
      row.id,
      'open',
      tick.id,
      row.price,
    ]);
    return updated!;
  }

  /** Closes a holding position at `tick` (locked by the caller): the ledger, the row and its history. */
  async function closeRow(
    q: Queryable,
    c: Contract,
    row: PositionRow,
    tick: Tick,
    why: 'user' | 'take_profit' | 'stop_loss' | 'liquidation',
  ): Promise<PositionRow> {
    const margin = canon(row.margin);
    const s = settle(specOf(c, row), row.direction, canon(row.open_price!), tick.price, row.lots, margin);
    const legs: Leg[] = [
      {
        account: { userId: row.user_id, type: 'contract', currencyId: c.currencyId },
        frozen: `-${margin}`,
        available: s.payout,
      },
      { account: { house: 'fees', currencyId: c.currencyId }, available: s.fee },
      { account: { house: 'contract_pool', currencyId: c.currencyId }, available: s.pool },
    ];
    await post(q, { reason: LEDGER_REASON[why], refType: 'contract_position', refId: row.id, legs });
    const [updated] = await q.query<PositionRow>(
      `UPDATE contract_positions SET status = 'closed', close_price = $2, close_tick_id = $3, close_reason = $4,
              pnl = $5, close_fee = $6, payout = $7, closed_at = now()
        WHERE id = $1 AND status = 'holding' RETURNING ${POSITION_COLUMNS}`,
      [row.id, tick.price, tick.id, why, s.pnl, s.fee, s.payout],
    );
    // the row was locked FOR UPDATE as holding: a miss here is a bug, and rolls everything back
    if (!updated) throw new Error(`contract position ${row.id} changed under its lock`);
    await q.query('INSERT INTO contract_events (position_id, kind, tick_id, price) VALUES ($1, $2, $3, $4)', [
      row.id,
      why === 'user' ? 'close' : why,
      tick.id,
      tick.price,
    ]);
    return updated;
  }

  // ---- answers -------------------------------------------------------------------------------

  type EventRow = {
    position_id: string;
    kind: ContractPosition['history'][number]['kind'];
    price: string | null;
    take_profit: string | null;
    stop_loss: string | null;
    tick_id: string | null;
    tick_price: string | null;
    tick_source: string | null;
    tick_t: string | null;
    t: string;
  };

  async function ticksById(q: Queryable, ids: string[]): Promise<Map<string, Tick>> {
    if (ids.length === 0) return new Map();
    const rows = await q.query<{ id: string; price: string; source: string; t: string }>(
      `SELECT id::text, price::text, source, (extract(epoch FROM created_at) * 1000)::bigint::text AS t
         FROM index_ticks WHERE id = ANY($1::bigint[])`,
      [ids],
    );
    return new Map(rows.map((r) => [r.id, tickOf(r)]));
  }

  const apiTick = (c: Contract, t: Tick | undefined | null): ContractTick | null =>
    t ? { id: String(t.id), symbol: c.market.symbol, price: t.price, time: t.time, source: t.source } : null;
  /** A tick inside a record: its time as ISO text, like every record's moments. */
  const recordTick = (c: Contract, t: Tick | undefined | null): ContractTickRecord | null =>
    t
      ? { id: String(t.id), symbol: c.market.symbol, price: t.price, time: iso(t.time), source: t.source }
      : null;

  /** Positions as the API shows them, with their history and, when holding, P&L at `current`. */
  async function present(
    q: Queryable,
    rows: PositionRow[],
    current: (c: Contract) => Promise<Tick | null>,
  ): Promise<ContractPosition[]> {
    if (rows.length === 0) return [];
    const events = await q.query<EventRow>(
      `SELECT e.position_id::text, e.kind, e.price::text, e.take_profit::text, e.stop_loss::text,
              e.tick_id::text, t.price::text AS tick_price, t.source AS tick_source,
              (extract(epoch FROM t.created_at) * 1000)::bigint::text AS tick_t,
              (extract(epoch FROM e.created_at) * 1000)::bigint::text AS t
         FROM contract_events e LEFT JOIN index_ticks t ON t.id = e.tick_id
        WHERE e.position_id = ANY($1::bigint[]) ORDER BY e.id`,
      [rows.map((r) => r.id)],
    );
    const ticks = await ticksById(
      q,
      rows.flatMap((r) => [r.open_tick_id, r.close_tick_id]).filter((x): x is string => x !== null),
    );
    const out: ContractPosition[] = [];
    for (const r of rows) {
      const c = (await byId(r.contract_id))!;
      const now = r.status === 'holding' ? await current(c) : null;
      const openPrice = nul(r.open_price);
      const pnl =
        r.status === 'closed'
          ? nul(r.pnl)
          : now && openPrice
            ? profitAndLoss(r.direction, openPrice, now.price, r.lots, canon(r.lot_value))
            : null;
      const fee = canon(r.open_fee);
      const closeFee = nul(r.close_fee);
      out.push({
        id: r.id,
        symbol: c.market.symbol,
        name: `${c.market.base}/${c.market.quote}`,
        direction: r.direction,
        type: r.type,
        status: r.status,
        price: canon(r.price),
        lots: r.lots,
        lot_value: canon(r.lot_value),
        multiple: r.multiple,
        market_value: canon(r.market_value),
        margin: canon(r.margin),
        fee: closeFee === null ? fee : addDecimal(fee, closeFee),
        open_fee: fee,
        close_fee: closeFee,
        open_price: openPrice,
        current_price: r.status === 'closed' ? nul(r.close_price) : (now?.price ?? null),
        pnl,
        payout: nul(r.payout),
        take_profit: nul(r.take_profit),
        stop_loss: nul(r.stop_loss),
        liquidation_price: nul(r.liquidation_price),
        close_reason: r.close_reason,
        open_tick: recordTick(c, r.open_tick_id ? ticks.get(r.open_tick_id) : null),
        close_tick: recordTick(c, r.close_tick_id ? ticks.get(r.close_tick_id) : null),
        created_at: iso(Number(r.created_at)),
        opened_at: r.opened_at === null ? null : iso(Number(r.opened_at)),
        closed_at: r.closed_at === null ? null : iso(Number(r.closed_at)),
        history: events
          .filter((e) => e.position_id === r.id)
          .map((e) => ({
            kind: e.kind,
            price: nul(e.price),
            take_profit: nul(e.take_profit),
            stop_loss: nul(e.stop_loss),
            tick:
              e.tick_id === null
                ? null
                : {
                    id: e.tick_id,
                    symbol: c.market.symbol,
                    price: canon(e.tick_price!),
                    time: iso(Number(e.tick_t)),
                    source: e.tick_source!,
                  },
            time: iso(Number(e.t)),
          })),
      });
    }
    return out;
  }

  async function latestTick(c: Contract): Promise<Tick | null> {
    const t = await market.indexAt(c.market.id);
    return t ? { id: Number(t.id), price: t.price, source: t.source, time: t.time } : null;
  }

  async function emit(c: Contract, rows: PositionRow[]): Promise<void> {
    if (rows.length === 0) return;
    try {
      const list = await present(db, rows, latestTick);
      for (const p of list) {
        const row = rows.find((r) => r.id === p.id)!;
        io.to(userRoom(row.user_id)).emit(ContractEvents.position, p);
      }
    } catch (err) {
      log.error({ err, contract: c.id }, 'contract position push');
    }
  }

  async function rowsOf(q: Queryable, ids: string[]): Promise<PositionRow[]> {
    return q.query<PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM contract_positions WHERE id = ANY($1::bigint[]) ORDER BY id DESC`,
      [ids],
    );
  }

  async function contractInfo(c: Contract): Promise<ContractMarket> {
    return {
      id: c.id,
      symbol: c.market.symbol,
      name: `${c.market.base}/${c.market.quote}`,
      currency: c.currency,
      currency_id: c.currencyId,
      currency_decimals: c.spec.decimals,
      lot_value: c.spec.lotValue,
      multiples: [...c.spec.multiples],
      open_fee_rate: c.spec.openFeeRate,
      close_fee_rate: c.spec.closeFeeRate,
      maintenance_rate: c.spec.maintenanceRate,
      max_lots_per_order: c.spec.maxLotsPerOrder,
      max_lots_per_user: c.spec.maxLotsPerUser,
      max_open_positions: c.spec.maxOpenPositions,
      tick_size: c.spec.tickSize,
      price_decimals: c.market.priceDecimals,
      price: recordTick(c, await latestTick(c)),
    };
  }

  // ---- input ---------------------------------------------------------------------------------

  const rule = (r: ContractRule, field: string, params: Record<string, string | number> = {}) =>
    invalid(`contract.${r}`, field, params);

  function parseId(input: string | undefined): string {
    const s = (input ?? '').trim();
    if (!/^[1-9]\d{0,17}$/.test(s)) throw invalid('contract.idInvalid', 'id');
    return s;
  }

  function optionalPrice(c: Contract, input: string | undefined, field: string): string | null {
    if (input === undefined || input.trim() === '') return null;
    const p = checkPrice(c.spec, input);
    if (p === null) throw invalid('contract.priceInvalid', field, { step: c.spec.tickSize });
    return p;
  }

  /** The caller's position and its contract, or "not found" (someone else's too). */
  async function own(userId: number, id: string): Promise<{ c: Contract; row: PositionRow }> {
    const [row] = await db.query<PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM contract_positions WHERE id = $1 AND user_id = $2`,
      [id, userId],
    );
    const c = row ? await byId(row.contract_id) : undefined;
    if (!row || !c) throw new AppError('NOT_FOUND', 'contract.notFound', {}, 'id');
    return { c, row };
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
      const [k] = await db.query<{ tick_id: string }>(
        'SELECT tick_id::text FROM contract_cursors WHERE contract_id = $1',
        [c.id],
      );
      if (k && Number(k.tick_id) >= t.id) return t;
      if (Date.now() >= until) throw new AppError('UNAVAILABLE', 'errors.tryAgain');
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function lockedRow(q: Queryable, id: string): Promise<PositionRow> {
    const [row] = await q.query<PositionRow>(
      `SELECT ${POSITION_COLUMNS} FROM contract_positions WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return row!;
  }

  // ---- the trigger job -------------------------------------------------------------------------

  let running: Promise<void> | null = null;
  let again = false;

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

  addStreamResolver(io, (stream) => {
    const m = /^contract:([a-z0-9]{2,20})$/.exec(stream);
    if (!m) return null;
    return {
      room: stream,
      snapshot: async (socket) => {
        const c = (await load()).find((x) => x.market.symbol === m[1]);
        const t = c ? await latestTick(c) : null;
        if (c && t) socket.emit(ContractEvents.tick, apiTick(c, t));
      },
    };
  });

  const service = {
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
          const [k] = await db.query<{ tick_id: string }>(
            'SELECT tick_id::text FROM contract_cursors WHERE contract_id = $1',
            [c.id],
          );
          if (k) c.cursor = c.savedCursor = Number(k.tick_id);
          c.index = new TriggerIndex();
          c.waiting = [];
          const [top] = await db.query<{ id: string | null }>(
            'SELECT max(id)::text AS id FROM contract_events',
          );
          c.lastEvent = Number(top?.id ?? 0);
          const rows = await db.query<PositionRow>(
            `SELECT ${POSITION_COLUMNS} FROM contract_positions
              WHERE contract_id = $1 AND status IN ('pending', 'holding')`,
            [c.id],
          );
          // positions armed in the last minute before the cursor may have been opened on another
          // process after the last owner's last look: each is run over the ticks it may have missed
          const recent = new Set(
            (
              await db.query<{ id: string }>(
                `SELECT p.id::text FROM contract_positions p JOIN index_ticks t ON t.id = p.armed_tick_id
                  WHERE p.contract_id = $1 AND p.status IN ('pending', 'holding') AND p.armed_tick_id < $2
                    AND t.created_at >= (SELECT created_at FROM index_ticks WHERE id = $2) - interval '60 seconds'`,
                [c.id, c.cursor],
              )
            ).map((r) => r.id),
          );
          let fired = 0;
          for (const r of rows) {
            if (recent.has(r.id)) fired += await admit(c, r);
            else place(c, r);
          }
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
      for (const c of contracts ?? []) await c.chain;
    },

    advanceAll,

    // ---- HTTP --------------------------------------------------------------------------------

    async deal(userId: number | null, query: ContractDealQuery): Promise<ContractDeal> {
      const list = await load();
      const cur = query.symbol?.trim() ? await contractOf(query.symbol) : list[0];
      if (!cur) throw new AppError('NOT_FOUND', 'contract.unknown', { symbol: '' }, 'symbol');
      const infos = await Promise.all(list.map(contractInfo));
      const balance =
        userId === null
          ? null
          : await balanceOf(db, { userId, type: 'contract', currencyId: cur.currencyId }).then((b) => ({
              available: canon(b.available),
              frozen: canon(b.frozen),
            }));
      return { list: infos, current: infos.find((i) => i.id === cur.id)!, balance };
    },

    async submit(userId: number, body: ContractSubmitBody): Promise<ContractPosition> {
      const c = await contractOf(body.symbol);
      const direction = (body.direction ?? '').trim();
      if (direction !== 'long' && direction !== 'short')
        throw invalid('contract.directionInvalid', 'direction');
      const type = (body.type ?? '').trim() || 'market';
      if (type !== 'market' && type !== 'limit') throw invalid('contract.typeInvalid', 'type');
      const lots = checkLots(c.spec, body.lots);
      if (typeof lots !== 'number') throw rule(lots, 'lots', { max: c.spec.maxLotsPerOrder });
      const multiple = (body.multiple ?? '').trim();
      if (!/^\d{1,4}$/.test(multiple) || !c.spec.multiples.includes(Number(multiple)))
        throw invalid('contract.multipleInvalid', 'multiple', { multiples: c.spec.multiples.join(', ') });
      let limit: string | null = null;
      if (type === 'limit') {
        if (!body.price?.trim()) throw invalid('contract.priceRequired', 'price');
        limit = optionalPrice(c, body.price, 'price');
      }
      const tp = optionalPrice(c, body.take_profit, 'take_profit');
      const sl = optionalPrice(c, body.stop_loss, 'stop_loss');
      const created = await locked(c, async () => {
        const tick = await current(c);
        if (limit !== null) {
          const side = checkLimitSide(direction, tick.price, limit);
          if (side) throw rule(side, 'price', { price: tick.price });
        }
        const price = limit ?? tick.price;
        const stops = checkStops(direction, price, tp, sl);
        if (stops) throw rule(stops, stops === 'stopLossSide' ? 'stop_loss' : 'take_profit', { price });
        const cost = openCost(c.spec, price, lots, Number(multiple));
        const liq = liquidationTicks(c.spec, direction, price, lots, cost.margin);
        const row = await db.tx(async (q) => {
          // the user's contract account (with the fees account, in the ledger's lock order) held
          // from here: the limits below are counted once per user even across processes
          await new LedgerBatch(q).lock([
            { userId, type: 'contract', currencyId: c.currencyId },
            { house: 'fees', currencyId: c.currencyId },
          ]);
          const [held] = await q.query<{ n: number; lots: number }>(
            `SELECT count(*)::int AS n, coalesce(sum(lots), 0)::int AS lots FROM contract_positions
              WHERE user_id = $1 AND contract_id = $2 AND status IN ('pending', 'holding')`,
            [userId, c.id],
          );
          if (held!.n >= c.spec.maxOpenPositions)
            throw new AppError('CONFLICT', 'contract.tooManyPositions', { max: c.spec.maxOpenPositions });
          if (held!.lots + lots > c.spec.maxLotsPerUser)
            throw invalid('contract.lotsPerUser', 'lots', { max: c.spec.maxLotsPerUser, held: held!.lots });
          const market = limit === null;
          const [r] = await q.query<PositionRow>(
            `INSERT INTO contract_positions (user_id, contract_id, direction, type, status, lots, multiple, lot_value,
                    close_fee_rate, maintenance_rate, price, market_value, margin, open_fee, take_profit, stop_loss,
                    liquidation_price, armed_tick_id, open_price, open_tick_id, opened_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
                     $19, $20, CASE WHEN $20::bigint IS NULL THEN NULL ELSE now() END)
             RETURNING ${POSITION_COLUMNS}`,
            [
              userId,
              c.id,
              direction,
              type,
              market ? 'holding' : 'pending',
              lots,
              Number(multiple),
              c.spec.lotValue,
              c.spec.closeFeeRate,
              c.spec.maintenanceRate,
              price,
              cost.marketValue,
              cost.margin,
              cost.fee,
              tp,
              sl,
              liq === null ? null : ticksToPrice(liq, c.spec.tickSize),
              tick.id,
              market ? price : null,
              market ? tick.id : null,
            ],
          );
          const account = { userId, type: 'contract' as const, currencyId: c.currencyId };
          try {
            if (market)
              await post(q, {
                reason: 'contract_open',
                refType: 'contract_position',
                refId: r!.id,
                legs: [
                  { account, available: `-${cost.total}`, frozen: cost.margin },
                  { account: { house: 'fees', currencyId: c.currencyId }, available: cost.fee },
                ],
              });
            else
              await post(q, {
                reason: 'contract_order',
                refType: 'contract_position',
                refId: r!.id,
                legs: [{ account, available: `-${cost.total}`, frozen: cost.total }],
              });
          } catch (e) {
            if (e instanceof InsufficientFunds)
              throw new AppError(
                'INSUFFICIENT_BALANCE',
                'contract.insufficient',
                { need: cost.total, currency: c.currency },
                'lots',
              );
            throw e;
          }
          await q.query(
            `INSERT INTO contract_events (position_id, kind, tick_id, price, take_profit, stop_loss)
             VALUES ($1, $2, $3, $4, $5, $6)`,
            [r!.id, market ? 'open' : 'order', tick.id, price, tp, sl],
          );
          return r!;
        });
        c.index.set(Number(row.id), triggersOf(c, row));
        return row;
      });
      await emit(c, [created]);
      const [out] = await present(db, [created], latestTick);
      return out!;
    },

    async list(userId: number, query: ContractListQuery): Promise<ContractPositionPage> {
      const status = (query.status ?? '').trim() || 'holding';
      if (!(CONTRACT_STATUSES as readonly string[]).includes(status))
        throw invalid('contract.statusInvalid', 'status');
      const paging = parsePaging(query);
      const c = query.symbol?.trim() ? await contractOf(query.symbol) : null;
      const params: unknown[] = [userId, status];
      if (c) params.push(c.id);
      const where = `user_id = $1 AND status = $2${c ? ' AND contract_id = $3' : ''}`;
      const [count] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM contract_positions WHERE ${where}`,
        params,
      );
      const rows = await db.query<PositionRow>(
        `SELECT ${POSITION_COLUMNS} FROM contract_positions WHERE ${where}
          ORDER BY contract_positions.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, paging.limit, paging.offset],
      );
      const nowOf = new Map<number, Promise<Tick | null>>();
      const list = await present(db, rows, (x) => {
        const known = nowOf.get(x.id);
        if (known) return known;
        const p = latestTick(x);
        nowOf.set(x.id, p);
        return p;
      });
      return { list, page: paging.page, limit: paging.limit, total: count?.n ?? 0 };
    },

    async close(userId: number, body: ContractCloseBody): Promise<ContractCloseResult> {
      const all = (body.all ?? '').trim() === '1';
      let targets: { c: Contract; ids: string[] }[];
      if (all) {
        const only = body.symbol?.trim() ? await contractOf(body.symbol) : null;
        const rows = await db.query<{ id: string; contract_id: number }>(
          `SELECT id::text, contract_id FROM contract_positions
            WHERE user_id = $1 AND status = 'holding'${only ? ' AND contract_id = $2' : ''} ORDER BY id`,
          only ? [userId, only.id] : [userId],
        );
        const groups = new Map<number, string[]>();
        for (const r of rows) groups.set(r.contract_id, [...(groups.get(r.contract_id) ?? []), r.id]);
        targets = [];
        for (const [cid, ids] of groups) {
          const c = await byId(cid);
          if (c) targets.push({ c, ids });
        }
      } else {
        const { c, row } = await own(userId, parseId(body.id));
        if (row.status === 'pending') throw new AppError('CONFLICT', 'contract.pendingUseCancel', {}, 'id');
        if (row.status !== 'holding') throw new AppError('CONFLICT', 'contract.notHolding', {}, 'id');
        targets = [{ c, ids: [row.id] }];
      }
      const closed: PositionRow[] = [];
      for (const { c, ids } of targets) {
        const rows = await locked(c, async () => {
          const tick = await current(c);
          const out = await db.tx(async (q) => {
            const done: PositionRow[] = [];
            for (const id of ids) {
              const row = await lockedRow(q, id);
              if (row.status !== 'holding') {
                // a trigger or a parallel request closed it first: it is paid once
                if (!all) throw new AppError('CONFLICT', 'contract.notHolding', {}, 'id');
                continue;
              }
              done.push(await closeRow(q, c, row, tick, 'user'));
            }
            return done;
          });
          for (const r of out) c.index.remove(Number(r.id));
          return out;
        });
        await emit(c, rows);
        closed.push(...rows);
      }
      return { list: await present(db, closed, latestTick) };
    },

    async setStop(userId: number, body: ContractSetStopBody): Promise<ContractPosition> {
      const { c, row: first } = await own(userId, parseId(body.id));
      const tp = optionalPrice(c, body.take_profit, 'take_profit');
      const sl = optionalPrice(c, body.stop_loss, 'stop_loss');
      if ((tp === null) !== (sl === null))
        throw invalid('contract.stopsRequired', tp === null ? 'take_profit' : 'stop_loss');
      if (first.status !== 'holding' && first.status !== 'pending')
        throw new AppError('CONFLICT', 'contract.notHolding', {}, 'id');
      const updated = await locked(c, async () => {
        const tick = await current(c);
        const row = await db.tx(async (q) => {
          const r = await lockedRow(q, first.id);
          if (r.status !== 'holding' && r.status !== 'pending')
            throw new AppError('CONFLICT', 'contract.notHolding', {}, 'id');
          // a holding position's stops must lie on their side of the market now; an order's, of its price
          const reference = r.status === 'holding' ? tick.price : canon(r.price);
          const bad = checkStops(r.direction, reference, tp, sl);
          if (bad)
            throw rule(bad, bad === 'stopLossSide' ? 'stop_loss' : 'take_profit', { price: reference });
          const [u] = await q.query<PositionRow>(
            `UPDATE contract_positions SET take_profit = $2, stop_loss = $3, armed_tick_id = greatest(armed_tick_id, $4)
              WHERE id = $1 RETURNING ${POSITION_COLUMNS}`,
            [r.id, tp, sl, tick.id],
          );
          await q.query(
            `INSERT INTO contract_events (position_id, kind, tick_id, price, take_profit, stop_loss)
             VALUES ($1, 'set_stops', $2, $3, $4, $5)`,
            [r.id, tick.id, tick.price, tp, sl],
          );
          return u!;
        });
        c.index.set(Number(row.id), triggersOf(c, row));
        return row;
      });
      await emit(c, [updated]);
      const [out] = await present(db, [updated], latestTick);
      return out!;
    },

    async cancel(userId: number, body: ContractIdBody): Promise<ContractPosition> {
      const { c, row: first } = await own(userId, parseId(body.id));
      if (first.status !== 'pending') throw new AppError('CONFLICT', 'contract.notPending', {}, 'id');
      const cancelled = await locked(c, async () => {
        const tick = await current(c);
        const row = await db.tx(async (q) => {
          const r = await lockedRow(q, first.id);
          if (r.status !== 'pending') throw new AppError('CONFLICT', 'contract.notPending', {}, 'id');
          const held = addDecimal(canon(r.margin), canon(r.open_fee));
          await post(q, {
            reason: 'contract_cancel',
            refType: 'contract_position',
            refId: r.id,
            legs: [
              {
                account: { userId, type: 'contract', currencyId: c.currencyId },
                frozen: `-${held}`,
                available: held,
              },
            ],
          });
          const [u] = await q.query<PositionRow>(
            `UPDATE contract_positions SET status = 'cancelled' WHERE id = $1 RETURNING ${POSITION_COLUMNS}`,
            [r.id],
          );
          await q.query(
            `INSERT INTO contract_events (position_id, kind, tick_id, price) VALUES ($1, 'cancel', $2, $3)`,
            [r.id, tick.id, tick.price],
          );
          return u!;
        });
        c.index.remove(Number(row.id));
        return row;
      });
      await emit(c, [cancelled]);
      const [out] = await present(db, [cancelled], latestTick);
      return out!;
    },

    /** Test and bench hook: the contracts as loaded. */
    contracts: load,
    rowsOf: (ids: string[]) => rowsOf(db, ids),
  };
  return service;
}

declare module 'fastify' {
  interface FastifyInstance {
    contract: ContractService;
  }
}
