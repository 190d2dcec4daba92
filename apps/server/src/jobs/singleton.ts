import type { Client } from 'pg';
import { describeUrl } from '../db/client.ts';

/**
 * Singleton jobs: work that must run on exactly one process of a cluster (the index feed, the
 * market maker, each market's order book, settlement and trigger timers). Every such job goes
 * through `runSingleton`:
 *
 * ```ts
 * // in app.ts (or a service given app.jobs), once the server listens:
 * app.jobs.runSingleton('options-settlement', async () => {
 *   const timer = setInterval(() => void settleDue().catch(log.error), 1000);
 *   return async () => clearInterval(timer); // called when this process stops running it
 * });
 * ```
 *
 * `start` runs when this process becomes the job's owner and answers how to stop it; the stop
 * function is called when ownership is lost (the process stops, or its database connection
 * does) and must not return before the job has stopped writing. A job may start again later
 * on the same process, so `start` must build its state afresh each time (read where the last
 * owner left off from the database). A job that needs a strict guarantee that two owners never
 * write at once (an order book) adds fencing of its own: ownership moves when a connection is
 * lost, and the old owner learns it only at its next check.
 *
 * One process (PGlite, or PostgreSQL without REDIS_URL): `localJobs`, every job starts at once.
 * A cluster: `clusterJobs`, a session-level PostgreSQL advisory lock per job, all held by one
 * dedicated connection (`application_name` `verdant-jobs <node>`). A process that dies loses
 * its connection and with it every lock; the others try the free jobs every `pollMs` and one
 * takes each. A process cut off by the network stops its jobs when its connection check fails
 * (two periods) and PostgreSQL ends that session after three, so the jobs move on.
 */
export type StopJob = () => void | Promise<void>;
export type StartJob = () => StopJob | Promise<StopJob>;

export interface Jobs {
  /** Runs `start` on one process of the cluster at a time, for as long as this process lives. */
  runSingleton(name: string, start: StartJob): void;
  /** Whether this process runs the job now. */
  runs(name: string): boolean;
  /** Every job this process was given, and the process that runs each (null: nobody now). */
  owners(): Promise<{ name: string; node: string | null }[]>;
  /** Stops every job this process runs (their stop functions), then lets the others take them. */
  close(): Promise<void>;
}

interface Job {
  name: string;
  start: StartJob;
  stop: StopJob | null;
  /** Set while start or stop is running. */
  busy: Promise<void> | null;
}

type Log = { info(msg: string): void; warn(msg: string): void; error(o: unknown, msg?: string): void };

async function startJob(job: Job, log: Log, onFail: () => void): Promise<void> {
  try {
    job.stop = await job.start();
  } catch (err) {
    log.error({ err, job: job.name }, `singleton job ${job.name} failed to start`);
    onFail();
  }
}

async function stopJob(job: Job, log: Log): Promise<void> {
  const stop = job.stop;
  job.stop = null;
  try {
    await stop?.();
  } catch (err) {
    log.error({ err, job: job.name }, `singleton job ${job.name} failed to stop`);
  }
}

/** One process: every job runs here from the moment it is given. */
export function localJobs(nodeId: string, log: Log): Jobs {
  const jobs = new Map<string, Job>();
  let closed = false;
  return {
    runSingleton(name, start) {
      if (closed || jobs.has(name)) return;
      const job: Job = { name, start, stop: null, busy: null };
      jobs.set(name, job);
      job.busy = startJob(job, log, () => {}).finally(() => {
        job.busy = null;
      });
    },
    runs: (name) => !closed && jobs.has(name),
    async owners() {
      return [...jobs.keys()].map((name) => ({ name, node: closed ? null : nodeId }));
    },
    async close() {
      closed = true;
      await Promise.all(
        [...jobs.values()].map(async (j) => {
          await j.busy;
          await stopJob(j, log);
        }),
      );
    },
  };
}

export interface ClusterJobsOptions {
  url: string;
  schema: string | undefined;
  /** This process's name (bus.nodeId): the owners' list names it. */
  nodeId: string;
  connectTimeoutMs: number;
  /** How often free jobs are tried. */
  pollMs: number;
  /** How often the connection is checked (two missed checks: the jobs stop). */
  checkMs: number;
  log: Log;
}

/** Lock keys: one for "jobs of this schema", one for the job's name. */
const KEYS = "hashtext('verdant.job.' || coalesce(current_schema(), '')), hashtext(n)";

