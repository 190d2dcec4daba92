import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OptionOrder, OptionOrderPage } from '@verdant/api';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { post } from '../../ledger/ledger.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import { freePort, postForm, seedTraders, startServer } from '../spot/load.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function getJson<T>(port: number, path: string, token: string): Promise<T> {
  const res = await fetch(`http://127.0.0.1:${port}/api/${path}`, {
    headers: { authorization: token, lang: 'en' },
  });
  return ((await res.json()) as { data: T }).data;
}

/**
 * A server process killed with SIGKILL between the purchase and the delivery of options, and
 * started again only after their delivery time: each order settles once, on the first tick
 * recorded at or after its delivery time (the first one after the restart), and the ledger
 * verifies.
 */
describe('SIGKILL between purchase and delivery', { timeout: 300_000 }, () => {
  it('settles every overdue order once after the restart, against the recorded ticks', async () => {
    const url = process.env.DATABASE_URL;
    const dataDir = mkdtempSync(join(tmpdir(), 'verdant-option-kill-'));
    const schema = url ? `okill_${randomBytes(5).toString('hex')}` : undefined;
    const dbOpts = url ? { url, schema } : { dataDir };
    // a real feed, a tick every 200 ms
    const env = {
      ...(url ? { DATABASE_URL: url, DATABASE_SCHEMA: schema } : { DATABASE_URL: '' }),
      DATA_DIR: dataDir,
      FEED_INTERVAL_MS: '200',
    };
    try {
      let db = await openDb(dbOpts);
      await migrate(db);
      const [trader] = await db.tx((q) => seedTraders(q, 1, { usdt: '1', btc: '1' }));
      const userId = trader!.id;
      await db.tx(async (q) => {
        await q.query(`UPDATE users SET verification = 'verified' WHERE id = $1`, [userId]);
        // a 5 s delivery time keeps the test short
        await q.query(
          `INSERT INTO option_seconds (market_id, seconds, profit_ratio, fee_rate, min_amount, max_amount)
           VALUES (1, 5, 0.8, 0.02, 1, 1000)`,
        );
        await post(q, {
          reason: 'deposit',
          legs: [
            { account: { userId, type: 'option', currencyId: 3 }, available: '1000' },
            { account: { house: 'deposits', currencyId: 3 }, available: '-1000' },
          ],
        });
      });
      await db.close();

      let port = await freePort();
      let server = await startServer(env, port);
      const agent = new http.Agent({ keepAlive: true });
      const bought: OptionOrder[] = [];
      for (const direction of ['bullish', 'bearish', 'bullish']) {
        for (let tries = 0; ; tries++) {
          const res = await postForm(agent, port, 'microtrade/submit', trader!.token, {
            symbol: 'btcusdt',
            seconds: '5',
            currency: 'USDT',
            amount: '100',
            direction,
          });
          // 503 until the feed's first tick is recorded
          if (res.status === 200) {
            bought.push(JSON.parse(res.body).data);
            break;
          }
          expect(res.status).toBe(503);
          if (tries > 200) throw new Error(`no purchase: ${res.body}`);
          await sleep(100);
        }
      }
      server.kill('SIGKILL');
      await new Promise((r) => server.once('exit', r));
      agent.destroy();
      const last = Math.max(...bought.map((o) => Date.parse(o.deliver_at)));
      // down until every delivery time has passed: no tick is recorded meanwhile
      while (Date.now() < last + 1_000) await sleep(100);

      port = await freePort();
      server = await startServer(env, port);
      for (let i = 0; ; i++) {
        const page = await getJson<OptionOrderPage>(port, 'microtrade/lists?status=delivered', trader!.token);
        if (page.total === bought.length) break;
        if (i > 600) throw new Error('the overdue orders were not settled after the restart');
        await sleep(100);
      }
      const restarted = Date.now();
      const delivered = await getJson<OptionOrderPage>(
        port,
        'microtrade/lists?status=delivered',
        trader!.token,
      );
      await new Promise<void>((r) => {
        server.once('exit', () => r());
        server.kill('SIGTERM');
      });

      db = await openDb(dbOpts);
      try {
        for (const o of delivered.list) {
          const b = bought.find((x) => x.id === o.id)!;
          expect(o.purchase).toEqual(b.purchase);
          // the first recorded tick at or after the delivery time, which came after the restart
          const [first] = await db.query<{ id: string; price: string; t: string }>(
            `SELECT id::text, price::text, (extract(epoch FROM created_at) * 1000)::bigint::text AS t FROM index_ticks
              WHERE market_id = 1 AND created_at >= $1 ORDER BY created_at, id LIMIT 1`,
            [o.deliver_at],
          );
          expect(o.delivery!.id).toBe(first!.id);
          expect(Date.parse(o.delivery!.time)).toBeGreaterThan(last);
          expect(Date.parse(o.delivery!.time)).toBeLessThanOrEqual(restarted);
          const up = Number(o.delivery!.price) > Number(o.purchase.price);
          const same = o.delivery!.price === o.purchase.price;
          const won = o.direction === 'bullish' ? up : !up && !same;
          expect(o.result).toBe(same ? 'flat' : won ? 'win' : 'loss');
        }
        // each order: its stake's posting, and the settlement journal it names (several
        // delivered in one pass share one: options_delivered)
        const [stakes] = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM ledger_journals WHERE ref_type = 'option_order' AND reason = 'option_stake'`,
        );
        expect(stakes!.n).toBe(bought.length);
        const [unpaid] = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM option_orders o LEFT JOIN ledger_journals j ON j.id = o.delivery_journal_id
            WHERE o.user_id = $1 AND j.id IS NULL`,
          [userId],
        );
        expect(unpaid!.n).toBe(0);
        const expected = delivered.list.reduce((sum, o) => sum + Number(o.payout) - Number(o.amount), 1000);
        const [bal] = await db.query<{ available: string; frozen: string }>(
          `SELECT available::text, frozen::text FROM ledger_accounts WHERE user_id = $1 AND type = 'option'`,
          [userId],
        );
        expect(Number(bal!.available)).toBeCloseTo(expected, 6);
        expect(Number(bal!.frozen)).toBe(0);
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
