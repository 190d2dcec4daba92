import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund, place, USDT } from '../modules/spot/test-helpers.ts';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';

/**
 * A process that lost its market must not write to it: once another process has raised the
 * market's writer token (as a takeover does), the old owner's next batch fails in its own
 * transaction and changes nothing. Needs PostgreSQL and Redis (the cluster test's reason).
 */
const url = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

describe.skipIf(!url)(
  'the writer token (skipped without DATABASE_URL: needs PostgreSQL and Redis)',
  {
    timeout: 60_000,
  },
  () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness({
        redisUrl,
        clusterPollMs: 100,
      });
      const end = Date.now() + 20_000;
      while (!h.app.spot.owns(1)) {
        if (Date.now() > end) throw new Error('the market was never taken');
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    afterAll(async () => {
      await h?.close();
      // this schema's key of who owned what
      const r = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await r
        .connect()
        .then(() => r.del(`verdant:${h.config.databaseSchema}:spot-owners`))
        .catch(() => {});
      r.disconnect();
    });

    it("refuses the old owner's batch once another process took the market, and keeps nothing of it", async () => {
      const u = await registerByEmail(h);
      await fund(h.app, u.user.id, USDT, '1000');
      expect((await place(h.app, u.token, { side: 'buy', price: '50000', qty: '0.001' })).status).toBe(200);
      const count = async () =>
        (await h.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM spot_orders'))[0]!.n;
      const before = await count();

      // another process takes btcusdt: its token goes up
      await h.app.ctx.db.query('UPDATE market_writers SET token = token + 1, node = $1 WHERE market_id = 1', [
        'elsewhere',
      ]);
      const refused = await place(h.app, u.token, { side: 'buy', price: '50000', qty: '0.001' });
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe(1503);
      expect(await count()).toBe(before);
      // the user's funds: only the first order's freeze
      const [acc] = await h.app.ctx.db.query<{ frozen: string }>(
        'SELECT frozen::text FROM ledger_accounts WHERE user_id = $1 AND currency_id = 3',
        [u.user.id],
      );
      expect(Number(acc!.frozen)).toBe(50);
      // and this process no longer takes batches for it
      expect(h.app.spot.owns(1)).toBe(false);
    });
  },
);
