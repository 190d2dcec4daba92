import {
  type Lang,
  TRUST_ORDER_STATUSES,
  type TrustBuyBody,
  type TrustConfig,
  TrustEvents,
  type TrustOrder,
  type TrustOrderPage,
  type TrustOrderQuery,
  type TrustOrderStatus,
  type TrustPenaltyRuleName,
  type TrustProduct,
  type TrustProductInfo,
  type TrustProductState,
  type TrustReport,
} from '@verdant/api';
import {
  compareDecimal,
  dailyInterest,
  daysAccrued,
  dec,
  earlyRedemptionPenalty,
  parseDecimal,
  subDecimal,
  totalYieldRate,
  truncateDecimal,
} from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { pageOf, parsePaging } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { type Currency, currenciesById } from '../../ledger/currencies.ts';
import { balanceOf, InsufficientFunds, type Leg, type Posting, post, postMany } from '../../ledger/ledger.ts';
import { userRoom } from '../../realtime/index.ts';

/** How often the accrual job looks for payouts that fell due (payout times are start + k days). */
export const ACCRUAL_INTERVAL_MS = 60_000;
/** Orders paid per transaction by the job. */
const ACCRUAL_BATCH = 500;

interface ProductRow {
  id: number;
  name: Record<string, string>;
  currency_id: number;
  term_days: number;
  min_amount: string;
  daily_rate: string;
  state: TrustProductState;
  capacity: string;
  sold: string;
  penalty_rule: TrustPenaltyRuleName;
  penalty_rate: string;
}

interface OrderRow {
  id: string;
  user_id: number;
  product_id: number;
  currency_id: number;
  amount: string;
  term_days: number;
  daily_rate: string;
  daily_interest: string;
  penalty_rule: TrustPenaltyRuleName;
  penalty_rate: string;
  started_at: string;
  days_paid: number;
  interest_paid: string;
  status: TrustOrderStatus;
  penalty: string | null;
  ended_at: string | null;
}

const PRODUCT_SELECT = `id, name, currency_id, term_days, min_amount::text, daily_rate::text, state,
  capacity::text, sold::text, penalty_rule, penalty_rate::text`;
const ms = (col: string) => `(extract(epoch FROM ${col}) * 1000)::bigint::text`;
const ORDER_SELECT = `o.id::text, o.user_id, o.product_id, o.currency_id, o.amount::text, o.term_days,
  o.daily_rate::text, o.daily_interest::text, o.penalty_rule, o.penalty_rate::text,
  ${ms('o.started_at')} AS started_at, o.days_paid, o.interest_paid::text, o.status, o.penalty::text,
  ${ms('o.ended_at')} AS ended_at`;

const iso = (msText: string | number) => new Date(Number(msText)).toISOString();
const nameIn = (names: Record<string, string>, lang: Lang) => names[lang] ?? names.en ?? '';

/** What one order is owed by `now`: days not yet paid, their interest, and whether it matures. */
function dueOf(o: OrderRow, now: number, dayMs: number) {
  const days = daysAccrued(Number(o.started_at), now, o.term_days, dayMs);
  const newDays = Math.max(0, days - o.days_paid);
  return {
    days,
    newDays,
    interest: dec(o.daily_interest).times(newDays).toFixed(),
    matures: days === o.term_days,
  };
}

/**
 * The postings that bring an order up to `now`: the interest of the days not yet paid, from the
 * trust pool to the user's trust account, and at maturity the principal unfrozen. Empty when
 * nothing is due.
 */
function accrualPostings(o: OrderRow, now: number, dayMs: number): Posting[] {
  const d = dueOf(o, now, dayMs);
  const account = { userId: o.user_id, type: 'trust' as const, currencyId: o.currency_id };
  const out: Posting[] = [];
  if (d.newDays > 0 && compareDecimal(d.interest, '0') > 0)
    out.push({
      reason: 'trust_interest',
      refType: 'trust_order',
      refId: o.id,
      legs: [
        { account, available: d.interest },
        { account: { house: 'trust_pool', currencyId: o.currency_id }, available: `-${d.interest}` },
      ],
    });
  if (d.matures)
    out.push({
      reason: 'trust_maturity',
      refType: 'trust_order',
      refId: o.id,
      legs: [
        { account, frozen: `-${o.amount}` },
        { account, available: o.amount },
      ],
    });
  return out;
}

