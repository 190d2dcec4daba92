import type { ContractPosition, ContractStatus } from '@verdant/api';
import type { Direction } from '@verdant/engine';
import type { Db, Queryable } from '../../db/client.ts';
import { lastTickIds, type IndexTick as Tick } from '../market/service.ts';

export { crossingTicks, lastTickId, ticksAfter, ticksById } from '../market/service.ts';
// the index ticks the triggers replay are the market module's: read through it
export type { Tick };

// The contract tables' rows in and out (contract_markets, contract_positions, contract_events,
// contract_cursors). Nothing here decides anything.

export type CloseReason = 'user' | 'take_profit' | 'stop_loss' | 'liquidation';

export interface PositionRow {
  id: string;
  user_id: number;
  contract_id: number;
  direction: Direction;
  type: 'market' | 'limit';
  status: ContractStatus;
  lots: number;
  multiple: number;
  lot_value: string;
  close_fee_rate: string;
  maintenance_rate: string;
  price: string;
  market_value: string;
  margin: string;
  open_fee: string;
  take_profit: string | null;
  stop_loss: string | null;
  liquidation_price: string | null;
  armed_tick_id: string;
  open_price: string | null;
  open_tick_id: string | null;
  close_price: string | null;
  close_tick_id: string | null;
  close_reason: CloseReason | null;
  pnl: string | null;
  close_fee: string | null;
  payout: string | null;
  created_at: string;
  opened_at: string | null;
  closed_at: string | null;
}

export const POSITION_COLUMNS = `id::text, user_id, contract_id, direction, type, status, lots, multiple,
  lot_value::text, close_fee_rate::text, maintenance_rate::text, price::text, market_value::text,
  margin::text, open_fee::text, take_profit::text, stop_loss::text, liquidation_price::text,
  armed_tick_id::text, open_price::text, open_tick_id::text, close_price::text, close_tick_id::text,
  close_reason, pnl::text, close_fee::text, payout::text,
  (extract(epoch FROM created_at) * 1000)::bigint::text AS created_at,
  (extract(epoch FROM opened_at) * 1000)::bigint::text AS opened_at,
  (extract(epoch FROM closed_at) * 1000)::bigint::text AS closed_at`;

export interface ContractMarketRow {
  id: number;
  market_id: number;
  currency_id: number;
  lot_value: string;
  multiples: number[];
  open_fee_rate: string;
  close_fee_rate: string;
  maintenance_rate: string;
  max_lots_per_order: number;
  max_lots_per_user: number;
  max_open_positions: number;
  sort: number;
  cursor: string | null;
  last: string | null;
}

/** The enabled contract markets in screen order, with each one's saved cursor and latest tick id. */
export async function enabledContracts(q: Queryable): Promise<ContractMarketRow[]> {
  const rows = await q.query<Omit<ContractMarketRow, 'last'>>(
    `SELECT c.id, c.market_id, c.currency_id, c.lot_value::text, c.multiples,
            c.open_fee_rate::text, c.close_fee_rate::text, c.maintenance_rate::text, c.max_lots_per_order,
            c.max_lots_per_user, c.max_open_positions, c.sort, k.tick_id::text AS cursor
       FROM contract_markets c LEFT JOIN contract_cursors k ON k.contract_id = c.id
      WHERE c.enabled ORDER BY c.sort, c.id`,
  );
  // the latest tick ids from the market module (index_ticks is its table)
  const last = await lastTickIds(
    q,
    rows.map((r) => r.market_id),
  );
  return rows.map((r) => ({ ...r, last: last.get(r.market_id) ?? null }));
}

// ---- cursors and ticks -----------------------------------------------------------------------

export async function readCursor(q: Queryable, contractId: number): Promise<number | null> {
  const [k] = await q.query<{ tick_id: string }>(
    'SELECT tick_id::text FROM contract_cursors WHERE contract_id = $1',
    [contractId],
  );
  return k ? Number(k.tick_id) : null;
}

export async function writeCursor(q: Queryable, contractId: number, tickId: number): Promise<void> {
  await q.query(
    `INSERT INTO contract_cursors (contract_id, tick_id) VALUES ($1, $2)
     ON CONFLICT (contract_id) DO UPDATE SET tick_id = EXCLUDED.tick_id`,
    [contractId, tickId],
  );
}

// ---- positions -------------------------------------------------------------------------------

export function positionsByIds(q: Queryable, ids: readonly (string | number)[]): Promise<PositionRow[]> {
  return q.query<PositionRow>(
    `SELECT ${POSITION_COLUMNS} FROM contract_positions WHERE id = ANY($1::bigint[]) ORDER BY id DESC`,
    [ids],
  );
}

/** The fired positions still open, locked for settling. */
export function lockOpenPositions(q: Queryable, ids: readonly number[]): Promise<PositionRow[]> {
  return q.query<PositionRow>(
    `SELECT ${POSITION_COLUMNS} FROM contract_positions
      WHERE id = ANY($1::bigint[]) AND status IN ('pending', 'holding') ORDER BY id FOR UPDATE`,
    [ids],
  );
}

