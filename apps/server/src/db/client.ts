import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient, PoolConfig } from 'pg';
import { AppError } from '../http/errors.ts';

/** The one thing services need from a database: parameterised queries, and transactions. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Runs `fn` once what this queryable wrote is committed: after the transaction's COMMIT inside
   * tx (never when it rolls back), at once outside one. For side effects others must not see
   * before the data (socket pushes); `fn` gets the database it was committed to (whose services
   * hold the sockets). Optional so hand-made queryables stay valid; see afterCommit.
   */
  afterCommit?(fn: (db: Db) => void): void;
}

/** Runs the callbacks of a committed transaction; one that throws does not stop the others. */
function runCommitted(db: Db, fns: ((db: Db) => void)[]): void {
  for (const fn of fns) {
    try {
      fn(db);
    } catch {
      // a side effect after the commit cannot undo it; the callback logs its own failures
    }
  }
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball (the tests' migrated snapshot). */
  dumpDataDir?(): Promise<Blob>;
}

/** PostgreSQL limits in milliseconds (config.db); 0 or unset turns one off. */
export interface DbLimits {
  connectTimeoutMs?: number;
  statementTimeoutMs?: number;
  queryTimeoutMs?: number;
  idleInTransactionTimeoutMs?: number;
  /** At open, how long to keep retrying an unreachable server (with back-off) before giving up. */
  startWaitMs?: number;
}

export interface DbOptions {
  /** postgres://… to use a PostgreSQL server; unset for embedded PGlite. */
  url?: string | undefined;
  /** PGlite folder; unset keeps PGlite in memory (tests). */
  dataDir?: string | undefined;
  /** PostgreSQL schema to work in; created when missing. */
  schema?: string | undefined;
  limits?: DbLimits | undefined;
  /** Where the database's warnings go (an unreachable server at start, a lost connection). */
  warn?: ((msg: string) => void) | undefined;
  /**
   * PGlite only: start from this data directory tarball (PGlite's dumpDataDir) instead of an
   * empty database. Tests load one already migrated rather than migrating in every file.
   */
  pgliteSnapshot?: Blob | undefined;
}

/**
 * A reason the server cannot start that an operator can act on (database unreachable, data
 * folder unwritable or in use, the order books owned by another process): main.ts prints its
 * message as one line and exits non-zero.
 */
export class StartupError extends Error {}

/** Driver and socket errors that mean "the connection is gone or the server is not answering". */
const CONNECTION_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs that say nothing about the request and all about the server's state: connection
 * exceptions (08…), shut down or starting (57P01–57P03), too many connections, a statement or
 * an idle transaction or session that hit its timeout.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57P05', '53300', '57014', '25P03']);
const CONNECTION_MESSAGES =
  /Connection terminated|not queryable|Query read timeout|timeout exceeded when trying to connect|timeout expired|Connection terminated due to connection timeout/;

/** True when err means the database could not be reached or did not answer in time. */
export function isUnavailable(err: unknown): boolean {
  if (err instanceof AppError) return err.codeName === 'UNAVAILABLE';
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (CONNECTION_ERRNOS.has(code) || code.startsWith('08') || UNAVAILABLE_STATES.has(code))
  )
    return true;
  if (err instanceof AggregateError && err.errors.some(isUnavailable)) return true;
  return CONNECTION_MESSAGES.test(err.message);
}

/** The user's "try again" (503): nothing of the request was kept, the database may be back soon. */
function unavailable(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return Object.assign(new AppError('UNAVAILABLE', 'errors.tryAgain'), { cause: err });
}

const rethrow = (err: unknown): never => {
  throw isUnavailable(err) ? unavailable(err) : err;
};

export async function openDb(opts: DbOptions): Promise<Db> {
  return opts.url ? openPostgres(opts) : openPglite(opts.dataDir, opts.pgliteSnapshot);
}

