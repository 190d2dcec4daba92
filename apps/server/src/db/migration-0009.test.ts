import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillMarket } from '../modules/market/backfill.ts';
import { loadMarkets } from '../modules/market/markets.ts';
import { type Db, openDb } from './client.ts';
import { migrate } from './migrate.ts';

// An install from before 0009: migrated, then 0009 taken back and rows written as the older
// code wrote them; migrating again must bring them to the new rules.
let db: Db;
const schema = process.env.DATABASE_URL ? `test_${randomBytes(6).toString('hex')}` : undefined;
const MIN = 60_000;
const LAST_SIM = Math.floor(Date.now() / MIN) * MIN - 10 * MIN;

beforeAll(async () => {
  db = await openDb({ url: process.env.DATABASE_URL, schema });
  await migrate(db);
  await db.query('DROP TABLE market_backfill_progress');
  await db.query('DROP TABLE market_backfills');
  await db.query("DELETE FROM schema_migrations WHERE name LIKE '0009\\_%'");
  await db.query("UPDATE currencies SET chains = '{OMNI}' WHERE symbol = 'BTC'");
  const [u] = await db.query<{ id: number }>(
    `INSERT INTO users (nickname, account_type, email, password_hash, invite_code)
     VALUES ('old', 'email', 'old@example.com', 'x', 'OLD001') RETURNING id`,
  );
  const user = u!.id;
  await db.query(
    `INSERT INTO deposit_addresses (user_id, currency_id, chain, address, key_fingerprint, derivation_path) VALUES
       ($1, 1, 'OMNI', '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH', 'aaaaaaaa', 'm/1/1'),
       ($1, 3, 'OMNI', '1BoatSLRHtKNngkdXEeobR76b53LETtpyT', 'aaaaaaaa', 'm/3/1')`,
    [user],
  );
  await db.query(
    `INSERT INTO withdraw_addresses (user_id, currency_id, chain, address) VALUES
       ($1, 1, 'OMNI', '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH'),
       ($1, 3, 'OMNI', '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH')`,
    [user],
  );
  // market 1 back-filled by the old code (cut short or not, it cannot tell), market 2 fed only
  const at = (ms: number) => new Date(ms).toISOString();
  await db.query(
    `INSERT INTO candles (market_id, interval, open_time, open, high, low, close, source) VALUES
       (1, '1min', $1, 100, 101, 99, 100, 'sim'), (1, '1min', $2, 100, 101, 99, 100.5, 'sim'),
       (1, '1min', $3, 100.5, 102, 100, 101, 'index'), (2, '1min', $3, 10, 11, 9, 10, 'index')`,
    [at(LAST_SIM - MIN), at(LAST_SIM), at(LAST_SIM + MIN)],
  );
  expect(await migrate(db)).toEqual([expect.stringMatching(/^0009_/)]);
});
afterAll(async () => {
  if (schema) await db.query(`DROP SCHEMA ${schema} CASCADE`);
  await db.close();
});

describe('migration 0009 on an older install', () => {
  it('moves BTC to the chain "BTC", in the currency and in its addresses; USDT keeps OMNI', async () => {
    const chains = await db.query<{ symbol: string; chains: string[] }>(
      "SELECT symbol, chains FROM currencies WHERE symbol IN ('BTC', 'USDT') ORDER BY symbol",
    );
    expect(chains).toEqual([
      { symbol: 'BTC', chains: ['BTC'] },
      { symbol: 'USDT', chains: ['TRC20', 'OMNI', 'ERC20'] },
    ]);
    for (const table of ['deposit_addresses', 'withdraw_addresses']) {
      const rows = await db.query<{ currency_id: number; chain: string }>(
        `SELECT currency_id, chain FROM ${table} ORDER BY currency_id`,
      );
      expect(rows, table).toEqual([
        { currency_id: 1, chain: 'BTC' },
        { currency_id: 3, chain: 'OMNI' },
      ]);
    }
  });

  it('plans a back-fill that completes what the old one wrote; a fed market is complete', async () => {
    const plans = await db.query<{ market_id: number; until_ms: string; days: number; done: boolean }>(
      `SELECT market_id, until_ms::text AS until_ms, days, completed_at IS NOT NULL AS done
         FROM market_backfills ORDER BY market_id`,
    );
    expect(plans).toEqual([
      { market_id: 1, until_ms: String(LAST_SIM), days: 30, done: false },
      { market_id: 2, until_ms: '0', days: 30, done: true },
    ]);
    // the next start walks market 1 again up to where the old run ended, keeping what exists
    const m1 = (await loadMarkets(db)).find((m) => m.id === 1)!;
    const written = await backfillMarket(db, m1, 12345, 30, Date.now());
    expect(written).toBeGreaterThan(2 * 1440);
    const [minutes] = await db.query<{ n: number; last: string; kept: string }>(
      `SELECT count(*)::int AS n,
              (extract(epoch FROM max(open_time) FILTER (WHERE source = 'sim')) * 1000)::bigint::text AS last,
              (SELECT close::text FROM candles WHERE market_id = 1 AND interval = '1min' AND open_time = $1) AS kept
         FROM candles WHERE market_id = 1 AND interval = '1min'`,
      [new Date(LAST_SIM).toISOString()],
    );
    expect(Number(minutes!.last)).toBe(LAST_SIM);
    expect(Number(minutes!.kept)).toBe(100.5);
    // two days of minutes up to the planned end, and the fed minute after it
    expect(minutes!.n).toBe(2 * 1440 + 1 + 1);
    const [plan] = await db.query<{ done: boolean }>(
      'SELECT completed_at IS NOT NULL AS done FROM market_backfills WHERE market_id = 1',
    );
    expect(plan!.done).toBe(true);
  });
});
