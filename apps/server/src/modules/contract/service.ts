import type {
  ContractCloseBody,
  ContractCloseResult,
  ContractDeal,
  ContractDealQuery,
  ContractIdBody,
  ContractListQuery,
  ContractPosition,
  ContractPositionPage,
  ContractSetStopBody,
  ContractSubmitBody,
} from '@verdant/api';
import { ContractEvents } from '@verdant/api';
import {
  checkLimitSide,
  checkStops,
  liquidationTicks,
  openCost,
  TriggerIndex,
  ticksToPrice,
} from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { parsePaging } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import { balanceOf, InsufficientFunds, LedgerBatch, post } from '../../ledger/ledger.ts';
import { addStreamResolver, userRoom } from '../../realtime/index.ts';
import type { MarketService } from '../market/service.ts';
import { postCharging } from '../referral/index.ts';
import { type Contract, closeRow, createTriggerJob, locked, type TriggerJobOptions } from './job.ts';
import { apiTick, contractInfo, present } from './present.ts';
import { cancelPosting, openPosting, triggersOf } from './settlement.ts';
import {
  addEvent,
  enabledContracts,
  eventsTx,
  heldBy,
  holdingByContract,
  insertPosition,
  lockedRow,
  markCancelled,
  type PositionRow,
  positionPage,
  positionsByIds,
  setStops,
  type Tick,
  userPosition,
} from './store.ts';
import { parseId, parseStatus, parseStops, parseSubmit, rule, symbolOf } from './validation.ts';

export type ContractServiceOptions = TriggerJobOptions;

export type ContractService = ReturnType<typeof createContractService>;

