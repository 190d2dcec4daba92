import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient, PoolConfig } from 'pg';

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
      pg.transaction(async (t) => {
        // As on PostgreSQL: what fn issued and did not await is part of the transaction too.
        const issued: Promise<unknown>[] = [];
        try {
          const out = await fn({
            query<T>(sql: string, params: readonly unknown[] = []) {
              const p = t.query<T>(sql, params as unknown[]).then((r) => r.rows);
              issued.push(p);
              p.catch(() => {});
              return p;
            },
          });
          await Promise.all(issued);
          return out;
        } catch (e) {
          // Everything fn sent has run before PGlite rolls the transaction back.
          await Promise.allSettled(issued);
          throw e;
        }
      }),
    close: () => pg.close(),
  };
}

/**
 * A name per statement text, so each pooled connection parses and plans a statement once and
 * then only binds and executes it (the spot batch's statements spent about a third of their
 * database time in parse and bind). The texts are the code's own, a bounded set; past the cap a
 * text runs unnamed, as before.
 */
const statementNames = new Map<string, string>();
const MAX_NAMED = 2_000;
function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED) {
    name = `v${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    statementNames.set(sql, name);
  }
  return name;
}

async function openPostgres(url: string, schema: string | undefined): Promise<Db> {
  const pgMod = await import('pg');
  const pool: Pool = new pgMod.default.Pool({
    connectionString: url,
    max: 20,
    // A transaction's statements go out without waiting for the one before (see tx below).
    pipeline: true,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  } as PoolConfig);
  if (schema) {
    if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name: ${schema}`);
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  }
  const run = <T>(c: Pool | PoolClient, sql: string, params: readonly unknown[]) => {
    const name = params.length > 0 ? statementName(sql) : undefined;
    return c
      .query(
        name ? { name, text: sql, values: params as unknown[] } : { text: sql, values: params as unknown[] },
      )
      .then((r) => r.rows as T[]);
  };
  return {
    kind: 'postgres',
    query: (sql, params = []) => run(pool, sql, params),
    /**
     * Pipelined: BEGIN goes out with fn's first statement, and COMMIT right behind the last
     * statements fn issued, so a transaction whose final writes are not awaited by fn costs one
     * round trip for them and the commit together. Every statement fn issues is awaited before
     * tx answers; if any failed, PostgreSQL has aborted the transaction (its COMMIT answers as a
     * rollback) and tx throws that statement's error. BEGIN fails only with the connection, and
     * then so does everything behind it on that connection.
     */
    async tx(fn) {
      const client = await pool.connect();
      const issued: Promise<unknown>[] = [];
      const track = <T>(p: Promise<T>): Promise<T> => {
        // Handled from the start, so a statement fn did not await can't fail as an unhandled
        // rejection before tx gets to it.
        p.catch(() => {});
        issued.push(p);
        return p;
      };
      let broken = false;
      try {
        track(client.query('BEGIN'));
        const out = await fn({ query: (sql, params = []) => track(run(client, sql, params)) });
        const commit = client.query('COMMIT');
        await Promise.all(issued);
        await commit;
        return out;
      } catch (e) {
        await Promise.allSettled(issued);
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        throw e;
      } finally {
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
