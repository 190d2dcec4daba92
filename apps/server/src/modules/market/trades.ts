import { CANDLE_INTERVALS, type OrderSide } from '@verdant/api';
import { dec, parseDecimal } from '@verdant/engine';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { type Acc, addPoint, bucketStart, toSteps } from './candles.ts';
import type { Market } from './markets.ts';
import { type CandleWrite, mergeCandles, type StoredCandle } from './store.ts';

/** One fill, as the order service hands it to `recordTrades` inside its transaction. */
export interface TradeInput {
  marketId: number;
  /** Decimal string on the market's tick grid. */
  price: string;
  /** Decimal string on the market's lot grid. */
  qty: string;
  takerSide: OrderSide;
  makerOrderId?: string | number | null;
  takerOrderId?: string | number | null;
  /** When the fill happened (default: now). */
  at?: Date | number;
  /** Default 'match'. */
  source?: string;
  /** An id taken ahead from the trades sequence (the order service's id pool); default: the next. */
  id?: string | number;
  /** Who traded and what each paid (the order service knows them when the fill is written). */
  makerUserId?: number | null;
  takerUserId?: number | null;
  makerFee?: string;
  takerFee?: string;
}

export interface TradeRecord {
  id: string;
  marketId: number;
  symbol: string;
  price: string;
  qty: string;
  amount: string;
  takerSide: OrderSide;
  makerOrderId: string | null;
  takerOrderId: string | null;
  time: number;
}

/** What `recordTrades` wrote: hand it to `publish` once the transaction has committed. */
export interface RecordedTrades {
  trades: TradeRecord[];
  candles: StoredCandle[];
}

/** Candle writes of every interval for points of one market (merged per bucket). */
export function candleWrites(
  m: Market,
  points: { t: number; price: bigint; qty: bigint }[],
  source: 'index' | 'trade',
): CandleWrite[] {
  const rows: CandleWrite[] = [];
  for (const interval of CANDLE_INTERVALS) {
    const accs = new Map<number, Acc>();
    for (const p of points) {
      const b = bucketStart(p.t, interval);
      accs.set(b, addPoint(accs.get(b), b, p));
    }
    for (const acc of accs.values()) rows.push({ market: m, interval, acc, source });
  }
  return rows;
}

/**
 * Markets whose candles follow trades (they have had one); the others follow the index. Read
 * once from the trades table, then kept up to date by the trades this process records.
 */
export class TradeMode {
  private readonly ids = new Set<number>();
  private loaded: Promise<void> | null = null;

  constructor(private readonly db: Queryable) {}

  /** Through `q` when called inside a transaction (PGlite has one connection). */
  load(q: Queryable = this.db): Promise<void> {
    this.loaded ??= q
      .query<{ market_id: number }>('SELECT DISTINCT market_id FROM trades')
      .then((rows) => {
        for (const r of rows) this.ids.add(r.market_id);
      })
      .catch((e) => {
        this.loaded = null;
        throw e;
      });
    return this.loaded;
  }

  has(marketId: number): boolean {
    return this.ids.has(marketId);
  }

  add(marketId: number): void {
    this.ids.add(marketId);
  }
}

interface TradeRow {
  id: string;
  market_id: number;
  price: string;
  qty: string;
  amount: string;
  taker_side: OrderSide;
  maker_order_id: string | null;
  taker_order_id: string | null;
  t: string;
}

/**
 * Checks fills against their markets' grids and builds the trades rows and candle writes;
 * answers the markets traded and the function that sends both statements at once.
 */
