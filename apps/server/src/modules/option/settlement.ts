import { fromScaled, type OptionDirection, settleOption, toScaled } from '@verdant/engine';
import type { Db } from '../../db/client.ts';
import { plainArray, textArray } from '../../db/values.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import { type Posting, postMany } from '../../ledger/ledger.ts';
import { latestTickTimes, type SpanTick, ticksThrough } from '../market/service.ts';
import { type MessageParams, writeMessages } from '../news/service.ts';
import { feeCharges, rebatePostings } from '../referral/index.ts';

/** Orders settled per transaction: big enough for the bench's 10,000 in a handful, small enough to keep locks short. */
export const SETTLE_BATCH = 5000;

interface DueRow {
  id: string;
  user_id: number;
  market_id: number;
  currency_id: number;
  decimals: number;
  direction: OptionDirection;
  amount: string;
  profit_ratio: string;
  fee_rate: string;
  purchase_price: string;
  due: string;
}

/** One settled order, as the caller publishes it after the commit. */
export interface Settled {
  id: string;
  userId: number;
}

/**
 * Settles up to `limit` waiting orders whose delivery time is at or before `now` and whose
 * delivery tick (the first recorded at or after the delivery time) exists, in one transaction:
 * the orders are locked while still waiting (FOR UPDATE SKIP LOCKED keeps racing callers off each
 * other's rows), posted, then marked delivered by a conditional UPDATE ... WHERE status =
 * 'waiting' that must move every one of them, or the whole transaction rolls back: an order is
 * settled exactly once however many callers race. Answers the orders settled and how many due
 * orders it looked at (fewer than `limit`: none left with a tick).
 */
