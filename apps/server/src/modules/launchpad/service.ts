import type {
  AdminLaunchpadOrder,
  AdminLaunchpadPassBody,
  Lang,
  LaunchpadConfig,
  LaunchpadListQuery,
  LaunchpadOrder,
  LaunchpadOrderBody,
  LaunchpadOrderPage,
  LaunchpadOrderQuery,
  LaunchpadProject,
  LaunchpadProjectInfo,
} from '@verdant/api';
import { LaunchpadEvents } from '@verdant/api';
import { addDecimal, allot, compareDecimal, dec, truncateDecimal } from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { pageOf, parsePaging } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import { AppError } from '../../http/errors.ts';
import { parseReason } from '../../http/parse.ts';
import { type Currency, currenciesById } from '../../ledger/currencies.ts';
import { balanceOf, InsufficientFunds, type Leg, post } from '../../ledger/ledger.ts';
import { userRoom } from '../../realtime/index.ts';
import { writeAudit } from '../admin/service.ts';
import type { MarketService } from '../market/service.ts';
import { writeMessage } from '../news/service.ts';
import { capacityOf, projectState, toOrder, toProject, unlockOf } from './present.ts';
import {
  accountsOf,
  addSubscribed,
  freeSubscribed,
  insertOrder,
  lastTradePrice,
  marketOfPair,
  markPassed,
  markRedeemed,
  markRejected,
  nextLaunch,
  ORDER_SELECT,
  type OrderRow,
  orderForUpdate,
  orderRows,
  type ProjectRow,
  projectRow,
  projectRows,
  setMarket,
  unlistedLaunched,
  userSubscribed,
} from './store.ts';
import {
  parseAllotment,
  parseAmount,
  parseId,
  parseOrderStatus,
  parseState,
  REASON_KEYS,
} from './validation.ts';

export type LaunchpadService = ReturnType<typeof createLaunchpadService>;

/** How often the launch job looks again when no launch is nearer (edits on other processes). */
const LAUNCH_CHECK_MS = 5_000;

/**
 * New-coin subscription (docs/decisions.md, "New-coin subscription"): projects as data, a
 * subscription's payment frozen in the spot account until an operator passes (allots) or rejects
 * it, allotted coins locked until launch plus lock-up, then redeemed by the user. Rows in
 * store.ts, input checks in validation.ts, API shapes and a project's state in present.ts.
 */
