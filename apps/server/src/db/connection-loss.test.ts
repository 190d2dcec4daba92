import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { fund, ledgerClean, place, USDT } from '../modules/spot/test-helpers.ts';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';
import { startTcpProxy, type TcpProxy } from '../test/tcp-proxy.ts';
import { takeBooksLock } from './books-lock.ts';
import { openDb } from './client.ts';

/**
 * The server between the network and PostgreSQL: a TCP proxy in front of the database resets
 * every connection, or stalls them. The server stays up, answers "try again" (503, localized)
 * meanwhile, keeps nothing of what it could not finish, and carries on once the database answers.
 * Only meaningful on PostgreSQL (PGlite has no connection to lose).
 */
const url = process.env.DATABASE_URL;
const limits = {
  connectTimeoutMs: 1_000,
  statementTimeoutMs: 2_000,
  queryTimeoutMs: 1_500,
  idleInTransactionTimeoutMs: 5_000,
  startWaitMs: 0,
  lockCheckMs: 300,
};
const TH_TRY_AGAIN = 'ระบบไม่พร้อมให้บริการชั่วคราว โปรดลองอีกครั้งในอีกสักครู่';

async function until<T>(what: string, fn: () => Promise<T | null>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v !== null) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(!url)('losing the PostgreSQL connection', { timeout: 120_000 }, () => {
  let proxy: TcpProxy;
  let h: Harness;
  let trader: { id: number; token: string };

  beforeAll(async () => {
    const real = new URL(url!);
    proxy = await startTcpProxy(real.hostname, Number(real.port || 5432));
    // the harness reads DATABASE_URL when it starts: the whole app talks through the proxy
    process.env.DATABASE_URL = proxy.url(url!);
    try {
      h = await startHarness({ db: limits });
    } finally {
      process.env.DATABASE_URL = url;
    }
    const u = await registerByEmail(h);
    trader = { id: u.user.id, token: u.token };
    await fund(h.app, trader.id, USDT, '1000');
  });
  afterAll(async () => {
    proxy.forward();
    await h?.close();
    await proxy?.close();
  });

  const balance = () =>
    h.call<{ list: unknown[] }>('GET', 'wallet/currencies', undefined, { token: trader.token, lang: 'th' });
  const buy = (price: string) =>
    place(h.app, trader.token, { side: 'buy', type: 'limit', price, qty: '0.001' }, 'th');
  /** The trader's orders' prices, and whether the ledger holds frozen exactly what they hold. */
  const orders = async () => {
    const rows = await h.app.ctx.db.query<{ price: string }>(
      'SELECT price::text FROM spot_orders WHERE user_id = $1 ORDER BY price',
      [trader.id],
    );
    const [f] = await h.app.ctx.db.query<{ same: boolean }>(
      `SELECT (SELECT frozen FROM ledger_accounts WHERE user_id = $1 AND currency_id = $2 AND type = 'spot')
            = (SELECT sum(frozen) FROM spot_orders WHERE user_id = $1 AND status = 'waiting') AS same`,
      [trader.id, USDT],
    );
    return { prices: rows.map((r) => Number(r.price)), frozenMatches: f!.same };
  };
  const backAgain = () =>
    until('the server answers again', async () => {
      const r = await buy('40000');
      return r.status === 200 ? r : null;
    });

  it('answers "try again" while every connection is reset, keeps nothing, and carries on after', async () => {
    expect((await buy('41000')).status).toBe(200);

    proxy.reset();
    const during = await balance();
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ type: 'error', code: 1503, message: TH_TRY_AGAIN });
    const order = await buy('42000');
    expect(order.status).toBe(503);
    expect(order.body.message).toBe(TH_TRY_AGAIN);

    proxy.forward();
    await backAgain();
    expect((await balance()).status).toBe(200);
    // the order refused during the outage was never written, nor its funds frozen
    expect(await orders()).toEqual({ prices: [40000, 41000], frozenMatches: true });
    expect(await ledgerClean(h)).toEqual([]);
  });

  it('answers "try again" while the network stalls, and carries on once it forwards again', async () => {
    proxy.stall();
    const during = await balance();
    expect(during.status).toBe(503);
    expect(during.body).toMatchObject({ code: 1503, message: TH_TRY_AGAIN });
    const order = await buy('43000');
    expect(order.status).toBe(503);

    proxy.forward();
    await backAgain();
    expect(await orders()).toEqual({ prices: [40000, 40000, 41000], frozenMatches: true });
    expect(await ledgerClean(h)).toEqual([]);
  });
});

describe.skipIf(!url)("the order books' lock when its connection is cut", { timeout: 60_000 }, () => {
  it('stops this process from running the books when another one took the lock meanwhile', async () => {
    const schema = `lock_${randomBytes(5).toString('hex')}`;
    const real = new URL(url!);
    const proxy = await startTcpProxy(real.hostname, Number(real.port || 5432));
    const db = await openDb({ url, schema });
    const quiet = { info() {}, warn() {}, error() {} };
    const lost: string[] = [];
    try {
      const a = await takeBooksLock({
        url: proxy.url(url!),
        schema,
        connectTimeoutMs: 1_000,
        checkMs: 300,
        log: quiet,
        onLost: (why) => lost.push(why),
      });
      expect(a.held).toBe(true);
      // a cut: a's connection is reset and cannot come back yet
      proxy.reset();
      await until('a notices', async () => (a.held ? null : true));
      // meanwhile another process takes the lock (once PostgreSQL has ended a's session)
      const b = await until('b takes the lock', async () => {
        try {
          return await takeBooksLock({
            url: url!,
            schema,
            connectTimeoutMs: 1_000,
            checkMs: 300,
            log: quiet,
            onLost: () => {},
          });
        } catch {
          return null;
        }
      });
      proxy.forward();
      await until('a gives up', async () => (lost.length > 0 ? true : null));
      expect(a.held).toBe(false);
      expect(lost[0]).toMatch(/another process took the order books' lock/);
      expect(b.held).toBe(true);
      await a.release();
      await b.release();
    } finally {
      await db.query(`DROP SCHEMA ${schema} CASCADE`);
      await db.close();
      await proxy.close();
    }
  });
});

// keeps loadConfig's defaults honest: these are the documented values (docs/decisions.md)
describe('database limits', () => {
  it('has connect, statement, query and idle-in-transaction timeouts by default', () => {
    expect(loadConfig({}).db).toEqual({
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 15_000,
      queryTimeoutMs: 20_000,
      idleInTransactionTimeoutMs: 30_000,
      startWaitMs: 60_000,
      lockCheckMs: 5_000,
    });
  });
});
