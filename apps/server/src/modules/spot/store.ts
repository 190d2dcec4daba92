import type { CancelReason, OrderFill, OrderSide, OrderStatus, OrderType } from '@verdant/api';
import { dec } from '@verdant/engine';
import type { Db, Queryable } from '../../db/client.ts';
import { type Paging, pageOf } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import type { Market } from '../market/service.ts';
import { feeCurrency, type Order } from './order.ts';

// The spot_orders table: rows in and out, the batch's one write, the user's pages. Nothing here
// decides anything; the desk and the service do.

interface OrderRow {
  id: string;
  user_id: number;
  market_id: number;
  side: OrderSide;
  type: OrderType;
  price: string | null;
  qty: string | null;
  amount: string | null;
  filled_qty: string;
  filled_amount: string;
  fee: string;
  frozen: string;
  status: OrderStatus;
  cancel_reason: CancelReason | null;
  seq: string;
  c: string;
  u: string;
}

// A bare `ORDER BY id` (or `seq`) after these would sort the text output columns ("9" after "10"):
// order by the qualified column, which is the number.
const ORDER_COLUMNS = `id::text, user_id, market_id, side, type, price::text, qty::text, amount::text,
  filled_qty::text, filled_amount::text, fee::text, frozen::text, status, cancel_reason, seq::text,
  (extract(epoch FROM created_at) * 1000)::bigint::text AS c, (extract(epoch FROM updated_at) * 1000)::bigint::text AS u`;

function fromRow(r: OrderRow, m: Market): Order {
  const n = (v: string | null) => (v === null ? null : canon(v));
  return {
    id: Number(r.id),
    userId: r.user_id,
    market: m,
    side: r.side,
    type: r.type,
    price: n(r.price),
    qty: n(r.qty),
    amount: n(r.amount),
    filledQty: dec(r.filled_qty),
    filledAmount: dec(r.filled_amount),
    fee: dec(r.fee),
    frozen: dec(r.frozen),
    status: r.status,
    cancelReason: r.cancel_reason,
    seq: Number(r.seq),
    createdAt: Number(r.c),
    updatedAt: Number(r.u),
    fills: [],
  };
}

/** Ids taken from a sequence per round trip (see takeIds). */
const ID_BLOCK = 1024;

export type OrderStore = ReturnType<typeof createOrderStore>;