export function createLaunchpadService(
  ctx: AppContext,
  market: MarketService,
  io: Server,
  log: FastifyBaseLogger,
) {
  const { db } = ctx;

  /**
   * The coin's current price: a recorded one once its market has any (its latest trade, else its
   * latest index tick), the issue price until then. Accumulated return and total return rate
   * follow it (present.ts).
   */
  async function priceOf(p: ProjectRow): Promise<string> {
    const m = p.market_id ?? (await marketOfPair(db, p.coin_currency_id, p.pay_currency_id));
    if (m === undefined) return canon(p.issue_price);
    const traded = await lastTradePrice(db, m);
    if (traded !== undefined) return canon(traded);
    const tick = await market.indexAt(m);
    return tick?.price ?? canon(p.issue_price);
  }

  async function projectOut(
    p: ProjectRow,
    cs: ReadonlyMap<number, Currency>,
    lang: Lang,
    now = Date.now(),
  ): Promise<LaunchpadProject> {
    return toProject(p, cs, await priceOf(p), lang, now);
  }

  async function toOrders(rows: OrderRow[], lang: Lang, now = Date.now()): Promise<LaunchpadOrder[]> {
    if (rows.length === 0) return [];
    const [ps, cs] = await Promise.all([projectRows(db), currenciesById(db)]);
    const prices = new Map<number, string>();
    for (const p of ps) if (rows.some((r) => r.project_id === p.id)) prices.set(p.id, await priceOf(p));
    return rows.map((o) => {
      const p = ps.find((x) => x.id === o.project_id)!;
      return toOrder(o, p, cs, prices.get(p.id)!, lang, now);
    });
  }

  async function push(ids: string[]): Promise<void> {
    const rows = await orderRows(db, ids);
    for (const o of await toOrders(rows, 'en')) {
      const userId = rows.find((r) => r.id === o.id)!.user_id;
      io.to(userRoom(userId)).emit(LaunchpadEvents.order, o);
    }
  }
  const pushLater = (ids: string[]) => void push(ids).catch((err) => log.error({ err }, 'launchpad push'));

  async function project(idText: string | undefined, field = 'id'): Promise<ProjectRow> {
    const p = await projectRow(db, parseId(idText, field, 'project'));
    if (!p) throw new AppError('NOT_FOUND', 'launchpad.projectUnknown', {}, field);
    return p;
  }

  /** Locks a subscription under review for an operator's decision (any other state: already reviewed). */
  async function lockForReview(q: Queryable, idText: string | undefined) {
    const o = await orderForUpdate(q, parseId(idText, 'id', 'order'));
    if (!o) throw new AppError('NOT_FOUND', 'launchpad.orderUnknown', {}, 'id');
    if (o.status !== 'review') throw new AppError('ALREADY_REVIEWED', 'launchpad.alreadyReviewed', {}, 'id');
    const p = await projectRow(q, o.project_id, true);
    return { o, p: p! };
  }

  async function adminRows(rows: OrderRow[]): Promise<AdminLaunchpadOrder[]> {
    const out = await toOrders(rows, 'en');
    const accounts = await accountsOf(
      db,
      rows.map((r) => r.user_id),
    );
    return out.map((o, i) => ({
      ...o,
      user_id: rows[i]!.user_id,
      account: accounts.find((a) => a.id === rows[i]!.user_id)?.account ?? null,
    }));
  }

  /** One reviewed subscription as operators see it, pushed to its owner too. */
  async function adminAnswer(id: string): Promise<AdminLaunchpadOrder> {
    pushLater([id]);
    return (await adminRows(await orderRows(db, [id])))[0]!;
  }

  /** The running launch job's wake-up (an operator moved a launch time), if it runs here. */
  let wakeJob: (() => void) | null = null;

  const service = {
    /**
     * A launch adds the coin's spot market (coin against the payment currency, the project's
     * tick and lot) through the market module: for every project whose launch time has passed
     * and that has no market yet. Answers the markets added. `market.added` opens their books
     * (app.ts: on every process of a cluster). Run by the `launchpad-launch` job (runLaunches).
     */
    async launchDue(now = Date.now()): Promise<number[]> {
      const added: number[] = [];
      for (const { id } of await unlistedLaunched(db, new Date(now))) {
        const marketId = await db.tx(async (q) => {
          const p = (await projectRow(q, id, true))!;
          if (p.market_id !== null) return null;
          const existing = await marketOfPair(q, p.coin_currency_id, p.pay_currency_id);
          const m =
            existing ??
            (await market.addMarket(q, {
              baseCurrencyId: p.coin_currency_id,
              quoteCurrencyId: p.pay_currency_id,
              tickSize: p.tick_size,
              lotSize: p.lot_size,
              referencePrice: p.issue_price,
            }));
          await setMarket(q, p.id, m);
          return existing === undefined ? m : null;
        });
        if (marketId !== null) added.push(marketId);
      }
      if (added.length > 0) {
        await market.added();
        log.info({ markets: added }, 'launched coins listed');
      }
      return added;
    },

    /**
     * The `launchpad-launch` singleton job (app.ts): lists what is due now, then sleeps until the
     * next launch time, looking again at least every LAUNCH_CHECK_MS (a launch time an operator
     * edited on another process). Answers how to stop it.
     */
    async runLaunches(): Promise<() => Promise<void>> {
      let stopped = false;
      let timer: NodeJS.Timeout | null = null;
      let running: Promise<void> = Promise.resolve();
      const round = async () => {
        timer = null;
        try {
          await service.launchDue();
        } catch (err) {
          log.error({ err }, 'launchpad launch');
        }
        if (stopped) return;
        const next = await nextLaunch(db).catch(() => null);
        // one still due after this round failed to list: try it again at the next check
        const wait = next === null ? LAUNCH_CHECK_MS : next.getTime() - Date.now();
        timer = setTimeout(wake, wait <= 0 ? LAUNCH_CHECK_MS : Math.min(wait, LAUNCH_CHECK_MS));
      };
      const wake = () => {
        if (stopped) return;
        if (timer) clearTimeout(timer);
        timer = null;
        running = running.then(round);
      };
      wake();
      wakeJob = wake;
      return async () => {
        stopped = true;
        if (wakeJob === wake) wakeJob = null;
        if (timer) clearTimeout(timer);
        await running;
      };
    },

    /** The launch job looks again now (an operator moved a launch time), when it runs here. */
    wake(): void {
      wakeJob?.();
    },

    async config(query: LaunchpadListQuery, lang: Lang, now = Date.now()): Promise<LaunchpadConfig> {
      const state = parseState(query.state);
      const [ps, cs] = await Promise.all([projectRows(db), currenciesById(db)]);
      const list = await Promise.all(ps.map((p) => projectOut(p, cs, lang, now)));
      return { projects: state ? list.filter((p) => p.state === state) : list };
    },

    async recommend(lang: Lang): Promise<LaunchpadProject[]> {
      const [ps, cs] = await Promise.all([projectRows(db), currenciesById(db)]);
      return Promise.all(ps.filter((p) => p.recommend).map((p) => projectOut(p, cs, lang)));
    },

    async productInfo(
      userId: number | null,
      idText: string | undefined,
      lang: Lang,
    ): Promise<LaunchpadProjectInfo> {
      const p = await project(idText);
      const cs = await currenciesById(db);
      const pay = cs.get(p.pay_currency_id)!;
      let available: string | null = null;
      let mine: string | null = null;
      if (userId !== null) {
        available = truncateDecimal(
          (await balanceOf(db, { userId, type: 'spot', currencyId: p.pay_currency_id })).available,
          pay.decimals,
        );
        mine = truncateDecimal((await userSubscribed(db, userId, p.id)) ?? '0', pay.decimals);
      }
      return { project: await projectOut(p, cs, lang), available, mine };
    },

    /**
     * POST lh/send/order: the amount in the payment currency, within the per-user limits and what
     * the project has left, frozen in the spot account until an operator decides. One transaction
     * with the project row locked: parallel subscriptions cannot pass a limit or the supply.
     */
    async subscribe(
      userId: number,
      body: LaunchpadOrderBody,
      lang: Lang,
      now = Date.now(),
    ): Promise<LaunchpadOrder> {
      const p0 = await project(body.project_id, 'project_id');
      const pay = (await currenciesById(db)).get(p0.pay_currency_id)!;
      const amount = parseAmount(body.amount, pay);
      const limits = {
        min: truncateDecimal(p0.user_min, pay.decimals),
        max: truncateDecimal(p0.user_max, pay.decimals),
        symbol: pay.symbol,
      };
      if (compareDecimal(amount, p0.user_min) < 0)
        throw new AppError('AMOUNT_BELOW_MINIMUM', 'launchpad.belowMinimum', limits, 'amount');
      const id = await db.tx(async (q) => {
        const p = (await projectRow(q, p0.id, true))!;
        const state = projectState(p, now);
        if (state !== 'subscribing') throw new AppError('CONFLICT', `launchpad.${state}`, {}, 'project_id');
        const mine = (await userSubscribed(q, userId, p.id)) ?? '0';
        if (compareDecimal(addDecimal(mine, amount), p.user_max) > 0)
          throw new AppError(
            'CONFLICT',
            'launchpad.userLimit',
            { ...limits, left: truncateDecimal(dec(p.user_max).minus(mine).toFixed(), pay.decimals) },
            'amount',
          );
        const left = dec(capacityOf(p)).minus(p.subscribed).toFixed();
        if (compareDecimal(amount, left) > 0)
          throw new AppError(
            'CONFLICT',
            'launchpad.supplyLeft',
            { left: truncateDecimal(left, pay.decimals), symbol: pay.symbol },
            'amount',
          );
        await addSubscribed(q, p.id, amount);
        const orderId = await insertOrder(q, userId, p.id, amount, new Date(now));
        const account = { userId, type: 'spot' as const, currencyId: p.pay_currency_id };
        try {
          await post(q, {
            reason: 'launchpad_subscribe',
            refType: 'launchpad_order',
            refId: orderId,
            legs: [
              { account, available: `-${amount}` },
              { account, frozen: amount },
            ],
          });
        } catch (e) {
          if (e instanceof InsufficientFunds)
            throw new AppError('INSUFFICIENT_BALANCE', 'launchpad.insufficient', {}, 'amount');
          throw e;
        }
        return orderId;
      });
      pushLater([id]);
      return (await toOrders(await orderRows(db, [id]), lang, now))[0]!;
    },

    async orders(userId: number, query: LaunchpadOrderQuery, lang: Lang): Promise<LaunchpadOrderPage> {
      const status = parseOrderStatus(query.status, '');
      const paging = parsePaging(query);
      const where = `o.user_id = $1 AND ($2::text = '' OR o.status = $2)`;
      const { rows, total } = await pageOf<OrderRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM launchpad_orders o WHERE ${where}`,
          list: `SELECT ${ORDER_SELECT} FROM launchpad_orders o WHERE ${where} ORDER BY o.id DESC`,
        },
        [userId, status],
        paging,
      );
      return { list: await toOrders(rows, lang), page: paging.page, limit: paging.limit, total };
    },

    /** Takes allotted coins once unlocked (launch + lock-up): they move from frozen to available. */
    async redeem(
      userId: number,
      idText: string | undefined,
      lang: Lang,
      now = Date.now(),
    ): Promise<LaunchpadOrder> {
      const id = parseId(idText, 'id', 'order');
      await db.tx(async (q) => {
        const o = await orderForUpdate(q, id, userId);
        if (!o) throw new AppError('NOT_FOUND', 'launchpad.orderUnknown', {}, 'id');
        if (o.status !== 'passed') throw new AppError('CONFLICT', 'launchpad.notPassed', {}, 'id');
        if (o.redeemed_at !== null) throw new AppError('CONFLICT', 'launchpad.alreadyRedeemed', {}, 'id');
        if (o.unlock_at!.getTime() > now)
          throw new AppError('CONFLICT', 'launchpad.locked', { time: o.unlock_at!.toISOString() }, 'id');
        const p = (await projectRow(q, o.project_id))!;
        if (compareDecimal(o.quantity!, '0') > 0) {
          const account = { userId, type: 'spot' as const, currencyId: p.coin_currency_id };
          await post(q, {
            reason: 'launchpad_redeem',
            refType: 'launchpad_order',
            refId: o.id,
            legs: [
              { account, frozen: `-${o.quantity}` },
              { account, available: o.quantity! },
            ],
          });
        }
        await markRedeemed(q, o.id, new Date(now));
      });
      pushLater([id]);
      return (await toOrders(await orderRows(db, [id]), lang, now))[0]!;
    },

    /** Operators: subscriptions by status, oldest first (the review queue). */
    async adminList(query: { status?: string | undefined; page?: string; limit?: string }) {
      const status = parseOrderStatus(query.status, 'review');
      const paging = parsePaging(query);
      const { rows, total } = await pageOf<OrderRow>(
        db,
        {
          count: 'SELECT count(*)::int AS n FROM launchpad_orders o WHERE o.status = $1',
          list: `SELECT ${ORDER_SELECT} FROM launchpad_orders o WHERE o.status = $1 ORDER BY o.id`,
        },
        [status],
        paging,
      );
      return { items: await adminRows(rows), total, page: paging.page, limit: paging.limit };
    },

    /**
     * An operator passes (allots) a subscription, in whole or in part: the coins bought at the
     * issue price are credited frozen to the user's spot account until launch + lock-up, their
     * cost goes to the launchpad house account, the rest of the payment comes back. Audited.
     */
    async pass(opId: number, ip: string, body: AdminLaunchpadPassBody, now = Date.now()) {
      const id = await db.tx(async (q) => {
        const { o, p } = await lockForReview(q, body.id);
        const cs = await currenciesById(q);
        const pay = cs.get(p.pay_currency_id)!;
        const coin = cs.get(p.coin_currency_id)!;
        const amount = parseAllotment(body.amount, o.amount, pay);
        const a = allot(o.amount, amount, p.issue_price, coin.decimals);
        const user = (currencyId: number) => ({ userId: o.user_id, type: 'spot' as const, currencyId });
        const legs: Leg[] = [
          { account: user(pay.id), frozen: `-${o.amount}` },
          { account: user(pay.id), available: a.refund },
          { account: { house: 'launchpad', currencyId: pay.id }, available: a.cost },
        ];
        if (compareDecimal(a.quantity, '0') > 0)
          legs.push(
            { account: user(coin.id), frozen: a.quantity },
            { account: { house: 'launchpad', currencyId: coin.id }, available: `-${a.quantity}` },
          );
        await post(q, {
          reason: 'launchpad_allot',
          refType: 'launchpad_order',
          refId: o.id,
          operatorId: opId,
          legs,
        });
        // what is not allotted leaves the project's subscribed total
        await freeSubscribed(q, p.id, a.refund);
        await markPassed(q, o.id, { ...a, unlockAt: unlockOf(p), opId, at: new Date(now) });
        await writeMessage(q, o.user_id, 'subscription_passed', {
          id: o.id,
          quantity: a.quantity,
          coin: coin.symbol,
          refund: a.refund,
          currency: pay.symbol,
        });
        const [after] = await orderRows(q, [o.id]);
        await writeAudit(q, {
          operatorId: opId,
          action: 'launchpad.pass',
          targetType: 'launchpad_order',
          targetId: o.id,
          before: o,
          after,
          ip,
        });
        return o.id;
      });
      return adminAnswer(id);
    },

    /** An operator rejects a subscription with a reason: the whole payment comes back. Audited. */
    async reject(
      opId: number,
      ip: string,
      body: { id?: string | undefined; reason?: string | undefined },
      now = Date.now(),
    ) {
      const reason = parseReason(body.reason, REASON_KEYS);
      const id = await db.tx(async (q) => {
        const { o, p } = await lockForReview(q, body.id);
        const account = { userId: o.user_id, type: 'spot' as const, currencyId: p.pay_currency_id };
        await post(q, {
          reason: 'launchpad_reject',
          refType: 'launchpad_order',
          refId: o.id,
          operatorId: opId,
          legs: [
            { account, frozen: `-${o.amount}` },
            { account, available: o.amount },
          ],
        });
        await freeSubscribed(q, p.id, o.amount);
        await markRejected(q, o.id, reason, opId, new Date(now));
        const [after] = await orderRows(q, [o.id]);
        await writeAudit(q, {
          operatorId: opId,
          action: 'launchpad.reject',
          targetType: 'launchpad_order',
          targetId: o.id,
          before: o,
          after,
          ip,
        });
        return o.id;
      });
      return adminAnswer(id);
    },
  };
  return service;
}

declare module 'fastify' {
  interface FastifyInstance {
    launchpad: LaunchpadService;
  }
}