export async function lockedRow(q: Queryable, id: string): Promise<PositionRow> {
  const [row] = await q.query<PositionRow>(
    `SELECT ${POSITION_COLUMNS} FROM contract_positions WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return row!;
}

export async function userPosition(
  q: Queryable,
  userId: number,
  id: string,
): Promise<PositionRow | undefined> {
  const [row] = await q.query<PositionRow>(
    `SELECT ${POSITION_COLUMNS} FROM contract_positions WHERE id = $1 AND user_id = $2`,
    [id, userId],
  );
  return row;
}

export function openPositions(q: Queryable, contractId: number): Promise<PositionRow[]> {
  return q.query<PositionRow>(
    `SELECT ${POSITION_COLUMNS} FROM contract_positions
      WHERE contract_id = $1 AND status IN ('pending', 'holding')`,
    [contractId],
  );
}

/**
 * A contract's history lock, two keys (this name and schema; the contract id): writers of its
 * history rows hold it shared, the trigger job's look for new rows takes it alone. Without it a
 * row whose id was drawn before a higher one committed could commit after the job had read past it.
 */
const EVENTS_LOCK = "hashtext('verdant.contract.events:' || coalesce(current_schema(), ''))";

/**
 * A transaction that may write a contract's history rows. The lock comes first, before any row
 * lock, so a writer queued behind the job's look holds nothing another writer waits for.
 */
export function eventsTx<T>(db: Db, contractId: number, fn: (q: Queryable) => Promise<T>): Promise<T> {
  return db.tx(async (q) => {
    await q.query(`SELECT pg_advisory_xact_lock_shared(${EVENTS_LOCK}, $1::int)`, [contractId]);
    return fn(q);
  });
}

/**
 * The highest history row id, when every row of the contract with an id up to it has committed
 * (the writers that drew one are waited for; the ids drawn after are higher).
 */
export function lastEventId(db: Db, contractId: number): Promise<number> {
  return db.tx(async (q) => {
    await q.query(`SELECT pg_advisory_xact_lock(${EVENTS_LOCK}, $1::int)`, [contractId]);
    const [top] = await q.query<{ id: string | null }>('SELECT max(id)::text AS id FROM contract_events');
    return Number(top?.id ?? 0);
  });
}

/** A contract's positions with history rows in (from, to]. */
export function changedPositions(
  q: Queryable,
  contractId: number,
  from: number,
  to: number,
): Promise<PositionRow[]> {
  return q.query<PositionRow>(
    `SELECT ${POSITION_COLUMNS} FROM contract_positions
      WHERE contract_id = $1 AND id IN (SELECT position_id FROM contract_events WHERE id > $2 AND id <= $3)
      ORDER BY id`,
    [contractId, from, to],
  );
}

/** What a user holds or has pending in a contract: positions and lots. */
export async function heldBy(
  q: Queryable,
  userId: number,
  contractId: number,
): Promise<{ n: number; lots: number }> {
  const [held] = await q.query<{ n: number; lots: number }>(
    `SELECT count(*)::int AS n, coalesce(sum(lots), 0)::int AS lots FROM contract_positions
      WHERE user_id = $1 AND contract_id = $2 AND status IN ('pending', 'holding')`,
    [userId, contractId],
  );
  return held!;
}

export interface NewPosition {
  userId: number;
  contractId: number;
  direction: Direction;
  type: 'market' | 'limit';
  lots: number;
  multiple: number;
  lotValue: string;
  closeFeeRate: string;
  maintenanceRate: string;
  price: string;
  marketValue: string;
  margin: string;
  fee: string;
  takeProfit: string | null;
  stopLoss: string | null;
  liquidationPrice: string | null;
  tickId: number;
}

/** A market position opens at once (holding at the tick); a limit order waits (pending). */
export async function insertPosition(q: Queryable, p: NewPosition): Promise<PositionRow> {
  const market = p.type === 'market';
  const [r] = await q.query<PositionRow>(
    `INSERT INTO contract_positions (user_id, contract_id, direction, type, status, lots, multiple, lot_value,
            close_fee_rate, maintenance_rate, price, market_value, margin, open_fee, take_profit, stop_loss,
            liquidation_price, armed_tick_id, open_price, open_tick_id, opened_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
             $19, $20, CASE WHEN $20::bigint IS NULL THEN NULL ELSE now() END)
     RETURNING ${POSITION_COLUMNS}`,
    [
      p.userId,
      p.contractId,
      p.direction,
      p.type,
      market ? 'holding' : 'pending',
      p.lots,
      p.multiple,
      p.lotValue,
      p.closeFeeRate,
      p.maintenanceRate,
      p.price,
      p.marketValue,
      p.margin,
      p.fee,
      p.takeProfit,
      p.stopLoss,
      p.liquidationPrice,
      p.tickId,
      market ? p.price : null,
      market ? p.tickId : null,
    ],
  );
  return r!;
}

/** A pending order reached its price: it holds from `tickId` at its own price. */
export async function markFilled(q: Queryable, id: string, tickId: number): Promise<PositionRow> {
  const [updated] = await q.query<PositionRow>(
    `UPDATE contract_positions SET status = 'holding', open_price = price, open_tick_id = $2, opened_at = now(),
            armed_tick_id = $2
      WHERE id = $1 AND status = 'pending' RETURNING ${POSITION_COLUMNS}`,
    [id, tickId],
  );
  return updated!;
}

export async function markClosed(
  q: Queryable,
  id: string,
  tick: Tick,
  why: CloseReason,
  s: { pnl: string; fee: string; payout: string },
): Promise<PositionRow | undefined> {
  const [updated] = await q.query<PositionRow>(
    `UPDATE contract_positions SET status = 'closed', close_price = $2, close_tick_id = $3, close_reason = $4,
            pnl = $5, close_fee = $6, payout = $7, closed_at = now()
      WHERE id = $1 AND status = 'holding' RETURNING ${POSITION_COLUMNS}`,
    [id, tick.price, tick.id, why, s.pnl, s.fee, s.payout],
  );
  return updated;
}

export async function setStops(
  q: Queryable,
  id: string,
  tp: string | null,
  sl: string | null,
  tickId: number,
): Promise<PositionRow> {
  const [u] = await q.query<PositionRow>(
    `UPDATE contract_positions SET take_profit = $2, stop_loss = $3, armed_tick_id = greatest(armed_tick_id, $4)
      WHERE id = $1 RETURNING ${POSITION_COLUMNS}`,
    [id, tp, sl, tickId],
  );
  return u!;
}

export async function markCancelled(q: Queryable, id: string): Promise<PositionRow> {
  const [u] = await q.query<PositionRow>(
    `UPDATE contract_positions SET status = 'cancelled' WHERE id = $1 RETURNING ${POSITION_COLUMNS}`,
    [id],
  );
  return u!;
}

/** One history row (also what tells other processes the position changed); inside `eventsTx`. */
export async function addEvent(
  q: Queryable,
  e: {
    positionId: string;
    kind: ContractPosition['history'][number]['kind'];
    tickId: number;
    price: string;
    takeProfit?: string | null;
    stopLoss?: string | null;
  },
): Promise<void> {
  await q.query(
    `INSERT INTO contract_events (position_id, kind, tick_id, price, take_profit, stop_loss)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [e.positionId, e.kind, e.tickId, e.price, e.takeProfit ?? null, e.stopLoss ?? null],
  );
}