export function buildTrades(
  q: Queryable,
  ms: readonly Market[],
  inputs: readonly TradeInput[],
): { marketIds: number[]; send: () => Promise<RecordedTrades> } {
  const cols = {
    market: [] as number[],
    price: [] as string[],
    qty: [] as string[],
    amount: [] as string[],
    side: [] as string[],
    maker: [] as (string | null)[],
    taker: [] as (string | null)[],
    source: [] as string[],
    at: [] as string[],
    id: [] as (string | null)[],
    makerUser: [] as (number | null)[],
    takerUser: [] as (number | null)[],
    makerFee: [] as string[],
    takerFee: [] as string[],
  };
  const points = new Map<number, { m: Market; list: { t: number; price: bigint; qty: bigint }[] }>();
  for (const t of inputs) {
    const m = ms.find((x) => x.id === t.marketId);
    if (!m) throw new Error(`recordTrades: no market ${t.marketId}`);
    const price = parseDecimal(t.price, { positive: true });
    const qty = parseDecimal(t.qty, { positive: true });
    const ticks = price === null ? null : toSteps(price, m.tickSize);
    const lots = qty === null ? null : toSteps(qty, m.lotSize);
    if (price === null || qty === null || ticks === null || lots === null)
      throw new Error(`recordTrades: ${t.price} × ${t.qty} is off the grid of ${m.symbol}`);
    if (t.takerSide !== 'buy' && t.takerSide !== 'sell') throw new Error('recordTrades: bad taker side');
    const atMs = t.at === undefined ? Date.now() : typeof t.at === 'number' ? t.at : t.at.getTime();
    cols.market.push(m.id);
    cols.price.push(price);
    cols.qty.push(qty);
    cols.amount.push(dec(price).times(qty).toFixed());
    cols.side.push(t.takerSide);
    cols.maker.push(t.makerOrderId == null ? null : String(t.makerOrderId));
    cols.taker.push(t.takerOrderId == null ? null : String(t.takerOrderId));
    cols.source.push(t.source ?? 'match');
    cols.at.push(new Date(atMs).toISOString());
    cols.id.push(t.id == null ? null : String(t.id));
    cols.makerUser.push(t.makerUserId ?? null);
    cols.takerUser.push(t.takerUserId ?? null);
    cols.makerFee.push(t.makerFee ?? '0');
    cols.takerFee.push(t.takerFee ?? '0');
    let p = points.get(m.id);
    if (!p) {
      p = { m, list: [] };
      points.set(m.id, p);
    }
    p.list.push({ t: atMs, price: ticks, qty: lots });
  }
  const writes: CandleWrite[] = [];
  for (const { m, list } of points.values()) writes.push(...candleWrites(m, list, 'trade'));
  const symbolOf = new Map(ms.map((m) => [m.id, m.symbol]));
  const send = async (): Promise<RecordedTrades> => {
    // Both statements leave together (nothing of one is needed by the other).
    const [rows, candles] = await Promise.all([
      q.query<TradeRow>(
        `INSERT INTO trades (id, market_id, price, qty, amount, taker_side, maker_order_id, taker_order_id, source,
                           created_at, maker_user_id, taker_user_id, maker_fee, taker_fee)
       OVERRIDING SYSTEM VALUE
       SELECT coalesce(x.id, nextval(pg_get_serial_sequence('trades', 'id'))), x.market_id, x.price, x.qty,
              x.amount, x.side, x.maker, x.taker, x.source, x.at, x.mu, x.tu, x.mf, x.tf
         FROM unnest($1::int[], $2::numeric[], $3::numeric[], $4::numeric[], $5::text[], $6::bigint[],
                     $7::bigint[], $8::text[], $9::timestamptz[], $10::bigint[], $11::int[], $12::int[],
                     $13::numeric[], $14::numeric[]) WITH ORDINALITY
              AS x(market_id, price, qty, amount, side, maker, taker, source, at, id, mu, tu, mf, tf, n)
        ORDER BY x.n
       RETURNING id::text, market_id, price::text, qty::text, amount::text, taker_side,
                 maker_order_id::text, taker_order_id::text,
                 (extract(epoch FROM created_at) * 1000)::bigint::text AS t`,
        [
          cols.market,
          cols.price,
          cols.qty,
          cols.amount,
          cols.side,
          cols.maker,
          cols.taker,
          cols.source,
          cols.at,
          cols.id,
          cols.makerUser,
          cols.takerUser,
          cols.makerFee,
          cols.takerFee,
        ],
      ),
      mergeCandles(q, writes),
    ]);
    const trades = rows
      .map((r) => ({
        id: r.id,
        marketId: r.market_id,
        symbol: symbolOf.get(r.market_id)!,
        price: canon(r.price),
        qty: canon(r.qty),
        amount: canon(r.amount),
        takerSide: r.taker_side,
        makerOrderId: r.maker_order_id,
        takerOrderId: r.taker_order_id,
        time: Number(r.t),
      }))
      .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
    return { trades, candles };
  };
  return { marketIds: [...points.keys()], send };
}