async function openPglite(dataDir: string | undefined, snapshot?: Blob): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  let dir: string | undefined;
  let unlock = () => {};
  if (dataDir) {
    dir = join(dataDir, 'pglite');
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new StartupError(`the data folder ${dataDir} cannot be written (${(e as Error).message})`);
    }
    // PGlite does not lock its folder, and two processes on one folder corrupt it.
    unlock = lockFolder(dataDir, join(dataDir, 'pglite.lock'));
  }
  let pg: PGlite;
  try {
    const options = snapshot ? { loadDataDir: snapshot } : {};
    pg = dir ? new PGlite(dir, options) : new PGlite(options);
    await pg.waitReady;
  } catch (e) {
    unlock();
    throw e;
  }
  const q: Queryable = {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const r = await pg.query<T>(sql, params as unknown[]);
      return r.rows;
    },
  };
  const self: Db = {
    kind: 'pglite',
    query: q.query,
    dumpDataDir: () => pg.dumpDataDir('none'),
    // PGlite is one connection guarded by a mutex: a transaction holds it until it ends.
    afterCommit: (fn) => fn(self),
    tx: async (fn) => {
      const committed: ((db: Db) => void)[] = [];
      const out = await pg.transaction(async (t) => {
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
            afterCommit: (f) => committed.push(f),
          });
          await Promise.all(issued);
          return out;
        } catch (e) {
          // Everything fn sent has run before PGlite rolls the transaction back.
          await Promise.allSettled(issued);
          throw e;
        }
      });
      runCommitted(self, committed);
      return out;
    },
    close: async () => {
      try {
        await pg.close();
      } finally {
        unlock();
      }
    },
  };
  return self;
}

/** Folders this process has locked (a second open in the same process is refused too). */
const lockedHere = new Set<string>();

