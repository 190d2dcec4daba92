import {
  type AdminLaunchpadOrder,
  type AdminLaunchpadPassBody,
  LAUNCHPAD_ORDER_STATUSES,
  LAUNCHPAD_STATES,
  type Lang,
  type LaunchpadConfig,
  LaunchpadEvents,
  type LaunchpadListQuery,
  type LaunchpadOrder,
  type LaunchpadOrderBody,
  type LaunchpadOrderPage,
  type LaunchpadOrderQuery,
  type LaunchpadOrderStatus,
  type LaunchpadProject,
  type LaunchpadProjectInfo,
  type LaunchpadState,
} from '@verdant/api';
import {
  addDecimal,
  allot,
  compareDecimal,
  DAY_MS,
  dec,
  parseDecimal,
  subscriptionReturn,
  truncateDecimal,
} from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { pageOf, parsePaging } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { parseReason } from '../../http/parse.ts';
import { type Currency, currenciesById } from '../../ledger/currencies.ts';
import { balanceOf, InsufficientFunds, type Leg, post } from '../../ledger/ledger.ts';
import { userRoom } from '../../realtime/index.ts';
import { writeAudit } from '../admin/service.ts';
import type { MarketService } from '../market/service.ts';

interface ProjectRow {
  id: number;
  name: Record<string, string>;
  intro: Record<string, string>;
  coin_currency_id: number;
  pay_currency_id: number;
  issue_price: string;
  total_supply: string;
  subscribed: string;
  user_min: string;
  user_max: string;
  starts_at: Date;
  ends_at: Date;
  launch_at: Date;
  lockup_days: number;
  expected_return: string;
  recommend: boolean;
}

interface OrderRow {
  id: string;
  user_id: number;
  project_id: number;
  amount: string;
  status: LaunchpadOrderStatus;
  quantity: string | null;
  cost: string | null;
  refund: string | null;
  unlock_at: Date | null;
  redeemed_at: Date | null;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  reason: string | null;
  created_at: Date;
}

const PROJECT_SELECT = `id, name, intro, coin_currency_id, pay_currency_id, issue_price::text, total_supply::text,
  subscribed::text, user_min::text, user_max::text, starts_at, ends_at, launch_at, lockup_days,
  expected_return::text, recommend`;
const ORDER_SELECT = `o.id::text, o.user_id, o.project_id, o.amount::text, o.status, o.quantity::text, o.cost::text,
  o.refund::text, o.unlock_at, o.redeemed_at, o.reviewed_by, o.reviewed_at, o.reason, o.created_at`;

// an operator's reason reads as in every other review (the admin module's messages)
const REASON_KEYS = { required: 'admin.reasonRequired', tooLong: 'admin.reasonTooLong' };
const inLang = (m: Record<string, string>, lang: Lang) => m[lang] ?? m.en ?? '';
const capacityOf = (p: ProjectRow) => dec(p.total_supply).times(p.issue_price).toFixed();

/**
 * A project's state at `now`: launched from its launch time; before that sold out when the
 * subscriptions reach its capacity or the subscription has closed; subscribing while open.
 */
export function projectState(p: ProjectRow, now: number): LaunchpadState {
  if (now >= p.launch_at.getTime()) return 'launched';
  if (compareDecimal(p.subscribed, capacityOf(p)) >= 0 || now >= p.ends_at.getTime()) return 'sold_out';
  if (now < p.starts_at.getTime()) return 'upcoming';
  return 'subscribing';
}

export type LaunchpadService = ReturnType<typeof createLaunchpadService>;

/**
 * New-coin subscription (docs/decisions.md, "New-coin subscription"): projects as data, a
 * subscription's payment frozen in the spot account until an operator passes (allots) or rejects
 * it, allotted coins locked until launch plus lock-up, then redeemed by the user.
 */