export async function settleBatch(
  db: Db,
  now: number,
  limit = SETTLE_BATCH,
): Promise<{ settled: Settled[]; seen: number }> {
  return db.tx(async (q) => {
    // an order can settle once its market has a tick at or after its delivery time: only those
    // are taken (and locked), in delivery order; each market's latest tick time comes from the
    // market module, once per batch
    const latest = await latestTickTimes(q);
    // the rows are chosen, sorted and locked first, and only those taken are turned into text.
    // They come back as one JSON array in one row: PGlite parses every field of every result row
    // in JavaScript, which for 5,000 orders cost more than the query (docs/bench.md)
    const [found] = await q.query<{ rows: string | null }>(
      `SELECT json_agg(json_build_object('id', o.id::text, 'user_id', o.user_id, 'market_id', o.market_id,
                                         'currency_id', o.currency_id, 'direction', o.direction,
                                         'amount', o.amount::text, 'profit_ratio', o.profit_ratio::text,
                                         'fee_rate', o.fee_rate::text, 'purchase_price', o.purchase_price::text,
                                         'due', floor(extract(epoch FROM o.deliver_at) * 1000)::bigint::text)
                       ORDER BY d.deliver_at, d.id)::text AS rows
         FROM (SELECT o.id, o.deliver_at
                 FROM option_orders o
                 JOIN unnest($3::int[], $4::timestamptz[]) AS l(market_id, at) ON l.market_id = o.market_id
                WHERE o.status = 'waiting' AND o.deliver_at <= $1 AND o.deliver_at <= l.at
                ORDER BY o.deliver_at, o.id
                LIMIT $2
                  FOR UPDATE OF o SKIP LOCKED) d
         JOIN option_orders o ON o.id = d.id`,
      [new Date(now).toISOString(), limit, [...latest.keys()], [...latest.values()]],
    );
    const rows = JSON.parse(found?.rows ?? '[]') as Omit<DueRow, 'decimals'>[];
    if (rows.length === 0) return { settled: [], seen: 0 };
    const currencies = await currenciesById(q);
    const due: DueRow[] = rows.map((o) => ({ ...o, decimals: currencies.get(o.currency_id)!.decimals }));
    // the ticks of each market from its earliest delivery time to the first tick at or after its
    // latest: one range read instead of one look-up per order
    const span = new Map<number, { from: number; to: number }>();
    for (const o of due) {
      const d = Number(o.due);
      const s = span.get(o.market_id);
      if (!s) span.set(o.market_id, { from: d, to: d });
      else {
        s.from = Math.min(s.from, d);
        s.to = Math.max(s.to, d);
      }
    }
    const ticks = await ticksThrough(
      q,
      [...span].map(([marketId, { from, to }]) => ({ marketId, from, to })),
    );
    const byMarket = new Map<number, SpanTick[]>();
    for (const t of ticks) {
      const list = byMarket.get(t.market_id);
      if (list) list.push(t);
      else byMarket.set(t.market_id, [t]);
    }
    /** The first tick at or after `d` (ticks in time order, ties by id: the earlier recorded). */
    const deliveryTick = (market: number, d: number): SpanTick | undefined => {
      const list = byMarket.get(market) ?? [];
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (Number(list[mid]!.t) < d) lo = mid + 1;
        else hi = mid;
      }
      return list[lo];
    };

    const cols = {
      id: [] as string[],
      tick: [] as string[],
      price: [] as string[],
      at: [] as string[],
      result: [] as string[],
      payout: [] as string[],
      pnl: [] as string[],
      fee: [] as string[],
    };
    // one posting per order: a batch of one posts it, a larger batch merges them (below)
    const postings: Posting[] = [];
    const taken: DueRow[] = [];
    for (const o of due) {
      const tick = deliveryTick(o.market_id, Number(o.due));
      // none only if a tick was removed meanwhile (ticks are never removed): leave it waiting
      if (!tick) continue;
      taken.push(o);
      const s = settleOption({
        amount: o.amount,
        profitRatio: o.profit_ratio,
        feeRate: o.fee_rate,
        decimals: o.decimals,
        direction: o.direction,
        purchasePrice: o.purchase_price,
        deliveryPrice: tick.price,
      });
      cols.id.push(o.id);
      cols.tick.push(tick.id);
      cols.price.push(tick.price);
      cols.at.push(tick.at);
      cols.result.push(s.result);
      cols.payout.push(s.payout);
      cols.pnl.push(s.pnl);
      cols.fee.push(s.fee);
      const user = { userId: o.user_id, type: 'option' as const, currencyId: o.currency_id };
      const stake = { account: user, frozen: `-${o.amount}` };
      const ref = { refType: 'option_order', refId: o.id };
      // the stake in flight leaves the frozen balance; the rest is the pool's and the fee's share
      if (s.result === 'win')
        postings.push({
          reason: 'option_win',
          ...ref,
          legs: [
            stake,
            { account: user, available: s.payout },
            { account: { house: 'option_pool', currencyId: o.currency_id }, available: `-${s.pool}` },
            { account: { house: 'fees', currencyId: o.currency_id }, available: s.fee },
          ],
        });
      else if (s.result === 'loss')
        postings.push({
          reason: 'option_loss',
          ...ref,
          legs: [
            stake,
            { account: { house: 'option_pool', currencyId: o.currency_id }, available: o.amount },
          ],
        });
      else
        postings.push({
          reason: 'option_flat',
          ...ref,
          legs: [stake, { account: user, available: o.amount }],
        });
    }
    if (taken.length === 0) return { settled: [], seen: due.length };
    // The ledger: one journal per currency for the batch. Its legs are every order's merged, so it
    // writes one entry per account touched: each owner's option account (their stakes out of
    // frozen, their payouts in: one line in their funds record), the pool's net and the fees.
    // One journal per order wrote a journal and 2-4 entries per order, most of a pass's cost
    // (docs/bench.md). A batch of one order keeps its own journal (option_win/loss/flat, naming
    // the order). Each order names its journal (delivery_journal_id), and ledger:verify proves
    // that every journal pays each owner exactly what their orders in it say.
    const byCurrency = groupBy(
      taken.map((_, i) => i),
      (i) => String(taken[i]!.currency_id),
    );
    const journalOf: number[] = [];
    const list: Posting[] = [];
    for (const g of byCurrency) {
      for (const i of g) journalOf[i] = list.length;
      list.push(
        g.length === 1
          ? postings[g[0]!]!
          : {
              reason: 'options_delivered',
              refType: 'option_orders',
              legs: g.flatMap((i) => postings[i]!.legs),
            },
      );
    }
    const grouped = list.length;
    // the referrers' rebates on the winners' fees, one per order as its fee was charged
    list.push(
      ...(await rebatePostings(
        q,
        postings.flatMap((p) => feeCharges(p, 'option')),
      )),
    );
    const results = await postMany(q, list);
    const short = results.find((r) => !r.ok);
    // the stake was frozen at purchase: a shortfall means the ledger and the orders disagree
    if (short && !short.ok)
      throw new Error(`option settlement: account ${short.accountId} lacks a frozen stake`);
    const journals = results.slice(0, grouped).map((r) => (r.ok ? r.journalId : ''));
    // The rows were locked above while waiting (FOR UPDATE re-checks the status of a row another
    // transaction changed), so this moves every one; the condition stays as the last word: if it
    // ever moves fewer, the whole batch, postings included, rolls back rather than pay twice.
    const [moved] = await q.query<{ n: number }>(
      `WITH u AS (
         UPDATE option_orders o
            SET status = 'delivered', delivery_tick_id = u.tick, delivery_price = u.price, delivery_tick_at = u.at,
                result = u.result, payout = u.payout, pnl = u.pnl, fee = u.fee, settled_at = now(),
                delivery_journal_id = u.journal
           FROM unnest($1::bigint[], $2::bigint[], $3::numeric[], $4::timestamptz[], $5::text[], $6::numeric[],
                       $7::numeric[], $8::numeric[], $9::bigint[]) AS u(id, tick, price, at, result, payout, pnl, fee, journal)
          WHERE o.id = u.id AND o.status = 'waiting'
          RETURNING 1
       )
       SELECT count(*)::int AS n FROM u`,
      [
        plainArray(cols.id),
        plainArray(cols.tick),
        plainArray(cols.price),
        textArray(cols.at),
        plainArray(cols.result),
        plainArray(cols.payout),
        plainArray(cols.pnl),
        plainArray(cols.fee),
        plainArray(journalOf.map((j) => journals[j]!)),
      ],
    );
    if (moved?.n !== taken.length)
      throw new Error(
        `option settlement: ${moved?.n ?? 0} of ${taken.length} locked orders were still waiting`,
      );
    // each owner hears of the delivery: one message per user and currency for the pass
    const messages = deliveryMessages(
      taken.map((o, i) => ({
        order: o,
        price: cols.price[i]!,
        result: cols.result[i]!,
        payout: cols.payout[i]!,
      })),
    );
    await writeMessages(q, 'option_delivered', messages.single);
    await writeMessages(q, 'options_delivered', messages.grouped);
    return { settled: taken.map((o) => ({ id: o.id, userId: o.user_id })), seen: due.length };
  });
}

