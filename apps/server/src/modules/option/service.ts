import {
  OPTION_DIRECTIONS,
  OPTION_STATUSES,
  type OptionDirectionName,
  OptionEvents,
  type OptionListQuery,
  type OptionOrder,
  type OptionOrderPage,
  type OptionSeconds,
  type OptionSecondsQuery,
  OptionStreams,
  type OptionSubmitBody,
  type OptionTickMessage,
  type PayableCurrency,
} from '@verdant/api';
import { compareDecimal, parseDecimal, truncateDecimal, winPayout } from '@verdant/engine';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import { pageOf, parsePaging } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import { balanceOf, InsufficientFunds, post } from '../../ledger/ledger.ts';
import { addStreamResolver, userRoom } from '../../realtime/index.ts';
import type { Market, MarketService } from '../market/service.ts';
import { verificationStates } from '../user/service.ts';
import { OptionSettler, type Settled } from './settlement.ts';

/** A purchase is priced by the latest recorded tick; older than this, the feed is stalled and buying waits. */
export const MAX_TICK_AGE_MS = 10_000;

interface SecondsRow {
  market_id: number;
  seconds: number;
  profit_ratio: string;
  fee_rate: string;
  min_amount: string;
  max_amount: string;
}

interface CurrencyRow {
  currency_id: number;
  symbol: string;
  decimals: number;
}

interface OrderRow {
  id: string;
  user_id: number;
  market_id: number;
  currency_id: number;
  direction: OptionDirectionName;
  seconds: number;
  amount: string;
  profit_ratio: string;
  fee_rate: string;
  status: 'waiting' | 'delivered';
  purchase_tick_id: string;
  purchase_price: string;
  purchase_tick_at: string;
  created_at: string;
  deliver_at: string;
  delivery_tick_id: string | null;
  delivery_price: string | null;
  delivery_tick_at: string | null;
  result: 'win' | 'loss' | 'flat' | null;
  payout: string | null;
  pnl: string | null;
  fee: string | null;
  settled_at: string | null;
}

const ms = (col: string) => `(extract(epoch FROM ${col}) * 1000)::bigint::text`;
/** A time selected as milliseconds (`ms`) as the API gives it: ISO text in UTC. */
const iso = (msText: string): string => new Date(Number(msText)).toISOString();
const ORDER_SELECT = `o.id::text, o.user_id, o.market_id, o.currency_id, o.direction, o.seconds, o.amount::text,
  o.profit_ratio::text, o.fee_rate::text, o.status, o.purchase_tick_id::text, o.purchase_price::text,
  ${ms('o.purchase_tick_at')} AS purchase_tick_at, ${ms('o.created_at')} AS created_at,
  ${ms('o.deliver_at')} AS deliver_at, o.delivery_tick_id::text, o.delivery_price::text,
  ${ms('o.delivery_tick_at')} AS delivery_tick_at, o.result, o.payout::text, o.pnl::text, o.fee::text,
  ${ms('o.settled_at')} AS settled_at`;

export type OptionService = ReturnType<typeof createOptionService>;

/**
 * Timed options: delivery times and payable currencies as data, purchases priced by the
 * recorded index, and the settlement job that delivers each order exactly once against the first
 * recorded tick at or after its delivery time (docs/decisions.md, "Timed options").
 */
