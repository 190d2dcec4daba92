import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { seedTraders } from './load.ts';
import { BTC, cancel, ledgerClean, place, request, spotBalance, USDT } from './test-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const HALTED = 'Trading in BTC/USDT is paused for a moment and nothing was changed. Please try again shortly';

/** Makes the book's reload query fail until the returned function is called. */
function refuseReload(db: Db): () => void {
  const query = db.query.bind(db);
  db.query = ((sql: string, params?: unknown[]) =>
    sql.includes("status = 'waiting' ORDER BY spot_orders.seq")
      ? Promise.reject(new Error('test: reload refused'))
      : query(sql, params)) as Db['query'];
  return () => {
    db.query = query;
  };
}

describe('a failed batch whose book cannot be read back', () => {
  it('halts the market with a clear error until a reload succeeds; it never trades on a book the database does not have', async () => {
    const db = h.app.ctx.db;
    const [seller, a, z] = await db.tx((q) => seedTraders(q, 3, { usdt: '1000', btc: '1' }));
    const ask = await place(h.app, seller!.token, { side: 'sell', price: '12345', qty: '0.001' });
    expect(ask.status).toBe(200);

    // a's trade is refused by the database, after the engine has filled the ask in memory
    await db.query(
      `CREATE FUNCTION refuse_test_trade() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'test: trade refused'; END $$`,
    );
    await db.query(
      `CREATE TRIGGER refuse_test_trade AFTER INSERT ON trades
       FOR EACH ROW WHEN (NEW.taker_user_id = ${Number(a!.id)}) EXECUTE FUNCTION refuse_test_trade()`,
    );
    const restoreQuery = refuseReload(db);
    try {
      const refused = await place(h.app, a!.token, { side: 'buy', price: '12345', qty: '0.001' });
      expect([refused.status, refused.body.message]).toEqual([
        409,
        'The order could not be processed and nothing was changed. Please try again',
      ]);
      expect(h.app.spot.halted(1)).toBe(true);

      // The memory's book lost the ask the database still has: nobody may trade on it.
      const bid = await place(h.app, z!.token, { side: 'buy', price: '12345', qty: '0.001' });
      expect([bid.status, bid.body.message]).toEqual([409, HALTED]);
      const th = await place(h.app, z!.token, { side: 'buy', price: '12345', qty: '0.001' }, 'th');
      expect(th.body.message).toBe(
        'การซื้อขาย BTC/USDT หยุดชั่วคราวและไม่มีการเปลี่ยนแปลงใดๆ กรุณาลองใหม่อีกครั้งในอีกสักครู่',
      );
      const gone = await cancel(h.app, seller!.token, ask.body.data.id);
      expect([gone.status, gone.body.message]).toEqual([409, HALTED]);
      // nor shown: the public depth is empty rather than wrong
      const deal = await request<{ depth: { asks: unknown[] } }>(h.app, 'GET', 'currency/deal', {
        symbol: 'btcusdt',
      });
      expect(deal.body.data.depth.asks).toEqual([]);
      // other markets go on
      const eth = await place(h.app, z!.token, { symbol: 'ethusdt', side: 'buy', price: '100', qty: '0.1' });
      expect(eth.status).toBe(200);
      expect((await cancel(h.app, z!.token, eth.body.data.id)).status).toBe(200);
    } finally {
      restoreQuery();
      await db.query('DROP TRIGGER IF EXISTS refuse_test_trade ON trades');
      await db.query('DROP FUNCTION IF EXISTS refuse_test_trade()');
    }

    // The database answers again: the next reload brings the market back with the ask it holds.
    for (let i = 0; i < 400 && h.app.spot.halted(1); i++) await new Promise((r) => setTimeout(r, 50));
    expect(h.app.spot.halted(1)).toBe(false);
    expect(h.app.spot.depthOf(1)).toEqual({ bids: [], asks: [{ price: '12345', qty: '0.001' }] });
    const bought = await place(h.app, z!.token, { side: 'buy', price: '12345', qty: '0.001' });
    expect(bought.body.data).toMatchObject({ status: 'completed', filled_qty: '0.001' });
    expect(await spotBalance(h.app, a!.id, USDT)).toEqual({ available: '1000', frozen: '0' });
    expect(await spotBalance(h.app, seller!.id, BTC)).toEqual({ available: '0.999', frozen: '0' });
    expect(await ledgerClean(h)).toEqual([]);
  });
});