/** The items grouped by key, groups in order of their first item, items in order. */
function groupBy<T>(items: readonly T[], key: (t: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const g = groups.get(k);
    if (g) g.push(t);
    else groups.set(k, [t]);
  }
  return [...groups.values()];
}

interface Delivered {
  order: DueRow;
  price: string;
  result: string;
  payout: string;
}

/**
 * The messages of a settlement pass: one per user and currency. An order delivered alone says
 * its price, result and payout (`option_delivered`); several of one user delivered in the same
 * pass (bought together, due together) make one message with the counts and the total paid
 * (`options_delivered`): ten options due in the same second are one notification, not ten, and
 * the order history has each one's ticks.
 */
export function deliveryMessages(list: readonly Delivered[]) {
  const groups = groupBy(list, (d) => `${d.order.user_id}:${d.order.currency_id}`);
  const single: { userId: number; params: MessageParams }[] = [];
  const grouped: { userId: number; params: MessageParams }[] = [];
  for (const g of groups) {
    const { order } = g[0]!;
    if (g.length === 1) {
      single.push({
        userId: order.user_id,
        params: {
          id: order.id,
          price: g[0]!.price,
          result: g[0]!.result,
          payout: g[0]!.payout,
          currency_id: order.currency_id,
        },
      });
      continue;
    }
    // exact: payouts are NUMERIC(36,18) decimal strings
    let paid = 0n;
    const count = { win: 0, loss: 0, flat: 0 } as Record<string, number>;
    for (const d of g) {
      paid += toScaled(d.payout, 18)!;
      count[d.result] = (count[d.result] ?? 0) + 1;
    }
    grouped.push({
      userId: order.user_id,
      params: {
        count: g.length,
        won: count.win!,
        lost: count.loss!,
        flat: count.flat!,
        payout: fromScaled(paid, 18),
        currency_id: order.currency_id,
      },
    });
  }
  return { single, grouped };
}

