import type { Client } from 'pg';
import { describeUrl, StartupError } from './client.ts';

/**
 * Ownership of the order books on a PostgreSQL database: a session-level advisory lock held by
 * one dedicated connection for the life of the process. Each process keeps its books in memory,
 * so two processes on one database would fill the same orders twice; until several processes
 * can share the books, the second one refuses to start (the server's start-up throws the
 * StartupError below). The lock key is derived from the schema, so servers (and test files) on
 * different schemas of one database do not exclude each other.
 *
 * The connection is checked every `checkMs`. When it dies or stops answering (two periods), `held` turns
 * false (orders are refused with "try again"), and the lock is taken again as soon as the
 * database answers: while this process did not hold it, nobody else ran the books unless it took
 * the lock, so the books in memory are still the database's. If another process holds it by
 * then, `onLost` is called and the lock is not tried again: this process must stop.
 */
export interface BooksLock {
  readonly held: boolean;
  release(): Promise<void>;
}

export interface BooksLockOptions {
  url: string;
  schema: string | undefined;
  connectTimeoutMs: number;
  checkMs: number;
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
  /** Another process holds the books now; this one must not run them. */
  onLost(reason: string): void;
}

/** Two 32-bit keys: one for "the books", one from the schema's name (hashtext). */
const LOCK_ARGS = "hashtext('verdant.books'), hashtext(coalesce(current_schema(), ''))";

/** Takes the books' lock, or throws a StartupError saying who holds it. */
export async function takeBooksLock(opts: BooksLockOptions): Promise<BooksLock> {
  const pgMod = await import('pg');
  const where = `${describeUrl(opts.url)}${opts.schema ? ` (schema ${opts.schema})` : ''}`;
  // The server ends this session when it has heard nothing for three checks (PostgreSQL 14+),
  // so a lock whose process was cut off by the network is released for a successor.
  const idleSessionMs = Math.max(3 * opts.checkMs, 3_000);
  let client: Client | null = null;
  /** Backend pid and start of the session that held the lock, to recognise it after a cut. */
  let session: { pid: number; started: string } | null = null;
  let held = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let retryMs = 250;

  const connect = async (): Promise<Client> => {
    const c = new pgMod.default.Client({
      connectionString: opts.url,
      connectionTimeoutMillis: opts.connectTimeoutMs || undefined,
      // a check unanswered for two periods means the connection is stalled (a loaded server
      // may take a while to answer one; refusing orders for that would be worse)
      query_timeout: 2 * opts.checkMs,
      keepAlive: true,
      application_name: 'verdant-books',
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });
    // without a listener a dying connection's 'error' would end the process
    c.on('error', () => lost(c, 'the connection failed'));
    c.on('end', () => lost(c, 'the connection ended'));
    await c.connect();
    await c.query(`SET idle_session_timeout = ${idleSessionMs}`).catch(() => {
      // PostgreSQL before 14 has no idle_session_timeout: the lock then lasts as long as the
      // server keeps the dead connection (its TCP keep-alive settings)
    });
    return c;
  };

  /** Tries the lock on c; answers null when taken, or a description of the holder. */
  const tryLock = async (c: Client): Promise<{ pid: number; started: string; from: string } | null> => {
    const [r] = (
      await c.query(
        `SELECT pg_try_advisory_lock(${LOCK_ARGS}) AS ok, pg_backend_pid() AS pid,
                (SELECT backend_start::text FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS started`,
      )
    ).rows as { ok: boolean; pid: number; started: string }[];
    if (r!.ok) {
      session = { pid: r!.pid, started: r!.started };
      return null;
    }
    const [h] = (
      await c.query(
        `SELECT l.pid, a.backend_start::text AS started,
                coalesce(host(a.client_addr), 'local socket') AS addr, a.application_name AS app
           FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND (l.classid::bigint, l.objid::bigint) = (
                  SELECT (k.a::bigint & 4294967295), (k.b::bigint & 4294967295)
                    FROM (SELECT hashtext('verdant.books') AS a, hashtext(coalesce(current_schema(), '')) AS b) k)`,
      )
    ).rows as { pid: number; started: string; addr: string; app: string }[];
    return {
      pid: h?.pid ?? 0,
      started: h?.started ?? '',
      from: h ? `${h.addr}, ${h.app || 'no name'}` : 'unknown',
    };
  };

  const schedule = (fn: () => void, ms: number) => {
    if (timer) clearTimeout(timer);
    if (!stopped) timer = setTimeout(fn, ms);
  };

  function lost(c: Client, why: string) {
    if (c !== client || stopped) return;
    client = null;
    c.removeAllListeners('end');
    c.on('error', () => {});
    void c.end().catch(() => {});
    if (held) {
      held = false;
      opts.log.error(
        `the connection holding the order books' lock was lost (${why}): orders are refused until it is taken again`,
      );
    }
    retryMs = 250;
    schedule(retake, 0);
  }

  const check = async () => {
    const c = client;
    if (!c) return;
    try {
      await c.query('SELECT 1');
      schedule(check, opts.checkMs);
    } catch (e) {
      lost(c, (e as Error).message);
    }
  };

  async function retake() {
    let c: Client | null = null;
    try {
      c = await connect();
      if (stopped) {
        await c.end();
        return;
      }
      client = c;
      const holder = await tryLock(c);
      if (!holder) {
        held = true;
        opts.log.warn("the order books' lock is held again: orders are accepted");
        schedule(check, opts.checkMs);
        return;
      }
      client = null;
      c.removeAllListeners('end');
      await c.end().catch(() => {});
      if (session && holder.pid === session.pid && holder.started === session.started) {
        // our own earlier session, cut off but not yet ended by the server: end it
        const k = await connect();
        await k.query('SELECT pg_terminate_backend($1)', [session.pid]).finally(() => {
          k.removeAllListeners('end');
          return k.end();
        });
        schedule(retake, 0);
        return;
      }
      stopped = true;
      opts.onLost(
        `another process took the order books' lock on ${where} (PostgreSQL backend ${holder.pid}, ${holder.from}) while this one was cut off`,
      );
    } catch {
      // the database is still unreachable: try again with back-off
      if (c && c === client) {
        client = null;
        c.removeAllListeners('end');
        c.on('error', () => {});
        void c.end().catch(() => {});
      }
      retryMs = Math.min(retryMs * 2, 5_000);
      schedule(retake, retryMs);
    }
  }

  client = await connect().catch((e: Error) => {
    throw new StartupError(`cannot open the order books' lock connection to ${where}: ${e.message}`);
  });
  const holder = await tryLock(client);
  if (holder) {
    const c = client;
    client = null;
    c.removeAllListeners('end');
    await c.end().catch(() => {});
    throw new StartupError(
      `another Verdant server already runs the order books on ${where} (PostgreSQL backend ${holder.pid}, ${holder.from}, since ${holder.started}); ` +
        'two servers on one database would fill orders twice, so this one does not start. Stop the other one first',
    );
  }
  held = true;
  schedule(check, opts.checkMs);

  return {
    get held() {
      return held;
    },
    async release() {
      stopped = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      held = false;
      if (c) {
        c.removeAllListeners('end');
        // ending the session releases the lock
        await c.end().catch(() => {});
      }
    },
  };
}
