import type { SpotOrder } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { seedTraders } from './load.ts';
import { BTC, cancel, ledgerClean, list, place, spotBalance, USDT } from './test-helpers.ts';

let h: Harness;
let reopened: FastifyInstance | null = null;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await reopened?.close();
  await h.close();
});

describe('recovery', () => {
  it('a new server on the same database rebuilds every book exactly, and matching goes on correctly', async () => {
    const traders = await h.app.ctx.db.tx((q) => seedTraders(q, 8, { usdt: '1000000', btc: '100' }));
    // a busy book: many price levels, queues at one price, partial fills, cancels, two markets
    const placed: SpotOrder[] = [];
    for (let k = 0; k < 80; k++) {
      const t = traders[k % traders.length]!;
      const side = k % 3 === 0 ? 'sell' : 'buy';
      const price = String(50000 + (side === 'buy' ? -((k * 13) % 40) : ((k * 7) % 30) - 5));
      const r = await place(h.app, t.token, { side, price, qty: `0.00${1 + (k % 5)}` });
      expect(r.status).toBe(200);
      placed.push(r.body.data);
    }
    for (const o of placed.filter((_, i) => i % 9 === 4)) {
      const owner = traders.find((t) => t.id === ownerOf(o, placed, traders))!;
      if (o.status === 'waiting') await cancel(h.app, owner.token, o.id);
    }
    await place(h.app, traders[0]!.token, { symbol: 'ethusdt', side: 'buy', price: '3000', qty: '0.1' });
    const before = [h.app.spot.depthOf(1), h.app.spot.depthOf(2)];
    expect(before[0]!.bids.length).toBeGreaterThan(5);
    expect(before[0]!.asks.length).toBeGreaterThan(3);

    // "close" the first server's order service, then start a second app on the same database
    await h.app.spot.stop();
    reopened = await buildApp({ config: h.config, db: h.app.ctx.db, logger: false });
    await reopened.ready();
    expect([reopened.spot.depthOf(1), reopened.spot.depthOf(2)]).toEqual(before);

    // time priority survived: a sell at the best bid fills the earliest order at that price first
    const bestBid = before[0]!.bids[0]!;
    const [first] = await h.app.ctx.db.query<{ id: string }>(
      `SELECT id::text FROM spot_orders WHERE market_id = 1 AND status = 'waiting' AND side = 'buy' AND price = $1
        ORDER BY seq LIMIT 1`,
      [bestBid.price],
    );
    // a seller with no resting order of their own, so self-trade prevention cannot intervene
    const [seller] = await h.app.ctx.db.tx((q) => seedTraders(q, 1, { usdt: '1', btc: '1' }));
    const hit = await place(reopened, seller!.token, { side: 'sell', price: bestBid.price, qty: '0.001' });
    expect(hit.status).toBe(200);
    expect(hit.body.data.fills).toHaveLength(1);
    const [trade] = await h.app.ctx.db.query<{ maker_order_id: string }>(
      'SELECT maker_order_id::text FROM trades WHERE taker_order_id = $1',
      [hit.body.data.id],
    );
    expect(trade?.maker_order_id).toBe(first!.id);

    // new orders get later sequence numbers than every restored one
    const [seqs] = await h.app.ctx.db.query<{ newest: string; oldest_open: string }>(
      `SELECT (SELECT seq FROM spot_orders WHERE id = $1)::text AS newest,
              (SELECT max(seq) FROM spot_orders WHERE id <> $1)::text AS oldest_open`,
      [hit.body.data.id],
    );
    expect(BigInt(seqs!.newest)).toBeGreaterThan(BigInt(seqs!.oldest_open));

    // cancel everything through the new server: every frozen unit comes back
    for (const t of traders) {
      const open = (await list(reopened, t.token, { status: 'waiting', limit: '100' })).body.data.list;
      for (const o of open) expect((await cancel(reopened, t.token, o.id)).status).toBe(200);
      expect((await spotBalance(reopened, t.id, USDT)).frozen).toBe('0');
      expect((await spotBalance(reopened, t.id, BTC)).frozen).toBe('0');
    }
    expect(reopened.spot.depthOf(1)).toEqual({ bids: [], asks: [] });
    expect(await ledgerClean(reopened)).toEqual([]);
  });
});

/** The order's owner: the trader whose token placed it (orders were placed round-robin). */
function ownerOf(o: SpotOrder, placed: SpotOrder[], traders: { id: number }[]) {
  return traders[placed.indexOf(o) % traders.length]!.id;
}
