import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { fund, place, USDT } from '../modules/spot/test-helpers.ts';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';
import { type Db, openDb } from './client.ts';

/**
 * Two servers on one PostgreSQL database (here: one schema) would each keep their own order
 * books and fill the same orders twice. The second one is refused at start, the first keeps
 * working, and once the first has stopped a new one starts. (On PGlite the data folder's lock
 * file does the same: main.test.ts.)
 */
const url = process.env.DATABASE_URL;

describe.skipIf(!url)("the order books' lock", { timeout: 60_000 }, () => {
  let h: Harness;
  let other: Db;
  let third: FastifyInstance | null = null;
  beforeAll(async () => {
    h = await startHarness();
    other = await openDb({ url, schema: h.config.databaseSchema });
  });
  afterAll(async () => {
    await third?.close();
    await other?.close();
    await h?.close();
  });

  it('refuses a second server on the same database, and lets one start once the first has stopped', async () => {
    const u = await registerByEmail(h);
    await fund(h.app, u.user.id, USDT, '1000');

    await expect(buildApp({ config: h.config, db: other, logger: false })).rejects.toThrow(
      /another Verdant server already runs the order books on .*schema test_/,
    );
    // the first one still runs its books
    const first = await place(h.app, u.token, { side: 'buy', type: 'limit', price: '50000', qty: '0.001' });
    expect(first.status).toBe(200);

    await h.app.close();
    third = await buildApp({ config: h.config, db: other, logger: false });
    await third.ready();
    // the new server rebuilt the book from the open orders and takes new ones
    expect(third.spot.depthOf(1).bids).toEqual([{ price: '50000', qty: '0.001' }]);
    const next = await place(third, u.token, { side: 'buy', type: 'limit', price: '49000', qty: '0.001' });
    expect(next.status).toBe(200);
  });

  it('does not stand in the way of servers on other schemas of the same database', async () => {
    // every test file runs its own harness on its own schema of this database, in parallel
    const h2 = await startHarness();
    try {
      const u = await registerByEmail(h2);
      await fund(h2.app, u.user.id, USDT, '100');
      expect((await place(h2.app, u.token, { side: 'buy', price: '50000', qty: '0.001' })).status).toBe(200);
    } finally {
      await h2.close();
    }
  });
});