/** Start time of a process, from /proc on Linux (null elsewhere): tells a reused pid apart. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

interface LockOwner {
  pid: number;
  started: string | null;
  host: string;
}

/** Whether the process a lock file names may still be running. */
function ownerAlive(o: LockOwner, file: string): boolean {
  // another machine's process (a shared folder) cannot be checked from here: assume it runs
  if (o.host !== hostname()) return true;
  if (o.pid === process.pid) return lockedHere.has(file);
  try {
    process.kill(o.pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  // the pid is in use, but by a later process when its start time differs
  const started = processStart(o.pid);
  return !(o.started && started && started !== o.started);
}

/**
 * Takes the lock file of a PGlite data folder, holding this process's pid, or refuses with a
 * message naming the folder and the process that holds it. A lock left by a process that is no
 * longer running (killed, crashed, a container restarted) is taken over. The file appears
 * complete at once (written aside, then hard-linked into place, which fails if it exists), and a
 * stale one is moved away by rename, which only one process can do, so two processes starting
 * together cannot both win. Answers the release function.
 */
function lockFolder(dataDir: string, file: string): () => void {
  const mine = JSON.stringify({
    pid: process.pid,
    started: processStart(process.pid),
    host: hostname(),
  } satisfies LockOwner);
  const refuse = (o: LockOwner) =>
    new StartupError(
      `the data folder ${dataDir} is in use by another Verdant process (pid ${o.pid}` +
        `${o.host === hostname() ? '' : ` on ${o.host}`}); stop it first, or give this one another DATA_DIR` +
        ` (if no such process runs, delete ${file})`,
    );
  const writeAside = (text: string) => {
    const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      writeFileSync(aside, text);
    } catch (e) {
      throw new StartupError(`the data folder ${dataDir} cannot be written (${(e as Error).message})`);
    }
    return aside;
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    const aside = writeAside(mine);
    try {
      linkSync(aside, file);
      lockedHere.add(file);
      return () => {
        lockedHere.delete(file);
        try {
          if (readFileSync(file, 'utf8') === mine) unlinkSync(file);
        } catch {
          // already gone
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    } finally {
      unlinkSync(aside);
    }
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue; // removed meanwhile: try again
    }
    let owner: LockOwner | null = null;
    try {
      owner = JSON.parse(text) as LockOwner;
    } catch {
      // unreadable: not written by this code, treat it as stale
    }
    if (owner && typeof owner.pid === 'number' && ownerAlive(owner, file)) throw refuse(owner);
    const moved = `${file}.stale.${process.pid}`;
    try {
      renameSync(file, moved);
    } catch {
      continue;
    }
    const was = readFileSync(moved, 'utf8');
    unlinkSync(moved);
    if (was !== text) {
      // another process replaced the stale lock with its own between our read and our rename
      const back = writeAside(was);
      try {
        linkSync(back, file);
      } catch {
        // a third one got in: it holds the folder
      } finally {
        unlinkSync(back);
      }
      throw refuse(JSON.parse(was) as LockOwner);
    }
  }
  throw new StartupError(`could not take the lock file ${file} of the data folder ${dataDir}`);
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

/** Where a connection string points, without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'the configured server';
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The first contact at start. A server that refuses, resets or does not answer is tried again
 * with back-off (0.25 s doubling to 5 s) for up to startWaitMs, saying so once; anything else
 * (a wrong password, a missing database) fails at once.
 */
async function firstContact(pool: Pool, opts: DbOptions): Promise<void> {
  const where = describeUrl(opts.url ?? '');
  const waitMs = opts.limits?.startWaitMs ?? 0;
  const deadline = Date.now() + waitMs;
  let delay = 250;
  let told = false;
  for (;;) {
    try {
      await pool.query('SELECT 1');
      if (told) opts.warn?.(`the database at ${where} answers now`);
      return;
    } catch (e) {
      const reason = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      if (!isUnavailable(e))
        throw new StartupError(`cannot use the database at ${where}: ${(e as Error).message}`);
      if (Date.now() + delay > deadline)
        throw new StartupError(
          `the database at ${where} cannot be reached (${reason})${told ? ` after ${Math.round(waitMs / 1000)} s of retries` : ''}`,
        );
      if (!told)
        opts.warn?.(
          `the database at ${where} cannot be reached (${reason}); retrying for up to ${Math.round(waitMs / 1000)} s`,
        );
      told = true;
      await sleep(delay);
      delay = Math.min(delay * 2, 5_000);
    }
  }
}

async function openPostgres(opts: DbOptions): Promise<Db> {
  const { schema } = opts;
  const limits = opts.limits ?? {};
  const pgMod = await import('pg');
  const pool: Pool = new pgMod.default.Pool({
    connectionString: opts.url,
    max: 20,
    // A transaction's statements go out without waiting for the one before (see tx below).
    pipeline: true,
    keepAlive: true,
    // 0 (or unset) leaves each off; see config.db and docs/decisions.md (Reliability)
    connectionTimeoutMillis: limits.connectTimeoutMs || undefined,
    statement_timeout: limits.statementTimeoutMs || undefined,
    query_timeout: limits.queryTimeoutMs || undefined,
    idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs || undefined,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  } as PoolConfig);
  // A connection that dies while idle in the pool: the pool drops it; without a listener its
  // 'error' event would end the process.
  pool.on('error', (err) => opts.warn?.(`database connection lost: ${err.message}`));
  // A connection that dies while checked out (a transaction between statements) emits 'error'
  // too; its statements fail, and tx releases it as broken.
  pool.on('connect', (client) => client.on('error', () => {}));
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`bad schema name: ${schema}`);
  try {
    await firstContact(pool, opts);
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } catch (e) {
    await pool.end().catch(() => {});
    throw e;
  }
  const run = <T>(c: Pool | PoolClient, sql: string, params: readonly unknown[]) => {
    const name = params.length > 0 ? statementName(sql) : undefined;
    return c
      .query(
        name ? { name, text: sql, values: params as unknown[] } : { text: sql, values: params as unknown[] },
      )
      .then((r) => r.rows as T[], rethrow);
  };
  const self: Db = {
    kind: 'postgres',
    query: (sql, params = []) => run(pool, sql, params),
    afterCommit: (fn) => fn(self),
    /**
     * Pipelined: BEGIN goes out with fn's first statement, and COMMIT right behind the last
     * statements fn issued, so a transaction whose final writes are not awaited by fn costs one
     * round trip for them and the commit together. Every statement fn issues is awaited before
     * tx answers; if any failed, PostgreSQL has aborted the transaction (its COMMIT answers as a
     * rollback) and tx throws that statement's error. BEGIN fails only with the connection, and
     * then so does everything behind it on that connection.
     */
    async tx(fn) {
      const client = await pool.connect().catch(rethrow);
      const issued: Promise<unknown>[] = [];
      const track = <T>(p: Promise<T>): Promise<T> => {
        // Handled from the start, so a statement fn did not await can't fail as an unhandled
        // rejection before tx gets to it.
        p.catch(() => {});
        issued.push(p);
        return p;
      };
      let broken = false;
      const committed: ((db: Db) => void)[] = [];
      try {
        track(client.query('BEGIN'));
        const out = await fn({
          query: (sql, params = []) => track(run(client, sql, params)),
          afterCommit: (f) => committed.push(f),
        });
        const commit = client.query('COMMIT');
        // handled now: if a statement before it failed, tx is already on its way out
        commit.catch(() => {});
        await Promise.all(issued);
        await commit;
        runCommitted(self, committed);
        return out;
      } catch (e) {
        await Promise.allSettled(issued);
        if (isUnavailable(e)) {
          // The connection is gone or stalled: PostgreSQL rolls back what it holds of this
          // transaction when the connection ends (or the idle-in-transaction timeout ends it).
          broken = true;
          throw unavailable(e);
        }
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
  return self;
}