/**
 * Brings locked orders (rows read FOR UPDATE in this transaction) up to `now`: money through the
 * ledger and the rows moved forward in the same transaction. Answers the orders that changed.
 */
async function accrueLocked(q: Queryable, rows: OrderRow[], now: number, dayMs: number): Promise<OrderRow[]> {
  const changed = rows.filter((o) => o.status === 'hosting' && dueOf(o, now, dayMs).newDays > 0);
  if (changed.length === 0) return [];
  const postings = changed.flatMap((o) => accrualPostings(o, now, dayMs));
  if (postings.length > 0) {
    const results = await postMany(q, postings);
    // interest and maturity only credit users or unfreeze what the order froze: a refusal is a bug
    if (results.some((r) => !r.ok)) throw new Error('trust accrual: a posting was refused');
  }
  const days = changed.map((o) => dueOf(o, now, dayMs).days);
  await q.query(
    `UPDATE trust_orders o
        SET days_paid = u.days, interest_paid = o.daily_interest * u.days,
            status = CASE WHEN u.days = o.term_days THEN 'completed' ELSE o.status END,
            ended_at = CASE WHEN u.days = o.term_days THEN o.matures_at ELSE o.ended_at END
       FROM unnest($1::bigint[], $2::int[]) AS u(id, days)
      WHERE o.id = u.id AND o.status = 'hosting' AND o.days_paid < u.days`,
    [changed.map((o) => o.id), days],
  );
  return changed;
}

export type TrustService = ReturnType<typeof createTrustService>;

/**
 * Locked deposit products (docs/decisions.md, "Locked deposit products"): products as data,
 * purchases that freeze the principal in the trust account, daily interest paid by a singleton
 * job that catches up after downtime and pays each day once, early redemption with the product's
 * penalty.
 */
