import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from './client.ts';

// On PGlite by default, on PostgreSQL when DATABASE_URL is set (npm run test:pg), like the
// server suites: the transaction rules below must hold on both.
const url = process.env.DATABASE_URL;
const schema = url ? `test_${randomBytes(6).toString('hex')}` : undefined;
let db: Db;

beforeAll(async () => {
  db = await openDb({ url, schema });
  await db.query('CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)');
});
afterAll(async () => {
  if (schema) await db.query(`DROP SCHEMA ${schema} CASCADE`);
  await db.close();
});

const ids = async () => (await db.query<{ id: number }>('SELECT id FROM notes ORDER BY id')).map((r) => r.id);

describe('db.tx', () => {
  it('commits the statements fn sent without awaiting them, in the order it sent them', async () => {
    await db.query('DELETE FROM notes');
    const answer = await db.tx(async (q) => {
      void q.query('INSERT INTO notes VALUES ($1, $2)', [1, 'a']);
      // Sent behind the insert: it sees the row.
      void q.query("UPDATE notes SET body = body || 'b' WHERE id = $1", [1]);
      void q.query('INSERT INTO notes VALUES ($1, $2)', [2, 'c']);
      return 'done';
    });
    expect(answer).toBe('done');
    expect(await db.query('SELECT id, body FROM notes ORDER BY id')).toEqual([
      { id: 1, body: 'ab' },
      { id: 2, body: 'c' },
    ]);
  });

  it('fails, and keeps nothing, when a statement fn did not await fails', async () => {
    await db.query('DELETE FROM notes');
    await db.query('INSERT INTO notes VALUES ($1, $2)', [10, 'kept before']);
    const attempt = db.tx(async (q) => {
      void q.query('INSERT INTO notes VALUES ($1, $2)', [11, 'x']);
      void q.query('INSERT INTO notes VALUES ($1, $2)', [10, 'duplicate key']);
      void q.query('INSERT INTO notes VALUES ($1, $2)', [12, 'y']);
      return 'answered before the statements finished';
    });
    await expect(attempt).rejects.toMatchObject({ code: '23505' });
    expect(await ids()).toEqual([10]);
  });

  it('rolls back what fn sent when fn throws afterwards', async () => {
    await db.query('DELETE FROM notes');
    const attempt = db.tx(async (q) => {
      void q.query('INSERT INTO notes VALUES ($1, $2)', [20, 'x']);
      throw new Error('changed my mind');
    });
    await expect(attempt).rejects.toThrow('changed my mind');
    expect(await ids()).toEqual([]);
    // The connection is clean for the next transaction.
    await db.tx(async (q) => {
      await q.query('INSERT INTO notes VALUES ($1, $2)', [21, 'next']);
    });
    expect(await ids()).toEqual([21]);
  });

  it('runs the same statement text again and again, also after it failed once', async () => {
    await db.query('DELETE FROM notes');
    const insert = 'INSERT INTO notes VALUES ($1, $2)';
    // More than five runs: PostgreSQL may switch a prepared statement to a generic plan.
    for (let i = 0; i < 12; i++) await db.tx((q) => q.query(insert, [100 + i, `n${i}`]));
    await expect(db.tx((q) => q.query(insert, [100, 'again']))).rejects.toMatchObject({ code: '23505' });
    await db.tx((q) => q.query(insert, [200, 'after the failure']));
    const rows = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notes WHERE id >= $1', [100]);
    expect(rows[0]!.n).toBe(13);
  });
});