/**
 * Perpetual contracts: markets as data, positions, and the trigger job (job.ts) that settles
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

  async function load(): Promise<Contract[]> {
    if (contracts) return contracts;
    const rows = await enabledContracts(db);
    const currencies = await currenciesById(db);
    const ms = await market.markets();
    const out: Contract[] = [];
    for (const r of rows) {
      const m = ms.find((x) => x.id === r.market_id);
      const cu = currencies.get(r.currency_id);
      if (!m || !cu) continue;
      // no cursor yet: nothing was ever open, so the triggers start from the latest tick
      const cursor = Number(r.cursor ?? r.last ?? 0);
      out.push({
        id: r.id,
        market: m,
        currencyId: r.currency_id,
        currency: cu.symbol,
        spec: {
          lotValue: canon(r.lot_value),
          multiples: [...r.multiples].sort((a, b) => a - b),
          openFeeRate: canon(r.open_fee_rate),
          closeFeeRate: canon(r.close_fee_rate),
          maintenanceRate: canon(r.maintenance_rate),
          maxLotsPerOrder: r.max_lots_per_order,
          maxLotsPerUser: r.max_lots_per_user,
          maxOpenPositions: r.max_open_positions,
          decimals: cu.decimals,
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
    const s = symbolOf(symbol);
    const c = (await load()).find((x) => x.market.symbol === s);
    if (!c) throw new AppError('NOT_FOUND', 'contract.unknown', { symbol: symbol!.slice(0, 30) }, 'symbol');
    return c;
  }

  const byId = async (id: number) => (await load()).find((c) => c.id === id);

  async function latestTick(c: Contract): Promise<Tick | null> {
    const t = await market.indexAt(c.market.id);
    return t ? { id: Number(t.id), price: t.price, source: t.source, time: t.time } : null;
  }

  const show = (rows: PositionRow[]) => present(db, rows, byId, latestTick);

  async function emit(c: Contract, rows: PositionRow[]): Promise<void> {
    if (rows.length === 0) return;
    try {
      const list = await show(rows);
      for (const p of list) {
        const row = rows.find((r) => r.id === p.id)!;
        io.to(userRoom(row.user_id)).emit(ContractEvents.position, p);
      }
    } catch (err) {
      log.error({ err, contract: c.id }, 'contract position push');
    }
  }

  const job = createTriggerJob({
    db,
    market,
    io,
    log,
    load,
    loaded: () => contracts ?? [],
    latestTick,
    emit,
    opts,
  });
  const { current } = job;

  /** The caller's position and its contract, or "not found" (someone else's too). */
  async function own(userId: number, id: string): Promise<{ c: Contract; row: PositionRow }> {
    const row = await userPosition(db, userId, id);
    const c = row ? await byId(row.contract_id) : undefined;
    if (!row || !c) throw new AppError('NOT_FOUND', 'contract.notFound', {}, 'id');
    return { c, row };
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
    start: job.start,
    stop: job.stop,
    advanceAll: job.advanceAll,
    /**
     * An operator changed contract markets (issue 23): new orders take the new lot value,
     * multiples, fees and maintenance rate. Positions keep what they copied when opened, and the
     * trigger job's state (index, cursor) is left as it is.
     */
    async refreshSpecs(): Promise<void> {
      if (!contracts) return;
      for (const r of await enabledContracts(db)) {
        const c = contracts.find((x) => x.id === r.id);
        if (!c) continue;
        c.spec = {
          ...c.spec,
          lotValue: canon(r.lot_value),
          multiples: [...r.multiples].sort((a, b) => a - b),
          openFeeRate: canon(r.open_fee_rate),
          closeFeeRate: canon(r.close_fee_rate),
          maintenanceRate: canon(r.maintenance_rate),
        };
      }
    },

    // ---- HTTP --------------------------------------------------------------------------------

    async deal(userId: number | null, query: ContractDealQuery): Promise<ContractDeal> {
      const list = await load();
      const cur = query.symbol?.trim() ? await contractOf(query.symbol) : list[0];
      if (!cur) throw new AppError('NOT_FOUND', 'contract.unknown', { symbol: '' }, 'symbol');
      const infos = await Promise.all(list.map(async (c) => contractInfo(c, await latestTick(c))));
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
      const {
        direction,
        type,
        lots,
        multiple,
        limit,
        takeProfit: tp,
        stopLoss: sl,
      } = parseSubmit(c.spec, body);
      const created = await locked(c, async () => {
        const tick = await current(c);
        if (limit !== null) {
          const side = checkLimitSide(direction, tick.price, limit);
          if (side) throw rule(side, 'price', { price: tick.price });
        }
        const price = limit ?? tick.price;
        const stops = checkStops(direction, price, tp, sl);
        if (stops) throw rule(stops, stops === 'stopLossSide' ? 'stop_loss' : 'take_profit', { price });
        const cost = openCost(c.spec, price, lots, multiple);
        const liq = liquidationTicks(c.spec, direction, price, lots, cost.margin);
        const row = await eventsTx(db, c.id, async (q) => {
          // the user's contract account (with the fees account, in the ledger's lock order) held
          // from here: the limits below are counted once per user even across processes
          await new LedgerBatch(q).lock([
            { userId, type: 'contract', currencyId: c.currencyId },
            { house: 'fees', currencyId: c.currencyId },
          ]);
          const held = await heldBy(q, userId, c.id);
          if (held.n >= c.spec.maxOpenPositions)
            throw new AppError('CONFLICT', 'contract.tooManyPositions', { max: c.spec.maxOpenPositions });
          if (held.lots + lots > c.spec.maxLotsPerUser)
            throw invalid('contract.lotsPerUser', 'lots', { max: c.spec.maxLotsPerUser, held: held.lots });
          const r = await insertPosition(q, {
            userId,
            contractId: c.id,
            direction,
            type,
            lots,
            multiple,
            lotValue: c.spec.lotValue,
            closeFeeRate: c.spec.closeFeeRate,
            maintenanceRate: c.spec.maintenanceRate,
            price,
            marketValue: cost.marketValue,
            margin: cost.margin,
            fee: cost.fee,
            takeProfit: tp,
            stopLoss: sl,
            liquidationPrice: liq === null ? null : ticksToPrice(liq, c.spec.tickSize),
            tickId: tick.id,
          });
          try {
            // a market open charges its fee now: the referrer's rebate goes with it
            await postCharging(q, openPosting(userId, c.currencyId, r.id, limit === null, cost), 'contract');
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
          await addEvent(q, {
            positionId: r.id,
            kind: limit === null ? 'open' : 'order',
            tickId: tick.id,
            price,
            takeProfit: tp,
            stopLoss: sl,
          });
          return r;
        });
        c.index.set(Number(row.id), triggersOf(c.spec, row));
        return row;
      });
      await emit(c, [created]);
      const [out] = await show([created]);
      return out!;
    },

    async list(userId: number, query: ContractListQuery): Promise<ContractPositionPage> {
      const status = parseStatus(query.status);
      const paging = parsePaging(query);
      const c = query.symbol?.trim() ? await contractOf(query.symbol) : null;
      const { rows, total } = await positionPage(
        db,
        userId,
        status,
        c?.id ?? null,
        paging.limit,
        paging.offset,
      );
      // one price per contract for the whole page
      const nowOf = new Map<number, Promise<Tick | null>>();
      const list = await present(db, rows, byId, (x) => {
        const known = nowOf.get(x.id);
        if (known) return known;
        const p = latestTick(x);
        nowOf.set(x.id, p);
        return p;
      });
      return { list, page: paging.page, limit: paging.limit, total };
    },

    async close(userId: number, body: ContractCloseBody): Promise<ContractCloseResult> {
      const all = (body.all ?? '').trim() === '1';
      let targets: { c: Contract; ids: string[] }[];
      if (all) {
        const only = body.symbol?.trim() ? await contractOf(body.symbol) : null;
        targets = [];
        for (const [cid, ids] of await holdingByContract(db, userId, only?.id ?? null)) {
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
          const out = await eventsTx(db, c.id, async (q) => {
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
      return { list: await show(closed) };
    },

    async setStop(userId: number, body: ContractSetStopBody): Promise<ContractPosition> {
      const { c, row: first } = await own(userId, parseId(body.id));
      const { takeProfit: tp, stopLoss: sl } = parseStops(c.spec, body);
      if (first.status !== 'holding' && first.status !== 'pending')
        throw new AppError('CONFLICT', 'contract.notHolding', {}, 'id');
      const updated = await locked(c, async () => {
        const tick = await current(c);
        const row = await eventsTx(db, c.id, async (q) => {
          const r = await lockedRow(q, first.id);
          if (r.status !== 'holding' && r.status !== 'pending')
            throw new AppError('CONFLICT', 'contract.notHolding', {}, 'id');
          // a holding position's stops must lie on their side of the market now; an order's, of its price
          const reference = r.status === 'holding' ? tick.price : canon(r.price);
          const bad = checkStops(r.direction, reference, tp, sl);
          if (bad)
            throw rule(bad, bad === 'stopLossSide' ? 'stop_loss' : 'take_profit', { price: reference });
          const u = await setStops(q, r.id, tp, sl, tick.id);
          await addEvent(q, {
            positionId: r.id,
            kind: 'set_stops',
            tickId: tick.id,
            price: tick.price,
            takeProfit: tp,
            stopLoss: sl,
          });
          return u;
        });
        c.index.set(Number(row.id), triggersOf(c.spec, row));
        return row;
      });
      await emit(c, [updated]);
      const [out] = await show([updated]);
      return out!;
    },

    async cancel(userId: number, body: ContractIdBody): Promise<ContractPosition> {
      const { c, row: first } = await own(userId, parseId(body.id));
      if (first.status !== 'pending') throw new AppError('CONFLICT', 'contract.notPending', {}, 'id');
      const cancelled = await locked(c, async () => {
        const tick = await current(c);
        const row = await eventsTx(db, c.id, async (q) => {
          const r = await lockedRow(q, first.id);
          if (r.status !== 'pending') throw new AppError('CONFLICT', 'contract.notPending', {}, 'id');
          await post(q, cancelPosting(r, c.currencyId));
          const u = await markCancelled(q, r.id);
          await addEvent(q, { positionId: r.id, kind: 'cancel', tickId: tick.id, price: tick.price });
          return u;
        });
        c.index.remove(Number(row.id));
        return row;
      });
      await emit(c, [cancelled]);
      const [out] = await show([cancelled]);
      return out!;
    },

    /** Test and bench hook: the contracts as loaded. */
    contracts: load,
    rowsOf: (ids: string[]) => positionsByIds(db, ids),
  };
  return service;
}

declare module 'fastify' {
  interface FastifyInstance {
    contract: ContractService;
  }
}

// read by the operators' console (modules/admin)
export { openInterest, userContractPositions } from './operator-reads.ts';
