import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import { freePort, postForm, seedTraders, startServer } from './load.ts';

/**
 * The real thing: a server process killed with SIGKILL in the middle of an order load, then
 * started again on the same database. Every acknowledged order is there exactly once, no fill is
 * lost or doubled, the frozen funds match the open orders, the book is rebuilt from them, and
 * the ledger verifies.
 */
describe('SIGKILL under order load', { timeout: 300_000 }, () => {
  it('loses and duplicates nothing, and the restarted server rebuilds the book', async () => {
    const url = process.env.DATABASE_URL;
    const dataDir = mkdtempSync(join(tmpdir(), 'verdant-kill-'));
    const schema = url ? `kill_${randomBytes(5).toString('hex')}` : undefined;
    const dbOpts = url ? { url, schema } : { dataDir };
    const env = url
      ? { DATABASE_URL: url, DATABASE_SCHEMA: schema, DATA_DIR: dataDir }
      : { DATABASE_URL: '', DATA_DIR: dataDir };
    // Ports from the OS: a random pick collided with a port in use under load (EADDRINUSE).
    let port = await freePort();
    try {
      let db = await openDb(dbOpts);
      await migrate(db);
      const traders = await db.tx((q) => seedTraders(q, 20, { usdt: '1000000', btc: '100' }));
      await db.close();

      let server = await startServer(env, port);
      const agent = new http.Agent({ keepAlive: true, maxSockets: 40 });
      const acknowledged: string[] = [];
      let stop = false;
      const load = Promise.all(
        Array.from({ length: 40 }, async (_, c) => {
          for (let k = 0; !stop; k++) {
            const t = traders[(k + c) % traders.length]!;
            const side = (k + c) % 2 === 0 ? 'buy' : 'sell';
            const price = String(50000 + ((k * 31 + c) % 40) - (side === 'buy' ? 25 : 15));
            const res = await postForm(agent, port, 'coin/trade', t.token, {
              symbol: 'btcusdt',
              side,
              price,
              qty: '0.001',
            }).catch(() => null);
            if (res === null) return; // the server is gone
            if (res.status === 200) acknowledged.push(JSON.parse(res.body).data.id);
          }
        }),
      );
      // Killed once enough orders are acknowledged, not after a fixed time: a loaded machine
      // answered none within 2.5 s.
      while (acknowledged.length < 150) await new Promise((r) => setTimeout(r, 20));
      server.kill('SIGKILL');
      stop = true;
      await load;
      agent.destroy();
      expect(acknowledged.length).toBeGreaterThan(100);

      // A fresh port for the restart: the old one may be taken again meanwhile.
      port = await freePort();
      server = await startServer(env, port);
      const deal = (await (
        await fetch(`http://127.0.0.1:${port}/api/currency/deal?symbol=btcusdt&limit=1`)
      ).json()) as {
        data: { depth: { bids: { price: string; qty: string }[]; asks: { price: string; qty: string }[] } };
      };
      await new Promise<void>((r) => {
        server.once('exit', () => r());
        server.kill('SIGTERM');
      });

      db = await openDb(dbOpts);
      try {
        const found = await db.query<{ id: string }>(
          'SELECT id::text FROM spot_orders WHERE id = ANY($1::bigint[])',
          [acknowledged],
        );
        expect(new Set(acknowledged).size).toBe(acknowledged.length);
        expect(found.length).toBe(acknowledged.length);
        // no fill twice: a maker meets a taker once; each order's filled quantity is its trades'
        const [dups] = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM (SELECT maker_order_id, taker_order_id FROM trades
             GROUP BY 1, 2 HAVING count(*) > 1) d`,
        );
        expect(dups!.n).toBe(0);
        const mismatched = await db.query<{ id: string }>(
          `SELECT o.id::text FROM spot_orders o
             LEFT JOIN (SELECT id, sum(qty) AS q FROM (
                          SELECT maker_order_id AS id, qty FROM trades UNION ALL SELECT taker_order_id, qty FROM trades) x
                        GROUP BY id) t ON t.id = o.id
            WHERE o.filled_qty <> coalesce(t.q, 0)`,
        );
        expect(mismatched).toEqual([]);
        // what the ledger holds frozen is exactly what the open orders hold
        const frozen = await db.query<{
          user_id: number;
          currency_id: number;
          ledger: string;
          orders: string;
        }>(
          `SELECT a.user_id, a.currency_id, a.frozen::text AS ledger, coalesce(o.f, 0)::text AS orders
             FROM ledger_accounts a
             LEFT JOIN (SELECT user_id, CASE side WHEN 'buy' THEN 3 ELSE 1 END AS currency_id, sum(frozen) AS f
                          FROM spot_orders WHERE status = 'waiting' GROUP BY 1, 2) o
               ON o.user_id = a.user_id AND o.currency_id = a.currency_id
            WHERE a.user_id IS NOT NULL AND a.frozen <> coalesce(o.f, 0)`,
        );
        expect(frozen).toEqual([]);
        // the restarted server's book is the open orders
        const levels = await db.query<{ side: string; price: string; qty: string }>(
          `SELECT side, price::text, sum(qty - filled_qty)::text AS qty FROM spot_orders
            WHERE status = 'waiting' AND market_id = 1 GROUP BY side, price
            ORDER BY side, CASE WHEN side = 'buy' THEN -price ELSE price END LIMIT 40`,
        );
        const norm = (v: string) => Number(v);
        const fromDb = (s: string) =>
          levels
            .filter((l) => l.side === s)
            .slice(0, 20)
            .map((l) => [norm(l.price), norm(l.qty)]);
        expect(deal.data.depth.bids.map((l) => [norm(l.price), norm(l.qty)])).toEqual(fromDb('buy'));
        expect(deal.data.depth.asks.map((l) => [norm(l.price), norm(l.qty)])).toEqual(fromDb('sell'));
        expect((await verifyLedger(db)).problems).toEqual([]);
      } finally {
        if (schema) await db.query(`DROP SCHEMA ${schema} CASCADE`);
        await db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