/** A cluster: each job runs on the process holding its advisory lock. */
export async function clusterJobs(opts: ClusterJobsOptions): Promise<Jobs> {
  const pgMod = await import('pg');
  const { log } = opts;
  const where = describeUrl(opts.url);
  const appName = `verdant-jobs ${opts.nodeId}`.slice(0, 63);
  const jobs = new Map<string, Job>();
  let client: Client | null = null;
  /** Our last session, to end it if PostgreSQL still keeps it when we come back. */
  let session: { pid: number; started: string } | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  let retryMs = 250;
  let lastCheck = 0;
  let round: Promise<void> | null = null;

  const open = (name: string) =>
    new pgMod.default.Client({
      connectionString: opts.url,
      connectionTimeoutMillis: opts.connectTimeoutMs || undefined,
      query_timeout: 2 * opts.checkMs,
      keepAlive: true,
      application_name: name,
      ...(opts.schema ? { options: `-c search_path=${opts.schema}` } : {}),
    });

  const connect = async (): Promise<Client> => {
    const c = open(appName);
    c.on('error', () => void lost(c, 'the connection failed'));
    c.on('end', () => void lost(c, 'the connection ended'));
    await c.connect();
    // PostgreSQL ends the session after three missed checks (14+), freeing its jobs
    await c.query(`SET idle_session_timeout = ${Math.max(3 * opts.checkMs, 3_000)}`).catch(() => {});
    const [r] = (
      await c.query(
        'SELECT pg_backend_pid() AS pid, (SELECT backend_start::text FROM pg_stat_activity WHERE pid = pg_backend_pid()) AS started',
      )
    ).rows as { pid: number; started: string }[];
    if (session && (session.pid !== r!.pid || session.started !== r!.started))
      // our earlier session, cut off but perhaps not yet ended by the server: end it, or its
      // locks would keep our own jobs from us (and from everyone) until its timeout
      await c
        .query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = $1 AND backend_start::text = $2`,
          [session.pid, session.started],
        )
        .catch(() => {});
    session = { pid: r!.pid, started: r!.started };
    return c;
  };

  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    if (!closed) timer = setTimeout(tick, ms);
  };

  /** Every held job stops: its lock went with the connection. */
  async function lost(c: Client, why: string): Promise<void> {
    if (c !== client) return;
    client = null;
    c.removeAllListeners('end');
    c.on('error', () => {});
    void c.end().catch(() => {});
    const held = [...jobs.values()].filter((j) => j.stop || j.busy);
    if (held.length > 0 && !closed)
      log.error(
        `the singleton jobs' connection to ${where} was lost (${why}): stopping ${held.map((j) => j.name).join(', ')} until it is back`,
      );
    await Promise.all(
      held.map(async (j) => {
        await j.busy;
        await stopJob(j, log);
      }),
    );
    retryMs = 250;
    schedule(0);
  }

  /** One round: connect if needed, check the connection, try the free jobs. */
  async function tick(): Promise<void> {
    if (closed || round) return;
    round = (async () => {
      try {
        if (!client) client = await connect();
        const c = client;
        const now = Date.now();
        if (now - lastCheck >= opts.checkMs) {
          await c.query('SELECT 1');
          lastCheck = now;
        }
        const free = [...jobs.values()].filter((j) => !j.stop && !j.busy);
        if (free.length > 0) {
          const rows = (
            await c.query(`SELECT n, pg_try_advisory_lock(${KEYS}) AS ok FROM unnest($1::text[]) AS n`, [
              free.map((j) => j.name),
            ])
          ).rows as { n: string; ok: boolean }[];
          for (const r of rows) {
            if (!r.ok || c !== client) continue;
            const job = jobs.get(r.n)!;
            log.info(`singleton job ${job.name}: runs on this process (${opts.nodeId})`);
            job.busy = startJob(job, log, () => {
              // a job that cannot start leaves it to another process: unlock
              void c
                .query(`SELECT pg_advisory_unlock(${KEYS}) FROM (SELECT $1::text AS n) x`, [job.name])
                .catch(() => {});
            }).finally(() => {
              job.busy = null;
            });
          }
        }
        retryMs = 250;
        schedule(Math.min(opts.pollMs, opts.checkMs));
      } catch (e) {
        const c = client;
        if (c) await lost(c, (e as Error).message);
        else {
          retryMs = Math.min(retryMs * 2, 5_000);
          schedule(retryMs);
        }
      }
    })().finally(() => {
      round = null;
    });
    await round;
  }

  client = await connect();
  schedule(0);

  return {
    runSingleton(name, start) {
      if (closed || jobs.has(name)) return;
      jobs.set(name, { name, start, stop: null, busy: null });
      schedule(0);
    },
    runs: (name) => !!client && !!jobs.get(name)?.stop,
    async owners() {
      const names = [...jobs.keys()];
      if (names.length === 0) return [];
      const c = open('verdant-jobs-list');
      c.on('error', () => {});
      await c.connect();
      try {
        // the holder of each job's lock, by its connection's application_name
        const rows = (
          await c.query(
            `SELECT n, (SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
                         WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
                           AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
                           AND l.classid::bigint = (hashtext('verdant.job.' || coalesce(current_schema(), ''))::bigint & 4294967295)
                           AND l.objid::bigint = (hashtext(n)::bigint & 4294967295)
                         LIMIT 1) AS app
               FROM unnest($1::text[]) AS n`,
            [names],
          )
        ).rows as { n: string; app: string | null }[];
        return rows.map((r) => ({
          name: r.n,
          node: r.app?.startsWith('verdant-jobs ') ? r.app.slice('verdant-jobs '.length) : null,
        }));
      } finally {
        await c.end().catch(() => {});
      }
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await round?.catch(() => {});
      await Promise.all(
        [...jobs.values()].map(async (j) => {
          await j.busy;
          await stopJob(j, log);
        }),
      );
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners('end');
        // ending the session releases every lock: the others take the jobs at their next poll
        await c.end().catch(() => {});
      }
    },
  };
}