export function createOrderStore(db: Db) {
  /**
   * Order and trade ids taken from their sequences ahead, a block at a time, so a batch spends
   * no round trip on them (and its writes can leave together, see writeBatch). Ids taken and
   * never used (a restart, a failed batch) are gaps, nothing more: an order's time priority is
   * `seq`, and ids still grow with time, since only this service takes them.
   */
  const idPools = { spot_orders: [] as number[], trades: [] as number[] };

  return {
    async takeIds(q: Queryable, table: keyof typeof idPools, n: number): Promise<number[]> {
      const pool = idPools[table];
      if (pool.length < n) {
        const rows = await q.query<{ id: string }>(
          `SELECT nextval(pg_get_serial_sequence($1, 'id'))::text AS id FROM generate_series(1, $2::int)`,
          [table, Math.max(ID_BLOCK, n - pool.length)],
        );
        pool.push(...rows.map((r) => Number(r.id)).sort((a, b) => a - b));
      }
      return pool.splice(0, n);
    },

    /** A market's open orders, in time priority (the book is rebuilt from them). */
    async openOrders(q: Queryable, m: Market): Promise<Order[]> {
      const rows = await q.query<OrderRow>(
        `SELECT ${ORDER_COLUMNS} FROM spot_orders WHERE market_id = $1 AND status = 'waiting' ORDER BY spot_orders.seq`,
        [m.id],
      );
      return rows.map((r) => fromRow(r, m));
    },

    /** Who owns an order, its status and market; undefined when there is no such order. */
    async owner(
      orderId: number,
    ): Promise<{ user_id: number; status: OrderStatus; market_id: number } | undefined> {
      const [row] = await db.query<{ user_id: number; status: OrderStatus; market_id: number }>(
        'SELECT user_id, status, market_id FROM spot_orders WHERE id = $1',
        [orderId],
      );
      return row;
    },

    /**
     * A batch's new and changed orders, in one statement, sent without waiting: the caller's
     * transaction awaits it with the COMMIT (and fails if it failed).
     */
    writeBatch(q: Queryable, marketId: number, now: number, created: Order[], updated: Order[]): void {
      const at = new Date(now).toISOString();
      const col = <T>(list: Order[], f: (o: Order) => T) => list.map(f);
      void q.query(
        `WITH created AS (
           INSERT INTO spot_orders (id, user_id, market_id, side, type, price, qty, amount, filled_qty, filled_amount,
                                    fee, frozen, status, cancel_reason, seq, created_at, updated_at)
           OVERRIDING SYSTEM VALUE
           SELECT id, user_id, $1, side, type, price, qty, amount, fq, fa, fee, frozen, status, reason, seq, $2, $2
             FROM unnest($3::bigint[], $4::int[], $5::text[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[],
                         $10::numeric[], $11::numeric[], $12::numeric[], $13::numeric[], $14::text[], $15::text[],
                         $16::bigint[]) WITH ORDINALITY
                  AS x(id, user_id, side, type, price, qty, amount, fq, fa, fee, frozen, status, reason, seq, n)
            ORDER BY n
           RETURNING 1
         ), changed AS (
           UPDATE spot_orders o SET filled_qty = x.fq, filled_amount = x.fa, fee = x.fee, frozen = x.frozen,
                  status = x.status, cancel_reason = x.reason, updated_at = $2
             FROM unnest($17::bigint[], $18::numeric[], $19::numeric[], $20::numeric[], $21::numeric[], $22::text[],
                         $23::text[]) AS x(id, fq, fa, fee, frozen, status, reason)
            WHERE o.id = x.id
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM created) + (SELECT count(*) FROM changed) AS n`,
        [
          marketId,
          at,
          col(created, (o) => o.id),
          col(created, (o) => o.userId),
          col(created, (o) => o.side),
          col(created, (o) => o.type),
          col(created, (o) => o.price),
          col(created, (o) => o.qty),
          col(created, (o) => o.amount),
          col(created, (o) => o.filledQty.toFixed()),
          col(created, (o) => o.filledAmount.toFixed()),
          col(created, (o) => o.fee.toFixed()),
          col(created, (o) => o.frozen.toFixed()),
          col(created, (o) => o.status),
          col(created, (o) => o.cancelReason),
          col(created, (o) => o.seq),
          col(updated, (o) => o.id),
          col(updated, (o) => o.filledQty.toFixed()),
          col(updated, (o) => o.filledAmount.toFixed()),
          col(updated, (o) => o.fee.toFixed()),
          col(updated, (o) => o.frozen.toFixed()),
          col(updated, (o) => o.status),
          col(updated, (o) => o.cancelReason),
        ],
      );
    },

    /** One page of a user's orders, newest first, with their fills. */
    async page(
      userId: number,
      filter: { statuses: readonly OrderStatus[]; marketId: number | null },
      paging: Paging,
      markets: readonly Market[],
    ): Promise<{ orders: Order[]; total: number }> {
      const params = [userId, filter.statuses, filter.marketId];
      const where = 'WHERE user_id = $1 AND status = ANY($2::text[]) AND ($3::int IS NULL OR market_id = $3)';
      const { rows, total } = await pageOf<OrderRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM spot_orders ${where}`,
          list: `SELECT ${ORDER_COLUMNS} FROM spot_orders ${where} ORDER BY spot_orders.id DESC`,
        },
        params,
        paging,
      );
      const fills = await orderFills(
        rows.map((r) => Number(r.id)),
        markets,
      );
      const orders = rows.map((r) => {
        const o = fromRow(r, markets.find((m) => m.id === r.market_id)!);
        o.fills = fills.get(o.id) ?? [];
        return o;
      });
      return { orders, total };
    },
  };

  /** Each order's fills, from the trades it made as maker or taker, oldest first. */
  async function orderFills(ids: number[], markets: readonly Market[]): Promise<Map<number, OrderFill[]>> {
    const out = new Map<number, OrderFill[]>();
    if (ids.length === 0) return out;
    const rows = await db.query<{
      id: string;
      maker_order_id: string | null;
      taker_order_id: string | null;
      taker_side: OrderSide;
      price: string;
      qty: string;
      amount: string;
      maker_fee: string;
      taker_fee: string;
      t: string;
      market_id: number;
    }>(
      `SELECT id::text, maker_order_id::text, taker_order_id::text, taker_side, price::text, qty::text,
              amount::text, maker_fee::text, taker_fee::text, market_id,
              (extract(epoch FROM created_at) * 1000)::bigint::text AS t
         FROM trades WHERE maker_order_id = ANY($1::bigint[]) OR taker_order_id = ANY($1::bigint[])
        ORDER BY trades.id`,
      [ids],
    );
    const wanted = new Set(ids);
    for (const r of rows) {
      const m = markets.find((x) => x.id === r.market_id)!;
      for (const role of ['maker', 'taker'] as const) {
        const oid = Number(role === 'maker' ? r.maker_order_id : r.taker_order_id);
        if (!wanted.has(oid)) continue;
        const side: OrderSide = role === 'taker' ? r.taker_side : r.taker_side === 'buy' ? 'sell' : 'buy';
        const list = out.get(oid) ?? [];
        list.push({
          id: r.id,
          price: canon(r.price),
          qty: canon(r.qty),
          amount: canon(r.amount),
          fee: canon(role === 'maker' ? r.maker_fee : r.taker_fee),
          fee_currency: feeCurrency(m, side),
          role,
          time: new Date(Number(r.t)).toISOString(),
        });
        out.set(oid, list);
      }
    }
    return out;
  }
}
