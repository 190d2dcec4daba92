import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

/** The one thing services need from a database: parameterised queries, and transactions. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DbOptions {
  /** postgres://… to use a PostgreSQL server; unset for embedded PGlite. */
  url?: string | undefined;
  /** PGlite folder; unset keeps PGlite in memory (tests). */
  dataDir?: string | undefined;
  /** PostgreSQL schema to work in; created when missing. */
  schema?: string | undefined;
}

export async function openDb(opts: DbOptions): Promise<Db> {
  return opts.url ? openPostgres(opts.url, opts.schema) : openPglite(opts.dataDir);
}

async function openPglite(dataDir: string | undefined): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  let dir: string | undefined;
  if (dataDir) {
    dir = join(dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
  }
  const pg: PGlite = dir ? new PGlite(dir) : new PGlite();
  await pg.waitReady;
  const q: Queryable = {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const r = await pg.query<T>(sql, params as unknown[]);
      return r.rows;
    },
  };
  return {
    kind: 'pglite',
    query: q.query,
    // PGlite is one connection guarded by a mutex: a transaction holds it until it ends.
    tx: (fn) =>
      pg.transaction(async (t) =>
        fn({
          async query<T>(sql: string, params: readonly unknown[] = []) {
            return (await t.query<T>(sql, params as unknown[])).rows;
          },
        }),
      ),
    close: () => pg.close(),
  };
}

async function openPostgres(url: string, schema: string | undefined): Promise<Db> {
  const pgMod = await import('pg');
  const pool: Pool = new pgMod.default.Pool({
    connectionString: url,
    max: 20,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  if (schema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name: ${schema}`);
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  }
  const wrap = (c: Pool | PoolClient): Queryable => ({
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const r = await c.query(sql, params as unknown[]);
      return r.rows as T[];
    },
  });
  const base = wrap(pool);
  return {
    kind: 'postgres',
    query: base.query,
    async tx(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const out = await fn(wrap(client));
        await client.query('COMMIT');
        return out;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
