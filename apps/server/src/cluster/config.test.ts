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
import { verifyLedger } from '../ledger/verify.ts';
import { createOperator } from '../modules/admin/operators.ts';
import { currentCode } from '../modules/admin/signin.ts';
import { TEST_TOTP_SECRET } from '../modules/admin/testing.ts';
import { freePort, postForm, seedTraders, startServer } from '../modules/spot/load.ts';

/**
 * Configuration changed through one server process reaches the caches of another (issue 23):
 * two processes on one PostgreSQL schema and one Redis; an operator saves on A, and B's next
 * requests use the new values (contract specs, the markets' list and the book's grid, option
 * delivery times) without a restart. Needs PostgreSQL (DATABASE_URL) and Redis.
 */
const url = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe.skipIf(!url)(
  'configuration across two processes (skipped without DATABASE_URL)',
  { timeout: 180_000 },
  () => {
    const schema = `config_${randomBytes(5).toString('hex')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'verdant-config-'));
    const env = {
      DATABASE_URL: url,
      DATABASE_SCHEMA: schema,
      DATA_DIR: dataDir,
      REDIS_URL: redisUrl,
      CLUSTER_POLL_MS: '200',
      FEED_INTERVAL_MS: '0',
    };
    const procs: { port: number; child: ChildProcess }[] = [];
    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
    let db: Db;
    let traders: { id: number; token: string }[];
    let token: string;

    const get = async <T>(p: { port: number }, path: string, auth = ''): Promise<T> => {
      const res = await fetch(`http://127.0.0.1:${p.port}/api/${path}`, { headers: { authorization: auth } });
      return ((await res.json()) as { data: T }).data;
    };
    const save = async (p: { port: number }, path: string, body: Record<string, string>) => {
      const res = await postForm(agent, p.port, path, token, body);
      expect(res.status, res.body).toBe(200);
    };
    /** B hears the change through Redis: wait (bounded) until its answer shows it. */
    const until = async (check: () => Promise<boolean>) => {
      const end = Date.now() + 10_000;
      while (!(await check())) {
        if (Date.now() > end) throw new Error('the second process never saw the change');
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    beforeAll(async () => {
      db = await openDb({ url, schema });
      await migrate(db);
      traders = await db.tx((q) => seedTraders(q, 3, { usdt: '100000', btc: '10' }));
      await createOperator(db, { username: 'ops', password: 'a long passphrase', role: 'admin' });
      await db.query(
        'UPDATE operators SET must_change_password = false, totp_secret = $1 WHERE username = $2',
        [TEST_TOTP_SECRET, 'ops'],
      );
      for (let i = 0; i < 2; i++) {
        const port = await freePort();
        procs.push({ port, child: await startServer(env, port) });
      }
      const login = await postForm(agent, procs[0]!.port, 'admin/login', '', {
        username: 'ops',
        password: 'a long passphrase',
      });
      token = (JSON.parse(login.body) as { data: { token: string } }).data.token;
      const verified = await postForm(agent, procs[0]!.port, 'admin/totp/verify', token, {
        code: currentCode('ops', TEST_TOTP_SECRET),
      });
      expect(verified.status, verified.body).toBe(200);
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

    it('an option delivery time edited on A is what microtrade/seconds answers on B', async () => {
      const [a, b] = [procs[0]!, procs[1]!];
      await save(a, 'admin/config/option_seconds/save', {
        symbol: 'btcusdt',
        seconds: '90',
        profit_ratio: '0.88',
        fee_rate: '0.02',
        min_amount: '15',
        max_amount: '900',
        enabled: '1',
      });
      const seconds = await get<{ seconds: number; profit_ratio: string }[]>(
        b,
        'microtrade/seconds?symbol=btcusdt',
      );
      expect(seconds.find((s) => s.seconds === 90)).toMatchObject({ profit_ratio: '0.88' });
    });

    it("contract multiples changed on A reach B's contract service (its specs were cached)", async () => {
      const [a, b] = [procs[0]!, procs[1]!];
      type Deal = { current: { multiples: number[] } };
      expect((await get<Deal>(b, 'lever/deal?symbol=btcusdt')).current.multiples).toEqual([
        5, 10, 20, 50, 100,
      ]);
      await save(a, 'admin/config/contracts/save', {
        id: '1',
        lot_value: '0.01',
        multiples: '2,4,8',
        open_fee_rate: '0.0005',
        close_fee_rate: '0.0005',
        maintenance_rate: '0.005',
      });
      await until(
        async () => (await get<Deal>(b, 'lever/deal?symbol=btcusdt')).current.multiples.join() === '2,4,8',
      );
    });

    it("a finer lot saved on A is taken by B's market list and by the book's owner: an order on B uses it", async () => {
      const [a, b] = [procs[0]!, procs[1]!];
      const place = () =>
        postForm(agent, b.port, 'coin/trade', traders[0]!.token, {
          symbol: 'btcusdt',
          side: 'buy',
          type: 'limit',
          price: '50000',
          qty: '0.000105',
        });
      const early = await place();
      expect(JSON.parse(early.body)).toMatchObject({ type: 'error', field: 'qty' });
      await save(a, 'admin/config/markets/save', {
        id: '1',
        tick_size: '0.01',
        lot_size: '0.000005',
        min_amount: '5',
        maker_fee: '0.001',
        taker_fee: '0.001',
      });
      let answer = '';
      await until(async () => {
        answer = (await place()).body;
        return JSON.parse(answer).type === 'ok';
      });
      expect(JSON.parse(answer).data).toMatchObject({ status: 'waiting', qty: '0.000105' });
      expect((await verifyLedger(db)).problems).toEqual([]);
    });
  },
);