/** When the next waiting order is due (ms since 1970), or null when none waits. */
export async function nextDue(db: Db): Promise<number | null> {
  const [row] = await db.query<{ t: string | null }>(
    `SELECT (extract(epoch FROM min(deliver_at)) * 1000)::bigint::text AS t FROM option_orders WHERE status = 'waiting'`,
  );
  return row?.t == null ? null : Number(row.t);
}

export interface SettlerHooks {
  /** After each commit, with the orders it settled (socket pushes). */
  onSettled(settled: Settled[]): void;
  onError(err: unknown): void;
}

/** How soon an overdue order whose delivery tick is not recorded yet is looked at again. */
const RETRY_MS = 200;
/**
 * The longest the job sleeps: an order bought on another process of a cluster, or a tick its
 * feed recorded there, is seen by then (on one process both wake it at once).
 */
const MAX_SLEEP_MS = 1_000;

/**
 * The settlement job: `settleDue(now)` settles every order due by `now` that has its delivery
 * tick (idempotent: run it from anywhere, any number of times). The timer wakes at the next
 * delivery time; a new tick, or a purchase due sooner, wakes it earlier. At start it settles
 * whatever fell due while the server was down, against the ticks recorded since.
 */
export class OptionSettler {
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Number.POSITIVE_INFINITY;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  /** The earliest delivery time known to wait (Infinity: none). */
  private due = Number.POSITIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly hooks: SettlerHooks,
    private readonly batch = SETTLE_BATCH,
  ) {}

  /** Settles every order due by `now` whose delivery tick is recorded; answers how many. */
  async settleDue(now = Date.now()): Promise<number> {
    let total = 0;
    for (;;) {
      const { settled, seen } = await settleBatch(this.db, now, this.batch);
      total += settled.length;
      if (settled.length > 0) this.hooks.onSettled(settled);
      if (seen < this.batch) return total;
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.due = Number.POSITIVE_INFINITY;
    this.wake();
  }

  /** A purchase due at `dueAt` (or a tick): run now when it is already due, else sleep until then. */
  notify(dueAt: number): void {
    if (this.stopped) return;
    if (dueAt < this.due) this.due = dueAt;
    if (this.due <= Date.now()) this.wake();
    else this.sleepUntil(this.due);
  }

  /** A round of ticks was recorded at `atMs`: orders due by then can settle now. */
  ticked(atMs: number): void {
    if (!this.stopped && this.due <= atMs) this.wake();
  }

  private sleepUntil(at: number): void {
    const when = Math.min(at, Date.now() + MAX_SLEEP_MS);
    if (this.timer && this.timerAt <= when) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = when;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.timerAt = Number.POSITIVE_INFINITY;
        this.wake();
      },
      Math.max(0, when - Date.now()),
    ).unref();
  }

  /** Runs a pass now (or right after the one running), then sleeps until the next delivery. */
  private wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.settleDue(Date.now());
          const next = await nextDue(this.db);
          this.due = next ?? Number.POSITIVE_INFINITY;
        } catch (err) {
          this.hooks.onError(err);
          this.due = Math.min(this.due, Date.now() + RETRY_MS);
        }
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.running = null;
      if (this.stopped) return;
      // due and still waiting: its delivery tick is not recorded yet (a tick wakes us sooner);
      // nothing waiting: look again within MAX_SLEEP_MS (sleepUntil caps it)
      this.sleepUntil(Math.max(this.due, Date.now() + RETRY_MS));
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
