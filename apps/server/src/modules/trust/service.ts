import {
  type Lang,
  type TrustBuyBody,
  type TrustConfig,
  TrustEvents,
  type TrustOrder,
  type TrustOrderPage,
  type TrustOrderQuery,
  type TrustOrderStatus,
  type TrustProductInfo,
  type TrustReport,
} from '@verdant/api';
import {
  compareDecimal,
  dailyInterest,
  earlyRedemptionPenalty,
  subDecimal,
  truncateDecimal,
} from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { pageOf, parsePaging } from '../../db/paging.ts';
import { AppError } from '../../http/errors.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import { balanceOf, InsufficientFunds, type Leg, post } from '../../ledger/ledger.ts';
import { userRoom } from '../../realtime/index.ts';
import { ACCRUAL_BATCH, ACCRUAL_INTERVAL_MS, accrueLocked, dueForUpdate, dueOf } from './accrual.ts';
import { toOrder, toProduct } from './present.ts';
import {
  insertOrder,
  markRedeemed,
  ORDER_SELECT,
  type OrderRow,
  orderRows,
  ownOrderForUpdate,
  type ProductRow,
  productRow,
  productRows,
  reportRows,
  takeCapacity,
} from './store.ts';
import { parseBuy, parseOrderId, parseOrderStatus, parseProductId } from './validation.ts';

export type TrustService = ReturnType<typeof createTrustService>;

/**
 * Locked deposit products (docs/decisions.md, "Locked deposit products"): products as data,
 * purchases that freeze the principal in the trust account, daily interest paid by a singleton
 * job that catches up after downtime and pays each day once, early redemption with the product's
 * penalty. Rows in store.ts, the accrual in accrual.ts, input checks in validation.ts, API shapes
 * in present.ts.
 */