export function createTrustService(ctx: AppContext, io: Server, log: FastifyBaseLogger) {
  const { db } = ctx;
  // a day of interest (config.trustDayMs: shorter only in end-to-end tests)
  const dayMs = ctx.config.trustDayMs;
  const accrualEveryMs = Math.min(ACCRUAL_INTERVAL_MS, Math.max(250, Math.floor(dayMs / 4)));

  async function products(): Promise<ProductRow[]> {
    return db.query<ProductRow>(`SELECT ${PRODUCT_SELECT} FROM trust_products ORDER BY sort, id`);
  }

  function toProduct(p: ProductRow, c: Currency, lang: Lang): TrustProduct {
    const amt = (v: string) => truncateDecimal(v, c.decimals);
    return {
      id: p.id,
      name: nameIn(p.name, lang),
      currency: c.symbol,
      currency_id: c.id,
      decimals: c.decimals,
      term_days: p.term_days,
      min_amount: amt(p.min_amount),
      daily_rate: canon(p.daily_rate),
      total_rate: canon(totalYieldRate(p.daily_rate, p.term_days)),
      state: p.state,
      capacity: amt(p.capacity),
      remaining: amt(subDecimal(p.capacity, p.sold)),
      penalty_rule: p.penalty_rule,
      penalty_rate: canon(p.penalty_rate),
    };
  }

  async function toOrders(rows: OrderRow[], lang: Lang, now = Date.now()): Promise<TrustOrder[]> {
    const [cs, ps] = await Promise.all([currenciesById(db), products()]);
    return rows.map((o) => {
      const c = cs.get(o.currency_id)!;
      const p = ps.find((x) => x.id === o.product_id)!;
      const amt = (v: string) => truncateDecimal(v, c.decimals);
      const start = Number(o.started_at);
      const hosting = o.status === 'hosting';
      // the job may be behind (a process restarting): show what the order is owed by now
      const days = hosting ? Math.max(o.days_paid, daysAccrued(start, now, o.term_days, dayMs)) : o.days_paid;
      const penalty = hosting
        ? earlyRedemptionPenalty({
            rule: o.penalty_rule,
            rate: o.penalty_rate,
            principal: o.amount,
            dailyRate: o.daily_rate,
            termDays: o.term_days,
            daysAccrued: days,
            decimals: c.decimals,
          })
        : (o.penalty ?? '0');
      return {
        id: o.id,
        product_id: o.product_id,
        name: nameIn(p.name, lang),
        currency: c.symbol,
        status: o.status,
        amount: amt(o.amount),
        term_days: o.term_days,
        daily_rate: canon(o.daily_rate),
        daily_interest: amt(o.daily_interest),
        days_paid: o.days_paid,
        remaining_days: hosting ? o.term_days - days : 0,
        income: amt(o.interest_paid),
        expected_income: amt(dec(o.daily_interest).times(o.term_days).toFixed()),
        penalty_rule: o.penalty_rule,
        penalty_rate: canon(o.penalty_rate),
        penalty: amt(penalty),
        started_at: iso(start),
        payout_time: hosting && days < o.term_days ? iso(start + (days + 1) * dayMs) : null,
        matures_at: iso(start + o.term_days * dayMs),
        ended_at: o.ended_at === null ? null : iso(o.ended_at),
      };
    });
  }

  async function push(rows: { id: string; user_id: number }[]): Promise<void> {
    if (rows.length === 0) return;
    const fresh = await db.query<OrderRow>(
      `SELECT ${ORDER_SELECT} FROM trust_orders o WHERE o.id = ANY ($1::bigint[]) ORDER BY o.id`,
      [rows.map((r) => r.id)],
    );
    // the socket payload is in English names: a screen refetches its list in its own language
    for (const o of await toOrders(fresh, 'en')) {
      const userId = fresh.find((r) => r.id === o.id)!.user_id;
      io.to(userRoom(userId)).emit(TrustEvents.order, o);
    }
  }

  function parseProductId(v: string | undefined): number {
    const s = (v ?? '').trim();
    if (!s) throw invalid('trust.productRequired', 'product_id');
    if (!/^\d{1,9}$/.test(s)) throw new AppError('NOT_FOUND', 'trust.productUnknown', {}, 'product_id');
    return Number(s);
  }

  async function product(id: number): Promise<ProductRow> {
    const [p] = await db.query<ProductRow>(`SELECT ${PRODUCT_SELECT} FROM trust_products WHERE id = $1`, [
      id,
    ]);
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
        // the next payout of each order is started_at + (days_paid + 1) days
        const rows = await q.query<OrderRow>(
          `SELECT ${ORDER_SELECT} FROM trust_orders o
            WHERE o.status = 'hosting' AND o.started_at + (o.days_paid + 1) * $2::int * interval '1 millisecond' <= $1
            ORDER BY o.id LIMIT ${ACCRUAL_BATCH} FOR UPDATE`,
          [new Date(now).toISOString(), dayMs],
        );
        return { changed: await accrueLocked(q, rows, now, dayMs), full: rows.length === ACCRUAL_BATCH };
      });
      moved += batch.changed.length;
      push(batch.changed).catch((err) => log.error({ err }, 'trust push'));
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
      const [ps, cs] = await Promise.all([products(), currenciesById(db)]);
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
      if (p.state !== 'ongoing') throw new AppError('CONFLICT', 'trust.notOpen', {}, 'product_id');
      const raw = (body.amount ?? '').trim();
      if (!raw) throw invalid('trust.amountRequired', 'amount');
      const amount = parseDecimal(raw, { positive: true, maxDecimals: c.decimals });
      if (amount === null) throw invalid('trust.amountInvalid', 'amount', { decimals: c.decimals });
      const min = truncateDecimal(p.min_amount, c.decimals);
      if (compareDecimal(amount, p.min_amount) < 0)
        throw new AppError('AMOUNT_BELOW_MINIMUM', 'trust.belowMinimum', { min, symbol: c.symbol }, 'amount');
      const agree = (body.agree ?? '').trim().toLowerCase();
      if (agree !== '1' && agree !== 'true' && agree !== 'on')
        throw new AppError('AGREEMENT_REQUIRED', 'trust.agreementRequired', {}, 'agree');

      const id = await db.tx(async (q) => {
        const taken = await q.query(
          `UPDATE trust_products SET sold = sold + $2 WHERE id = $1 AND state = 'ongoing' AND sold + $2 <= capacity
           RETURNING id`,
          [p.id, amount],
        );
        if (taken.length === 0) {
          const [left] = await q.query<{ left: string }>(
            'SELECT (capacity - sold)::text AS left FROM trust_products WHERE id = $1',
            [p.id],
          );
          throw new AppError(
            'CONFLICT',
            'trust.capacity',
            { left: truncateDecimal(left?.left ?? '0', c.decimals), symbol: c.symbol },
            'amount',
          );
        }
        const daily = dailyInterest(amount, p.daily_rate, c.decimals);
        const [row] = await q.query<{ id: string }>(
          `INSERT INTO trust_orders (user_id, product_id, currency_id, amount, term_days, daily_rate, daily_interest,
                                     penalty_rule, penalty_rate, started_at, matures_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id::text`,
          [
            userId,
            p.id,
            p.currency_id,
            amount,
            p.term_days,
            p.daily_rate,
            daily,
            p.penalty_rule,
            p.penalty_rate,
            new Date(now).toISOString(),
            new Date(now + p.term_days * dayMs).toISOString(),
          ],
        );
        const account = { userId, type: 'trust' as const, currencyId: p.currency_id };
        try {
          await post(q, {
            reason: 'trust_lock',
            refType: 'trust_order',
            refId: row!.id,
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
        return row!.id;
      });
      const rows = await db.query<OrderRow>(`SELECT ${ORDER_SELECT} FROM trust_orders o WHERE o.id = $1`, [
        id,
      ]);
      void push(rows);
      return (await toOrders(rows, lang, now))[0]!;
    },

    async orders(userId: number, query: TrustOrderQuery, lang: Lang): Promise<TrustOrderPage> {
      const status = (query.status ?? '').trim() || 'hosting';
      if (!(TRUST_ORDER_STATUSES as readonly string[]).includes(status))
        throw invalid('trust.statusInvalid', 'status');
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
      const s = (idText ?? '').trim();
      if (!s) throw invalid('trust.orderRequired', 'id');
      if (!/^\d{1,18}$/.test(s)) throw new AppError('NOT_FOUND', 'trust.orderUnknown', {}, 'id');
      const changed = await db.tx(async (q) => {
        const [o] = await q.query<OrderRow>(
          `SELECT ${ORDER_SELECT} FROM trust_orders o WHERE o.id = $1 AND o.user_id = $2 FOR UPDATE`,
          [s, userId],
        );
        if (!o) throw new AppError('NOT_FOUND', 'trust.orderUnknown', {}, 'id');
        if (o.status !== 'hosting') throw new AppError('CONFLICT', 'trust.notHosting', {}, 'id');
        await accrueLocked(q, [o], now, dayMs);
        const due = dueOf(o, now, dayMs);
        if (due.matures) return o;
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
        await q.query(
          `UPDATE trust_orders SET status = 'redeemed', penalty = $2, ended_at = $3 WHERE id = $1 AND status = 'hosting'`,
          [o.id, penalty, new Date(now).toISOString()],
        );
        return o;
      });
      const rows = await db.query<OrderRow>(`SELECT ${ORDER_SELECT} FROM trust_orders o WHERE o.id = $1`, [
        changed.id,
      ]);
      void push(rows);
      return (await toOrders(rows, lang, now))[0]!;
    },

    async report(userId: number): Promise<TrustReport> {
      const [sums, counts, cs] = await Promise.all([
        db.query<{ currency_id: number; hosted: string; income: string }>(
          `SELECT currency_id, sum(amount) FILTER (WHERE status = 'hosting')::text AS hosted,
                  sum(interest_paid)::text AS income
             FROM trust_orders WHERE user_id = $1 GROUP BY currency_id ORDER BY currency_id`,
          [userId],
        ),
        db.query<{ status: TrustOrderStatus; n: number }>(
          'SELECT status, count(*)::int AS n FROM trust_orders WHERE user_id = $1 GROUP BY status',
          [userId],
        ),
        currenciesById(db),
      ]);
      const n = (s: TrustOrderStatus) => counts.find((r) => r.status === s)?.n ?? 0;
      return {
        currencies: sums.map((r) => {
          const c = cs.get(r.currency_id)!;
          return {
            currency: c.symbol,
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