export function createOptionService(
  ctx: AppContext,
  market: MarketService,
  io: Server,
  log: FastifyBaseLogger,
) {
  const { db } = ctx;
  let currencies: Promise<CurrencyRow[]> | null = null;

  function payable(): Promise<CurrencyRow[]> {
    currencies ??= Promise.all([
      db.query<{ currency_id: number }>(
        'SELECT currency_id FROM option_currencies WHERE enabled ORDER BY sort, currency_id',
      ),
      currenciesById(db),
    ])
      .then(([rows, byId]) =>
        rows.flatMap((r) => {
          const c = byId.get(r.currency_id);
          return c ? [{ currency_id: c.id, symbol: c.symbol, decimals: c.decimals }] : [];
        }),
      )
      .catch((e) => {
        currencies = null;
        throw e;
      });
    return currencies;
  }

  async function secondsRows(marketId?: number): Promise<SecondsRow[]> {
    return db.query<SecondsRow>(
      `SELECT market_id, seconds, profit_ratio::text, fee_rate::text, min_amount::text, max_amount::text
         FROM option_seconds WHERE enabled AND ($1::int IS NULL OR market_id = $1) ORDER BY market_id, seconds`,
      [marketId ?? null],
    );
  }

  async function toApi(rows: OrderRow[]): Promise<OptionOrder[]> {
    const [ms, cs] = await Promise.all([market.allMarkets(), currenciesById(db)]);
    return rows.map((r) => {
      const m = ms.find((x) => x.id === r.market_id)!;
      const c = cs.get(r.currency_id)!;
      const amt = (v: string) => truncateDecimal(v, c.decimals);
      return {
        id: r.id,
        symbol: m.symbol,
        name: `${m.base}/${m.quote}`,
        currency: c.symbol,
        direction: r.direction,
        seconds: r.seconds,
        amount: amt(r.amount),
        profit_ratio: canon(r.profit_ratio),
        fee_rate: canon(r.fee_rate),
        expected_profit: winPayout({
          amount: r.amount,
          profitRatio: r.profit_ratio,
          feeRate: r.fee_rate,
          decimals: c.decimals,
        }).net,
        status: r.status,
        purchase_time: iso(r.created_at),
        deliver_at: iso(r.deliver_at),
        purchase: {
          id: r.purchase_tick_id,
          price: canon(r.purchase_price),
          time: iso(r.purchase_tick_at),
        },
        delivery:
          r.delivery_tick_id === null
            ? null
            : { id: r.delivery_tick_id, price: canon(r.delivery_price!), time: iso(r.delivery_tick_at!) },
        result: r.result,
        payout: r.payout === null ? null : amt(r.payout),
        pnl: r.pnl === null ? null : amt(r.pnl),
        fee: r.fee === null ? null : amt(r.fee),
        settled_at: r.settled_at === null ? null : iso(r.settled_at),
      };
    });
  }

  async function ordersById(ids: string[]): Promise<OptionOrder[]> {
    if (ids.length === 0) return [];
    const rows = await db.query<OrderRow>(
      `SELECT ${ORDER_SELECT} FROM option_orders o WHERE o.id = ANY ($1::bigint[]) ORDER BY o.id`,
      [ids],
    );
    return toApi(rows);
  }

  /** After a commit: each owner's socket hears of its orders. */
  async function push(settled: Settled[]): Promise<void> {
    for (const o of await ordersById(settled.map((s) => s.id)))
      io.to(userRoom(settled.find((s) => s.id === o.id)!.userId)).emit(OptionEvents.order, o);
  }

  const settler = new OptionSettler(db, {
    onSettled: (settled) => {
      push(settled).catch((err) => log.error({ err }, 'option push'));
    },
    onError: (err) => log.error({ err }, 'option settlement'),
  });

  // the live index of the option screen: every recorded tick, as recorded
  const stopTicks = market.onTicks((prices, atMs) => {
    settler.ticked(atMs);
    void market.allMarkets().then((list) => {
      for (const [id, price] of prices) {
        const m = list.find((x) => x.id === id);
        if (!m) continue;
        const msg: OptionTickMessage = { symbol: m.symbol, price, time: atMs };
        io.to(OptionStreams.index(m.symbol)).emit(OptionEvents.tick, msg);
      }
    });
  });

  addStreamResolver(io, (stream) => {
    const [kind, symbol, ...rest] = stream.split(':');
    if (kind !== 'option' || rest.length > 0 || !symbol || !/^[a-z0-9]{2,20}$/.test(symbol)) return null;
    return {
      room: stream,
      snapshot: async (socket) => {
        const m = (await market.markets()).find((x) => x.symbol === symbol);
        const tick = m ? await market.indexAt(m.id) : null;
        if (m && tick) {
          const msg: OptionTickMessage = { symbol, price: tick.price, time: tick.time };
          socket.emit(OptionEvents.tick, msg);
        }
      },
    };
  });

  function parseDirection(v: string | undefined): OptionDirectionName {
    const s = (v ?? '').trim().toLowerCase();
    if (!(OPTION_DIRECTIONS as readonly string[]).includes(s))
      throw invalid('option.directionInvalid', 'direction');
    return s as OptionDirectionName;
  }

  async function parseCurrency(v: string | undefined): Promise<CurrencyRow> {
    const list = await payable();
    const s = (v ?? '').trim();
    if (!s) {
      // one payable currency needs no choosing
      if (list.length === 1) return list[0]!;
      throw invalid('option.currencyRequired', 'currency');
    }
    const c = list.find((x) => x.symbol.toLowerCase() === s.toLowerCase() || String(x.currency_id) === s);
    if (!c)
      throw new AppError(
        'CURRENCY_UNAVAILABLE',
        'option.currencyUnknown',
        { currency: s.slice(0, 20) },
        'currency',
      );
    return c;
  }

  const service = {
    settler,
    /** Settles what is due (the job calls it; tests and the bench too). */
    settleDue: (now?: number) => settler.settleDue(now),

    /**
     * The settlement job, on one process of a cluster (jobs/singleton.ts): it first settles what
     * fell due while no process ran it, then follows the deliveries.
     */
    start(): void {
      ctx.jobs.runSingleton('option-settlement', () => {
        settler.start();
        return () => settler.stop();
      });
    },

    async stop(): Promise<void> {
      stopTicks();
      await settler.stop();
    },

    async seconds(query: OptionSecondsQuery): Promise<OptionSeconds[]> {
      const m = query.symbol?.trim() ? await market.market(query.symbol) : null;
      const [rows, list, cs] = await Promise.all([secondsRows(m?.id), market.markets(), payable()]);
      const decimals = Math.max(0, ...cs.map((c) => c.decimals));
      const out: OptionSeconds[] = [];
      for (const r of rows) {
        const mk = list.find((x) => x.id === r.market_id);
        if (!mk) continue;
        out.push({
          symbol: mk.symbol,
          name: `${mk.base}/${mk.quote}`,
          seconds: r.seconds,
          profit_ratio: canon(r.profit_ratio),
          fee_rate: canon(r.fee_rate),
          min_amount: truncateDecimal(r.min_amount, decimals),
          max_amount: truncateDecimal(r.max_amount, decimals),
        });
      }
      return out;
    },

    async payableCurrencies(userId: number | null): Promise<PayableCurrency[]> {
      const list = await payable();
      return Promise.all(
        list.map(async (c) => ({
          currency_id: c.currency_id,
          symbol: c.symbol,
          decimals: c.decimals,
          available:
            userId === null
              ? null
              : truncateDecimal(
                  (await balanceOf(db, { userId, type: 'option', currencyId: c.currency_id })).available,
                  c.decimals,
                ),
        })),
      );
    },

    /**
     * microtrade/submit: the rules of spec §5 and §6 in order (delivery time first, amount present
     * and inside the range, verified account, balance), then one transaction: the order, priced by
     * the latest recorded tick, and its stake frozen in the option account.
     */
    async submit(userId: number, body: OptionSubmitBody): Promise<OptionOrder> {
      const m: Market = await market.market(body.symbol);
      const secondsText = (body.seconds ?? '').trim();
      if (!secondsText) throw invalid('option.secondsRequired', 'seconds');
      const rows = await secondsRows(m.id);
      const terms = /^\d{1,6}$/.test(secondsText)
        ? rows.find((r) => r.seconds === Number(secondsText))
        : undefined;
      if (!terms) throw invalid('option.secondsUnknown', 'seconds');
      const direction = parseDirection(body.direction);
      const cur = await parseCurrency(body.currency);
      const raw = (body.amount ?? '').trim();
      if (!raw) throw invalid('option.amountRequired', 'amount');
      const range = {
        min: truncateDecimal(terms.min_amount, cur.decimals),
        max: truncateDecimal(terms.max_amount, cur.decimals),
        symbol: cur.symbol,
      };
      const amount = parseDecimal(raw, { positive: true, maxDecimals: cur.decimals });
      if (amount === null) throw invalid('option.amountInvalid', 'amount', { decimals: cur.decimals });
      if (compareDecimal(amount, terms.min_amount) < 0 || compareDecimal(amount, terms.max_amount) > 0)
        throw invalid('option.amountRange', 'amount', range);
      if ((await verificationStates(db, userId))?.verification !== 'verified')
        throw new AppError('VERIFICATION_REQUIRED', 'option.verificationRequired');

      const now = Date.now();
      const tick = await market.indexAt(m.id, now);
      if (!tick || now - tick.time > MAX_TICK_AGE_MS) throw new AppError('UNAVAILABLE', 'option.noPrice');
      const deliverAt = now + terms.seconds * 1000;
      const id = await db.tx(async (q) => {
        const [row] = await q.query<{ id: string }>(
          `INSERT INTO option_orders (user_id, market_id, currency_id, direction, seconds, amount, profit_ratio, fee_rate,
                                      purchase_tick_id, purchase_price, purchase_tick_at, created_at, deliver_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id::text`,
          [
            userId,
            m.id,
            cur.currency_id,
            direction,
            terms.seconds,
            amount,
            terms.profit_ratio,
            terms.fee_rate,
            tick.id,
            tick.price,
            new Date(tick.time).toISOString(),
            new Date(now).toISOString(),
            new Date(deliverAt).toISOString(),
          ],
        );
        const account = { userId, type: 'option' as const, currencyId: cur.currency_id };
        try {
          await post(q, {
            reason: 'option_stake',
            refType: 'option_order',
            refId: row!.id,
            legs: [
              { account, available: `-${amount}` },
              { account, frozen: amount },
            ],
          });
        } catch (e) {
          if (e instanceof InsufficientFunds)
            throw new AppError('INSUFFICIENT_BALANCE', 'option.insufficient', {}, 'amount');
          throw e;
        }
        return row!.id;
      });
      settler.notify(deliverAt);
      const [order] = await ordersById([id]);
      io.to(userRoom(userId)).emit(OptionEvents.order, order);
      return order!;
    },

    async list(userId: number, query: OptionListQuery): Promise<OptionOrderPage> {
      const status = (query.status ?? '').trim() || 'waiting';
      if (!(OPTION_STATUSES as readonly string[]).includes(status))
        throw invalid('option.statusInvalid', 'status');
      const paging = parsePaging(query);
      const m = query.symbol?.trim() ? await market.market(query.symbol) : null;
      const where = 'o.user_id = $1 AND o.status = $2 AND ($3::int IS NULL OR o.market_id = $3)';
      const order = status === 'waiting' ? 'o.deliver_at, o.id' : 'o.id DESC';
      const { rows, total } = await pageOf<OrderRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM option_orders o WHERE ${where}`,
          list: `SELECT ${ORDER_SELECT} FROM option_orders o WHERE ${where} ORDER BY ${order}`,
        },
        [userId, status, m?.id ?? null],
        paging,
      );
      return { list: await toApi(rows), page: paging.page, limit: paging.limit, total };
    },
  };
  return service;
}

declare module 'fastify' {
  interface FastifyInstance {
    option: OptionService;
  }
}

// read by the operators' console (modules/admin)
export { userOptionOrders } from './operator-reads.ts';