export interface EventRow {
  position_id: string;
  kind: ContractPosition['history'][number]['kind'];
  price: string | null;
  take_profit: string | null;
  stop_loss: string | null;
  tick_id: string | null;
  t: string;
}

export function eventsOf(q: Queryable, positionIds: string[]): Promise<EventRow[]> {
  return q.query<EventRow>(
    `SELECT position_id::text, kind, price::text, take_profit::text, stop_loss::text, tick_id::text,
            (extract(epoch FROM created_at) * 1000)::bigint::text AS t
       FROM contract_events WHERE position_id = ANY($1::bigint[]) ORDER BY id`,
    [positionIds],
  );
}

/** A user's positions of one status (and contract), newest first, with the total. */
export async function positionPage(
  q: Queryable,
  userId: number,
  status: string,
  contractId: number | null,
  limit: number,
  offset: number,
): Promise<{ rows: PositionRow[]; total: number }> {
  const params: unknown[] = [userId, status];
  if (contractId !== null) params.push(contractId);
  const where = `user_id = $1 AND status = $2${contractId !== null ? ' AND contract_id = $3' : ''}`;
  const [count] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM contract_positions WHERE ${where}`,
    params,
  );
  const rows = await q.query<PositionRow>(
    `SELECT ${POSITION_COLUMNS} FROM contract_positions WHERE ${where}
      ORDER BY contract_positions.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { rows, total: count?.n ?? 0 };
}

/** A user's holding positions (of one contract), grouped by contract, ids ascending. */
export async function holdingByContract(
  q: Queryable,
  userId: number,
  contractId: number | null,
): Promise<Map<number, string[]>> {
  const rows = await q.query<{ id: string; contract_id: number }>(
    `SELECT id::text, contract_id FROM contract_positions
      WHERE user_id = $1 AND status = 'holding'${contractId !== null ? ' AND contract_id = $2' : ''} ORDER BY id`,
    contractId !== null ? [userId, contractId] : [userId],
  );
  const groups = new Map<number, string[]>();
  for (const r of rows) groups.set(r.contract_id, [...(groups.get(r.contract_id) ?? []), r.id]);
  return groups;
}
