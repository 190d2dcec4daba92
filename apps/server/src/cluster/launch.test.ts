import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { post } from '../ledger/ledger.ts';
import { verifyLedger } from '../ledger/verify.ts';
import { freePort, postForm, seedTraders, startServer } from '../modules/spot/load.ts';

/**
 * A coin launched while a cluster of two processes runs: one process's `launchpad-launch` job
 * lists its market, both read it again (the bus), one of them takes its book, and orders sent
 * through either process meet on it, with no restart. Needs PostgreSQL and Redis.
 */
const url = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe.skipIf(!url)(
  'a launch in a cluster of two processes (skipped without DATABASE_URL: needs PostgreSQL and Redis)',
  { timeout: 180_000 },
  () => {
    const schema = `cluster_${randomBytes(5).toString('hex')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'verdant-launch-'));
    const env = {
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl,
      CLUSTER_POLL_MS: '200',
      FEED_INTERVAL_MS: '0',
    };
    const procs: { port: number; child: ChildProcess }[] = [];
    let db: Db;
    let traders: { id: number; token: string }[];
    const agent = new http.Agent({ keepAlive: true });

    beforeAll(async () => {
      db = await openDb({ url, schema });
      await migrate(db);
      traders = await db.tx((q) => seedTraders(q, 2, { usdt: '1000', btc: '1' }));
      await db.query(
        `INSERT INTO currencies (id, symbol, name, decimals, chains, is_fiat, min_deposit, min_withdraw, withdraw_fee, can_deposit, can_withdraw, sort)
         VALUES (72, 'CLUC', 'Cluster Coin', 6, '{}', false, 0, 0, 0, false, false, 72)`,
      );
      // far from launch while the processes start
      await db.query(
        `INSERT INTO launchpad_projects (id, name, intro, coin_currency_id, pay_currency_id, issue_price, total_supply,
                                         user_min, user_max, starts_at, ends_at, launch_at, lockup_days, tick_size, lot_size)
         VALUES (72, '{"en":"Cluster"}', '{"en":"Cluster"}', 72, 3, 0.5, 100000, 10, 1000,
                 now() - interval '2 days', now() - interval '1 day', now() + interval '30 days', 0, 0.001, 0.1)`,
      );
      await db.tx((q) =>
        post(q, {
          reason: 'deposit',
          legs: [
            { account: { userId: traders[0]!.id, type: 'spot', currencyId: 72 }, available: '100' },
            { account: { house: 'deposits', currencyId: 72 }, available: '-100' },
          ],
        }),
      );
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        procs.push({ port, child: await startServer(env, port) });
      }
    });

    afterAll(async () => {
      agent.destroy();
      for (const p of procs) p.child.kill('SIGKILL');
      const r = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await r
        .connect()
        .then(() => r.del(`verdant:${schema}:spot-owners`))
        .catch(() => {});
      r.disconnect();
      if (db) {
        await db.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
        await db.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    });

    const until = async (check: () => Promise<boolean>, ms = 30_000) => {
      const end = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > end) throw new Error('condition not met in time');
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    const symbols = async (port: number) =>
      (
        (await (await fetch(`http://127.0.0.1:${port}/api/currency/quotation_new`)).json()) as {
          data: { symbol: string }[];
        }
      ).data.map((t) => t.symbol);

    it('lists the market on both processes, one owns its book, and orders through each match', async () => {
      const [a, b] = procs as [(typeof procs)[0], (typeof procs)[0]];
      expect(await symbols(a.port)).not.toContain('clucusdt');
      // the launch time comes while both run
      await db.query(`UPDATE launchpad_projects SET launch_at = now() + interval '1 second' WHERE id = 72`);
      await until(async () => {
        const [m] = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM market_writers w JOIN markets m ON m.id = w.market_id
            WHERE m.symbol = 'clucusdt'`,
        );
        return m!.n === 1;
      });
      await until(async () => (await symbols(a.port)).includes('clucusdt'));
      await until(async () => (await symbols(b.port)).includes('clucusdt'));

      const order = (port: number, token: string, body: Record<string, string>) =>
        postForm(agent, port, 'coin/trade', token, { symbol: 'clucusdt', price: '0.5', qty: '20', ...body });
      const sell = await order(a.port, traders[0]!.token, { side: 'sell' });
      expect(sell.status, sell.body).toBe(200);
      const buy = await order(b.port, traders[1]!.token, { side: 'buy' });
      expect(buy.status, buy.body).toBe(200);
      expect(JSON.parse(buy.body).data).toMatchObject({ status: 'completed', filled_qty: '20' });
      // the book as both processes show it: empty again after the match
      for (const p of [a, b]) {
        const deal = (await (
          await fetch(`http://127.0.0.1:${p.port}/api/currency/deal?symbol=clucusdt`)
        ).json()) as { data: { depth: { bids: unknown[]; asks: unknown[] } } };
        expect(deal.data.depth).toMatchObject({ bids: [], asks: [] });
      }
      expect((await verifyLedger(db)).problems).toEqual([]);
    });
  },
);
