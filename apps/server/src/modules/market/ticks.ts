import type { Queryable } from '../../db/client.ts';
import { canon } from '../../db/values.ts';

// Range reads of the recorded index ticks by id, for modules that replay them in order (the
// contract triggers): index_ticks is this module's table, read here only.

/** A recorded index tick: its id (ticks of a market are recorded in id order), price, source, time (ms). */
export interface IndexTick {
  id: number;
  price: string;
  source: string;
  time: number;
}

type TickText = { id: string; price: string; source: string; t: string };

const TICK_COLUMNS = `id::text, price::text, source, (extract(epoch FROM created_at) * 1000)::bigint::text AS t`;

const tickOf = (r: TickText): IndexTick => ({
  id: Number(r.id),
  price: canon(r.price),
  source: r.source,
  time: Number(r.t),
});

/** A market's ticks after `after` (and up to `upTo`), in order, at most `limit` of them. */
export async function ticksAfter(
  q: Queryable,
  marketId: number,
  after: number,
  upTo: number | null,
  limit: number | null = null,
): Promise<IndexTick[]> {
  const params: unknown[] = [marketId, after];
  let sql = `SELECT ${TICK_COLUMNS} FROM index_ticks WHERE market_id = $1 AND id > $2`;
  if (upTo !== null) {
    params.push(upTo);
    sql += ` AND id <= $${params.length}`;
  }
  sql += ' ORDER BY id';
  if (limit !== null) {
    params.push(limit);
    sql += ` LIMIT $${params.length}`;
  }
  return (await q.query<TickText>(sql, params)).map(tickOf);
}

/**
 * A market's ticks in (after, upTo] priced at or above `up` or at or below `down` (null: no
 * bound on that side; none at all: no ticks), in order, at most `limit` of them.
 */
export async function crossingTicks(
  q: Queryable,
  marketId: number,
  after: number,
  upTo: number,
  bounds: { up: string | null; down: string | null },
  limit: number,
): Promise<IndexTick[]> {
  const params: unknown[] = [marketId, after, upTo, limit];
  const sides: string[] = [];
  if (bounds.up !== null) {
    params.push(bounds.up);
    sides.push(`price >= $${params.length}::numeric`);
  }
  if (bounds.down !== null) {
    params.push(bounds.down);
    sides.push(`price <= $${params.length}::numeric`);
  }
  if (sides.length === 0) return [];
  return (
    await q.query<TickText>(
      `SELECT ${TICK_COLUMNS} FROM index_ticks
        WHERE market_id = $1 AND id > $2 AND id <= $3 AND (${sides.join(' OR ')})
        ORDER BY id LIMIT $4`,
      params,
    )
  ).map(tickOf);
}

/** A market's latest tick id (up to `upTo`), or null when it has none. */
export async function lastTickId(
  q: Queryable,
  marketId: number,
  upTo: number | null,
): Promise<number | null> {
  const [r] = await q.query<{ id: string | null }>(
    `SELECT max(id)::text AS id FROM index_ticks WHERE market_id = $1${upTo === null ? '' : ' AND id <= $2'}`,
    upTo === null ? [marketId] : [marketId, upTo],
  );
  return r?.id == null ? null : Number(r.id);
}

/** Each of the markets' latest tick id, as text (a market without ticks is absent). */
export async function lastTickIds(q: Queryable, marketIds: readonly number[]): Promise<Map<number, string>> {
  if (marketIds.length === 0) return new Map();
  const rows = await q.query<{ market_id: number; id: string | null }>(
    `SELECT m AS market_id, (SELECT max(id) FROM index_ticks WHERE market_id = m)::text AS id
       FROM unnest($1::int[]) AS m`,
    [marketIds],
  );
  return new Map(rows.filter((r) => r.id !== null).map((r) => [r.market_id, r.id!]));
}

/** Ticks by id (any market), keyed by the id as text. */
export async function ticksById(q: Queryable, ids: readonly string[]): Promise<Map<string, IndexTick>> {
  if (ids.length === 0) return new Map();
  const rows = await q.query<TickText>(
    `SELECT ${TICK_COLUMNS} FROM index_ticks WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.id, tickOf(r)]));
}
