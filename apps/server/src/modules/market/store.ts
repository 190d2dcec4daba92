import type { Candle, CandleInterval } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';
import { type Acc, type CandleValues, toDecimal } from './candles.ts';
import type { Market } from './markets.ts';

export type CandleSource = Candle['source'];

export interface CandleWrite {
  market: Market;
  interval: CandleInterval;
  acc: Acc;
  source: CandleSource;
}

export interface StoredCandle extends Candle {
  marketId: number;
  interval: CandleInterval;
}

const RETURNING = `market_id, interval, (extract(epoch FROM open_time) * 1000)::bigint::text AS t,
  open::text AS open, high::text AS high, low::text AS low, close::text AS close,
  volume::text AS volume, amount::text AS amount, source`;

interface CandleRow extends CandleValues {
  market_id: number;
  interval: CandleInterval;
  t: string;
  source: CandleSource;
}

export function fromRow(r: CandleRow): StoredCandle {
  return {
    marketId: r.market_id,
    interval: r.interval,
    time: Number(r.t),
    open: canon(r.open),
    high: canon(r.high),
    low: canon(r.low),
    close: canon(r.close),
    volume: canon(r.volume),
    amount: canon(r.amount),
    source: r.source,
  };
}

export const CANDLE_SELECT = RETURNING;
export type { CandleRow };

function columns(rows: readonly CandleWrite[]) {
  const cols = {
    market: [] as number[],
    interval: [] as string[],
    time: [] as string[],
    open: [] as string[],
    high: [] as string[],
    low: [] as string[],
    close: [] as string[],
    volume: [] as string[],
    amount: [] as string[],
    trades: [] as number[],
    source: [] as string[],
  };
  for (const r of rows) {
    const d = toDecimal(r.acc, r.market);
    cols.market.push(r.market.id);
    cols.interval.push(r.interval);
    cols.time.push(new Date(d.time).toISOString());
    cols.open.push(d.open);
    cols.high.push(d.high);
    cols.low.push(d.low);
    cols.close.push(d.close);
    cols.volume.push(d.volume);
    cols.amount.push(d.amount);
    cols.trades.push(d.trades);
    cols.source.push(r.source);
  }
  return [
    cols.market,
    cols.interval,
    cols.time,
    cols.open,
    cols.high,
    cols.low,
    cols.close,
    cols.volume,
    cols.amount,
    cols.trades,
    cols.source,
  ];
}

const UNNEST = `SELECT * FROM unnest($1::int[], $2::text[], $3::timestamptz[], $4::numeric[], $5::numeric[],
  $6::numeric[], $7::numeric[], $8::numeric[], $9::numeric[], $10::int[], $11::text[])`;

const INSERT = `INSERT INTO candles AS c (market_id, interval, open_time, open, high, low, close, volume, amount, trades, source)`;

/**
 * Merges new data into stored candles: the stored open stays, high and low widen, the close is
 * the new one, volumes add up. A candle's source is the most real of what it holds
 * (trade > index > sim). Rows must be of distinct candles (merge them first) and later than
 * what is stored. Answers the candles as they now stand.
 */
export async function mergeCandles(q: Queryable, rows: readonly CandleWrite[]): Promise<StoredCandle[]> {
  if (rows.length === 0) return [];
  const sorted = [...rows].sort(
    (a, b) =>
      a.market.id - b.market.id ||
      (a.interval < b.interval ? -1 : a.interval > b.interval ? 1 : 0) ||
      a.acc.t - b.acc.t,
  );
  const out = await q.query<CandleRow>(
    `${INSERT} ${UNNEST}
     ON CONFLICT (market_id, interval, open_time) DO UPDATE SET
       high = GREATEST(c.high, EXCLUDED.high),
       low = LEAST(c.low, EXCLUDED.low),
       close = EXCLUDED.close,
       volume = c.volume + EXCLUDED.volume,
       amount = c.amount + EXCLUDED.amount,
       trades = c.trades + EXCLUDED.trades,
       source = CASE WHEN 'trade' IN (c.source, EXCLUDED.source) THEN 'trade'
                     WHEN 'index' IN (c.source, EXCLUDED.source) THEN 'index' ELSE 'sim' END,
       updated_at = now()
     RETURNING ${RETURNING}`,
    columns(sorted),
  );
  return out.map(fromRow);
}

/** Writes candles that do not exist yet (the back-fill); existing ones are left as they are. */
export async function insertNewCandles(q: Queryable, rows: readonly CandleWrite[]): Promise<void> {
  if (rows.length === 0) return;
  await q.query(`${INSERT} ${UNNEST} ON CONFLICT (market_id, interval, open_time) DO NOTHING`, columns(rows));
}