export function createLaunchpadService(
  ctx: AppContext,
  market: MarketService,
  io: Server,
  log: FastifyBaseLogger,
) {
  const { db } = ctx;

  const projects = (q: Queryable = db) =>
    q.query<ProjectRow>(`SELECT ${PROJECT_SELECT} FROM launchpad_projects ORDER BY sort, id`);

  /** The coin's current price: the index of its market against the payment currency once it trades. */
  async function priceOf(p: ProjectRow): Promise<string> {
    const m = (await market.allMarkets()).find(
      (x) => x.baseCurrencyId === p.coin_currency_id && x.quoteCurrencyId === p.pay_currency_id,
    );
    const tick = m ? await market.indexAt(m.id) : null;
    return tick?.price ?? canon(p.issue_price);
  }

  async function toProject(
    p: ProjectRow,
    cs: ReadonlyMap<number, Currency>,
    lang: Lang,
    now = Date.now(),
  ): Promise<LaunchpadProject> {
    const coin = cs.get(p.coin_currency_id)!;
    const pay = cs.get(p.pay_currency_id)!;
    const capacity = capacityOf(p);
    return {
      id: p.id,
      name: inLang(p.name, lang),
      intro: inLang(p.intro, lang),
      coin: coin.symbol,
      coin_decimals: coin.decimals,
      pay_currency: pay.symbol,
      pay_decimals: pay.decimals,
      issue_price: canon(p.issue_price),
      price: await priceOf(p),
      total_supply: truncateDecimal(p.total_supply, coin.decimals),
      subscribed: truncateDecimal(p.subscribed, pay.decimals),
      capacity: truncateDecimal(capacity, pay.decimals),
      progress: truncateDecimal(dec(p.subscribed).div(capacity).toFixed(), 4),
      user_min: truncateDecimal(p.user_min, pay.decimals),
      user_max: truncateDecimal(p.user_max, pay.decimals),
      starts_at: p.starts_at.toISOString(),
      ends_at: p.ends_at.toISOString(),
      launch_at: p.launch_at.toISOString(),
      lockup_days: p.lockup_days,
      unlock_at: new Date(p.launch_at.getTime() + p.lockup_days * DAY_MS).toISOString(),
      expected_return: canon(p.expected_return),
      state: projectState(p, now),
    };
  }

  async function toOrders(rows: OrderRow[], lang: Lang, now = Date.now()): Promise<LaunchpadOrder[]> {
    if (rows.length === 0) return [];
    const [ps, cs] = await Promise.all([projects(), currenciesById(db)]);
    const prices = new Map<number, string>();
    for (const p of ps) if (rows.some((r) => r.project_id === p.id)) prices.set(p.id, await priceOf(p));
    return rows.map((o) => {
      const p = ps.find((x) => x.id === o.project_id)!;
      const pay = cs.get(p.pay_currency_id)!;
      const coin = cs.get(p.coin_currency_id)!;
      const ret =
        o.status === 'passed' && o.quantity !== null
          ? subscriptionReturn(o.quantity, p.issue_price, prices.get(p.id)!, pay.decimals)
          : null;
      return {
        id: o.id,
        project_id: p.id,
        name: inLang(p.name, lang),
        coin: coin.symbol,
        pay_currency: pay.symbol,
        amount: truncateDecimal(o.amount, pay.decimals),
        status: o.status,
        issue_price: canon(p.issue_price),
        quantity: o.quantity === null ? null : truncateDecimal(o.quantity, coin.decimals),
        cost: o.cost === null ? null : truncateDecimal(o.cost, pay.decimals),
        refund: o.refund === null ? null : truncateDecimal(o.refund, pay.decimals),
        unlock_at: o.unlock_at?.toISOString() ?? null,
        redeemable:
          o.status === 'passed' &&
          o.redeemed_at === null &&
          o.unlock_at !== null &&
          o.unlock_at.getTime() <= now,
        redeemed_at: o.redeemed_at?.toISOString() ?? null,
        accumulated_return: ret?.accumulated ?? null,
        return_rate: ret?.rate ?? null,
        reason: o.reason,
        created_at: o.created_at.toISOString(),
        reviewed_at: o.reviewed_at?.toISOString() ?? null,
      };
    });
  }

  async function orderRows(q: Queryable, ids: string[]): Promise<OrderRow[]> {
    return q.query<OrderRow>(
      `SELECT ${ORDER_SELECT} FROM launchpad_orders o WHERE o.id = ANY ($1::bigint[])`,
      [ids],
    );
  }

  async function push(ids: string[]): Promise<void> {
    const rows = await orderRows(db, ids);
    for (const o of await toOrders(rows, 'en')) {
      const userId = rows.find((r) => r.id === o.id)!.user_id;
      io.to(userRoom(userId)).emit(LaunchpadEvents.order, o);
    }
  }
  const pushLater = (ids: string[]) => void push(ids).catch((err) => log.error({ err }, 'launchpad push'));

  function parseId(v: string | undefined, field: string, key: string): string {
    const s = (v ?? '').trim();
    if (!s) throw invalid(`launchpad.${key}Required`, field);
    if (!/^\d{1,18}$/.test(s)) throw new AppError('NOT_FOUND', `launchpad.${key}Unknown`, {}, field);
    return s;
  }

  async function project(idText: string | undefined, field = 'id'): Promise<ProjectRow> {
    const id = parseId(idText, field, 'project');
    const [p] = await db.query<ProjectRow>(`SELECT ${PROJECT_SELECT} FROM launchpad_projects WHERE id = $1`, [
      id,
    ]);
    if (!p) throw new AppError('NOT_FOUND', 'launchpad.projectUnknown', {}, field);
    return p;
  }

  /** Locks a subscription under review for an operator's decision (any other state: already reviewed). */
  async function lockForReview(q: Queryable, idText: string | undefined) {
    const id = parseId(idText, 'id', 'order');
    const [o] = await q.query<OrderRow>(
      `SELECT ${ORDER_SELECT} FROM launchpad_orders o WHERE o.id = $1 FOR UPDATE`,
      [id],
    );
    if (!o) throw new AppError('NOT_FOUND', 'launchpad.orderUnknown', {}, 'id');
    if (o.status !== 'review') throw new AppError('ALREADY_REVIEWED', 'launchpad.alreadyReviewed', {}, 'id');
    const [p] = await q.query<ProjectRow>(
      `SELECT ${PROJECT_SELECT} FROM launchpad_projects WHERE id = $1 FOR UPDATE`,
      [o.project_id],
    );
    return { o, p: p! };
  }

  async function adminRows(rows: OrderRow[]): Promise<AdminLaunchpadOrder[]> {
    const out = await toOrders(rows, 'en');
    const accounts = await db.query<{ id: number; account: string | null }>(
      'SELECT id, coalesce(email, mobile) AS account FROM users WHERE id = ANY ($1::int[])',
      [rows.map((r) => r.user_id)],
    );
    return out.map((o, i) => ({
      ...o,
      user_id: rows[i]!.user_id,
      account: accounts.find((a) => a.id === rows[i]!.user_id)?.account ?? null,
    }));
  }

  return {
    async config(query: LaunchpadListQuery, lang: Lang, now = Date.now()): Promise<LaunchpadConfig> {
      const state = (query.state ?? '').trim();
      if (state && !(LAUNCHPAD_STATES as readonly string[]).includes(state))
        throw invalid('launchpad.stateInvalid', 'state');
      const [ps, cs] = await Promise.all([projects(), currenciesById(db)]);
      const list = await Promise.all(ps.map((p) => toProject(p, cs, lang, now)));
      return { projects: state ? list.filter((p) => p.state === state) : list };
    },

    async recommend(lang: Lang): Promise<LaunchpadProject[]> {
      const [ps, cs] = await Promise.all([projects(), currenciesById(db)]);
      return Promise.all(ps.filter((p) => p.recommend).map((p) => toProject(p, cs, lang)));
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
        const [m] = await db.query<{ s: string | null }>(
          `SELECT sum(amount)::text AS s FROM launchpad_orders WHERE user_id = $1 AND project_id = $2 AND status <> 'rejected'`,
          [userId, p.id],
        );
        mine = truncateDecimal(m?.s ?? '0', pay.decimals);
      }
      return { project: await toProject(p, cs, lang), available, mine };
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
      const raw = (body.amount ?? '').trim();
      if (!raw) throw invalid('launchpad.amountRequired', 'amount');
      const amount = parseDecimal(raw, { positive: true, maxDecimals: pay.decimals });
      if (amount === null) throw invalid('launchpad.amountInvalid', 'amount', { decimals: pay.decimals });
      const limits = {
        min: truncateDecimal(p0.user_min, pay.decimals),
        max: truncateDecimal(p0.user_max, pay.decimals),
        symbol: pay.symbol,
      };
      if (compareDecimal(amount, p0.user_min) < 0)
        throw new AppError('AMOUNT_BELOW_MINIMUM', 'launchpad.belowMinimum', limits, 'amount');
      const id = await db.tx(async (q) => {
        const [p] = await q.query<ProjectRow>(
          `SELECT ${PROJECT_SELECT} FROM launchpad_projects WHERE id = $1 FOR UPDATE`,
          [p0.id],
        );
        const state = projectState(p!, now);
        if (state !== 'subscribing') throw new AppError('CONFLICT', `launchpad.${state}`, {}, 'project_id');
        const [m] = await q.query<{ s: string }>(
          `SELECT coalesce(sum(amount), 0)::text AS s FROM launchpad_orders
            WHERE user_id = $1 AND project_id = $2 AND status <> 'rejected'`,
          [userId, p!.id],
        );
        if (compareDecimal(addDecimal(m!.s, amount), p!.user_max) > 0)
          throw new AppError(
            'CONFLICT',
            'launchpad.userLimit',
            { ...limits, left: truncateDecimal(dec(p!.user_max).minus(m!.s).toFixed(), pay.decimals) },
            'amount',
          );
        const left = dec(capacityOf(p!)).minus(p!.subscribed).toFixed();
        if (compareDecimal(amount, left) > 0)
          throw new AppError(
            'CONFLICT',
            'launchpad.supplyLeft',
            { left: truncateDecimal(left, pay.decimals), symbol: pay.symbol },
            'amount',
          );
        await q.query('UPDATE launchpad_projects SET subscribed = subscribed + $2 WHERE id = $1', [
          p!.id,
          amount,
        ]);
        const [row] = await q.query<{ id: string }>(
          `INSERT INTO launchpad_orders (user_id, project_id, amount, created_at) VALUES ($1, $2, $3, $4) RETURNING id::text`,
          [userId, p!.id, amount, new Date(now).toISOString()],
        );
        const account = { userId, type: 'spot' as const, currencyId: p!.pay_currency_id };
        try {
          await post(q, {
            reason: 'launchpad_subscribe',
            refType: 'launchpad_order',
            refId: row!.id,
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
        return row!.id;
      });
      pushLater([id]);
      return (await toOrders(await orderRows(db, [id]), lang, now))[0]!;
    },

    async orders(userId: number, query: LaunchpadOrderQuery, lang: Lang): Promise<LaunchpadOrderPage> {
      const status = (query.status ?? '').trim();
      if (status && !(LAUNCHPAD_ORDER_STATUSES as readonly string[]).includes(status))
        throw invalid('launchpad.statusInvalid', 'status');
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
        const [o] = await q.query<OrderRow>(
          `SELECT ${ORDER_SELECT} FROM launchpad_orders o WHERE o.id = $1 AND o.user_id = $2 FOR UPDATE`,
          [id, userId],
        );
        if (!o) throw new AppError('NOT_FOUND', 'launchpad.orderUnknown', {}, 'id');
        if (o.status !== 'passed') throw new AppError('CONFLICT', 'launchpad.notPassed', {}, 'id');
        if (o.redeemed_at !== null) throw new AppError('CONFLICT', 'launchpad.alreadyRedeemed', {}, 'id');
        if (o.unlock_at!.getTime() > now)
          throw new AppError('CONFLICT', 'launchpad.locked', { time: o.unlock_at!.toISOString() }, 'id');
        const [p] = await q.query<ProjectRow>(
          `SELECT ${PROJECT_SELECT} FROM launchpad_projects WHERE id = $1`,
          [o.project_id],
        );
        if (compareDecimal(o.quantity!, '0') > 0) {
          const account = { userId, type: 'spot' as const, currencyId: p!.coin_currency_id };
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
        await q.query('UPDATE launchpad_orders SET redeemed_at = $2 WHERE id = $1', [
          o.id,
          new Date(now).toISOString(),
        ]);
      });
      pushLater([id]);
      return (await toOrders(await orderRows(db, [id]), lang, now))[0]!;
    },

    /** Operators: subscriptions by status, oldest first (the review queue). */
    async adminList(query: { status?: string | undefined; page?: string; limit?: string }) {
      const status = (query.status ?? '').trim() || 'review';
      if (!(LAUNCHPAD_ORDER_STATUSES as readonly string[]).includes(status))
        throw invalid('launchpad.statusInvalid', 'status');
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
        const raw = (body.amount ?? '').trim();
        const amount = raw ? parseDecimal(raw, { maxDecimals: pay.decimals }) : o.amount;
        if (amount === null || compareDecimal(amount, '0') < 0 || compareDecimal(amount, o.amount) > 0)
          throw invalid('launchpad.allotInvalid', 'amount', {
            max: truncateDecimal(o.amount, pay.decimals),
            symbol: pay.symbol,
          });
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
        await q.query('UPDATE launchpad_projects SET subscribed = subscribed - $2 WHERE id = $1', [
          p.id,
          a.refund,
        ]);
        const unlock = new Date(p.launch_at.getTime() + p.lockup_days * DAY_MS);
        await q.query(
          `UPDATE launchpad_orders SET status = 'passed', quantity = $2, cost = $3, refund = $4, unlock_at = $5,
                  reviewed_by = $6, reviewed_at = $7 WHERE id = $1`,
          [o.id, a.quantity, a.cost, a.refund, unlock.toISOString(), opId, new Date(now).toISOString()],
        );
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
      pushLater([id]);
      return (await adminRows(await orderRows(db, [id])))[0]!;
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
        await q.query('UPDATE launchpad_projects SET subscribed = subscribed - $2 WHERE id = $1', [
          p.id,
          o.amount,
        ]);
        await q.query(
          `UPDATE launchpad_orders SET status = 'rejected', reason = $2, reviewed_by = $3, reviewed_at = $4 WHERE id = $1`,
          [o.id, reason, opId, new Date(now).toISOString()],
        );
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
      pushLater([id]);
      return (await adminRows(await orderRows(db, [id])))[0]!;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    launchpad: LaunchpadService;
  }
}