export function createTrustService(ctx: AppContext, io: Server, log: FastifyBaseLogger) {
  const { db } = ctx;
  // a day of interest (config.trustDayMs: shorter only in end-to-end tests)
  const dayMs = ctx.config.trustDayMs;
  const accrualEveryMs = Math.min(ACCRUAL_INTERVAL_MS, Math.max(250, Math.floor(dayMs / 4)));

  async function toOrders(rows: OrderRow[], lang: Lang, now = Date.now()): Promise<TrustOrder[]> {
    const [cs, ps] = await Promise.all([currenciesById(db), productRows(db)]);
    return rows.map((o) =>
      toOrder(o, ps.find((x) => x.id === o.product_id)!, cs.get(o.currency_id)!, lang, now, dayMs),
    );
  }

  async function push(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const fresh = await orderRows(db, ids);
    // the socket payload is in English names: a screen refetches its list in its own language
    for (const o of await toOrders(fresh, 'en')) {
      const userId = fresh.find((r) => r.id === o.id)!.user_id;
      io.to(userRoom(userId)).emit(TrustEvents.order, o);
    }
  }
  const pushLater = (ids: string[]) => void push(ids).catch((err) => log.error({ err }, 'trust push'));

  /** One order as the API shows it right after a change, pushed to its owner too. */
  async function answer(id: string, lang: Lang, now: number): Promise<TrustOrder> {
    pushLater([id]);
    return (await toOrders(await orderRows(db, [id]), lang, now))[0]!;
  }

  async function product(id: number): Promise<ProductRow> {
    const p = await productRow(db, id);
    if (!p) throw new AppError('NOT_FOUND', 'trust.productUnknown', {}, 'product_id');
    return p;
  }

  /**
   * Pays what fell due by `now` (default the clock): every hosting order with a payout time at or
   * before it, in batches, each in one transaction with its rows locked. Running it twice pays
   * once; after a stop it pays every missed day at once. Answers how many orders it moved.
   */
  async function accrueDue(now = Date.now()): Promise<number> {
    let moved = 0;
    for (;;) {
      const batch = await db.tx(async (q) => {
        const rows = await dueForUpdate(q, now, dayMs);
        return { changed: await accrueLocked(q, rows, now, dayMs), full: rows.length === ACCRUAL_BATCH };
      });
      moved += batch.changed.length;
      pushLater(batch.changed.map((o) => o.id));
      if (!batch.full) return moved;
    }
  }

  return {
    accrueDue,

    /**
     * The accrual job, on one process of a cluster (jobs/singleton.ts): it first pays what fell
     * due while nobody ran it, then looks again every ACCRUAL_INTERVAL_MS.
     */
    start(): void {
      ctx.jobs.runSingleton('trust-accrual', () => {
        let running: Promise<unknown> = Promise.resolve();
        const run = () => {
          running = accrueDue().catch((err) => log.error({ err }, 'trust accrual'));
        };
        run();
        const timer = setInterval(run, accrualEveryMs);
        return async () => {
          clearInterval(timer);
          await running;
        };
      });
    },

    async config(lang: Lang): Promise<TrustConfig> {
      const [ps, cs] = await Promise.all([productRows(db), currenciesById(db)]);
      return { products: ps.map((p) => toProduct(p, cs.get(p.currency_id)!, lang)) };
    },

    async productInfo(
      userId: number | null,
      idText: string | undefined,
      lang: Lang,
    ): Promise<TrustProductInfo> {
      const p = await product(parseProductId(idText));
      const c = (await currenciesById(db)).get(p.currency_id)!;
      const available =
        userId === null
          ? null
          : truncateDecimal(
              (await balanceOf(db, { userId, type: 'trust', currencyId: p.currency_id })).available,
              c.decimals,
            );
      return { product: toProduct(p, c, lang), available };
    },

    /**
     * POST lh/deposit: the rules of spec §5 in order (amount present, at least the minimum escrow,
     * service agreement ticked), then one transaction: the product's capacity taken (one
     * conditional UPDATE, so parallel purchases never oversell), the order, and the principal
     * frozen in the trust account (the ledger refuses a short balance and the whole purchase
     * rolls back).
     */
    async buy(userId: number, body: TrustBuyBody, lang: Lang, now = Date.now()): Promise<TrustOrder> {
      const p = await product(parseProductId(body.product_id));
      const c = (await currenciesById(db)).get(p.currency_id)!;
      const amount = parseBuy(body, p, c);

      const id = await db.tx(async (q) => {
        const left = await takeCapacity(q, p.id, amount);
        if (left !== null)
          throw new AppError(
            'CONFLICT',
            'trust.capacity',
            { left: truncateDecimal(left, c.decimals), symbol: c.symbol },
            'amount',
          );
        const orderId = await insertOrder(q, {
          userId,
          p,
          amount,
          dailyInterest: dailyInterest(amount, p.daily_rate, c.decimals),
          startedAt: new Date(now),
          maturesAt: new Date(now + p.term_days * dayMs),
        });
        const account = { userId, type: 'trust' as const, currencyId: p.currency_id };
        try {
          await post(q, {
            reason: 'trust_lock',
            refType: 'trust_order',
            refId: orderId,
            legs: [
              { account, available: `-${amount}` },
              { account, frozen: amount },
            ],
          });
        } catch (e) {
          if (e instanceof InsufficientFunds)
            throw new AppError('INSUFFICIENT_BALANCE', 'trust.insufficient', {}, 'amount');
          throw e;
        }
        return orderId;
      });
      return answer(id, lang, now);
    },

    async orders(userId: number, query: TrustOrderQuery, lang: Lang): Promise<TrustOrderPage> {
      const status = parseOrderStatus(query.status);
      const paging = parsePaging(query);
      const where = 'o.user_id = $1 AND o.status = $2';
      const { rows, total } = await pageOf<OrderRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM trust_orders o WHERE ${where}`,
          list: `SELECT ${ORDER_SELECT} FROM trust_orders o WHERE ${where} ORDER BY o.id DESC`,
        },
        [userId, status],
        paging,
      );
      return { list: await toOrders(rows, lang), page: paging.page, limit: paging.limit, total };
    },

    /**
     * Early redemption. In one transaction with the order locked: first whatever days it is owed
     * by now are paid (the job may be behind); an order that has matured meanwhile completes
     * instead, with no penalty. Otherwise the principal comes back less the product's penalty,
     * which goes to the trust pool; the interest already paid stays the user's.
     */
    async cancel(
      userId: number,
      idText: string | undefined,
      lang: Lang,
      now = Date.now(),
    ): Promise<TrustOrder> {
      const id = parseOrderId(idText);
      await db.tx(async (q) => {
        const o = await ownOrderForUpdate(q, id, userId);
        if (!o) throw new AppError('NOT_FOUND', 'trust.orderUnknown', {}, 'id');
        if (o.status !== 'hosting') throw new AppError('CONFLICT', 'trust.notHosting', {}, 'id');
        await accrueLocked(q, [o], now, dayMs);
        const due = dueOf(o, now, dayMs);
        if (due.matures) return;
        const c = (await currenciesById(q)).get(o.currency_id)!;
        const penalty = earlyRedemptionPenalty({
          rule: o.penalty_rule,
          rate: o.penalty_rate,
          principal: o.amount,
          dailyRate: o.daily_rate,
          termDays: o.term_days,
          daysAccrued: due.days,
          decimals: c.decimals,
        });
        const account = { userId, type: 'trust' as const, currencyId: o.currency_id };
        const legs: Leg[] = [
          { account, frozen: `-${o.amount}` },
          { account, available: subDecimal(o.amount, penalty) },
        ];
        if (compareDecimal(penalty, '0') > 0)
          legs.push({ account: { house: 'trust_pool', currencyId: o.currency_id }, available: penalty });
        await post(q, { reason: 'trust_redeem', refType: 'trust_order', refId: o.id, legs });
        await markRedeemed(q, o.id, penalty, new Date(now));
      });
      return answer(id, lang, now);
    },

    async report(userId: number): Promise<TrustReport> {
      const [{ sums, counts }, cs] = await Promise.all([reportRows(db, userId), currenciesById(db)]);
      const n = (s: TrustOrderStatus) => counts.find((r) => r.status === s)?.n ?? 0;
      return {
        currencies: sums.map((r) => {
          const c = cs.get(r.currency_id)!;
          return {
            currency: c.symbol,
            decimals: c.decimals,
            hosted: truncateDecimal(r.hosted ?? '0', c.decimals),
            income: truncateDecimal(r.income ?? '0', c.decimals),
          };
        }),
        orders: { hosting: n('hosting'), completed: n('completed'), redeemed: n('redeemed') },
      };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    trust: TrustService;
  }
}

// read by the operators' console (modules/admin)
export { userTrustOrders } from './operator-reads.ts';
