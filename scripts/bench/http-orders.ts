/**
 * HTTP order placement through the whole path: a real server in a child process (`tsx
 * apps/server/src/main.ts`), loopback HTTP with keep-alive connections, session lookup,
 * validation, funds frozen, the engine, committed in batches. Limit orders around one price,
 * so some cross and trade. Run on a fresh PGlite folder, and on PostgreSQL in a fresh schema,
 * with one process or several (a cluster with REDIS_URL: the connections spread over them, and
 * every process but the book's owner hands its orders to the owner).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { freePort, seedTraders, startServer } from '../../apps/server/src/modules/spot/load.ts';
import { stopServers } from './shared.ts';

export interface HttpOrdersResult {
  db: 'pglite' | 'postgres';
  orders: number;
  errors: number;
  seconds: number;
  ordersPerS: number;
  p50Ms: number;
  p99Ms: number;
  connections: number;
  trades: number;
  processes: number;
}

export interface HttpOrdersOptions {
  db: 'pglite' | 'postgres';
  /** postgres://… for the PostgreSQL run. */
  url?: string;
  connections?: number;
  seconds?: number;
  users?: number;
  /** Extra node flags for the server process (--cpu-prof …). */
  nodeArgs?: string[];
  /**
   * Server processes on the one database (PostgreSQL only, with REDIS_URL: a cluster); the
   * connections are spread over them evenly. Default 1.
   */
  processes?: number;
  /** redis://… for several processes. */
  redisUrl?: string;
}

/**
 * A lean keep-alive HTTP/1.1 client, one socket per connection, one request in flight on each
 * (no pipelining): the load generator shares this machine's two cores with the server and the
 * database, so it builds each request as one buffer and reads only the status and the length.
 */
class Connection {
  private socket: net.Socket;
  private buf: Buffer = Buffer.alloc(0);
  private waiting: ((r: { status: number; body: string }) => void) | null = null;
  private failed: ((e: Error) => void) | null = null;

  constructor(port: number) {
    this.socket = net.connect({ host: '127.0.0.1', port, noDelay: true });
    this.socket.on('data', (d) => this.onData(d));
    this.socket.on('error', (e) => this.failed?.(e));
  }

  request(raw: Buffer): Promise<{ status: number; body: string }> {
    return new Promise((resolvePromise, reject) => {
      this.waiting = resolvePromise;
      this.failed = reject;
      this.socket.write(raw);
    });
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    const end = this.buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const head = this.buf.subarray(0, end).toString('latin1');
    const m = /content-length: *(\d+)/i.exec(head);
    const length = m ? Number(m[1]) : 0;
    if (this.buf.length < end + 4 + length) return;
    const body = this.buf.subarray(end + 4, end + 4 + length).toString('utf8');
    this.buf = this.buf.subarray(end + 4 + length);
    const status = Number(head.slice(9, 12));
    const done = this.waiting;
    this.waiting = null;
    done?.({ status, body });
  }

  close(): void {
    this.socket.destroy();
  }
}

function orderRequest(port: number, token: string, body: Record<string, string>): Buffer {
  const payload = new URLSearchParams(body).toString();
  return Buffer.from(
    `POST /api/coin/trade HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n` +
      `Authorization: ${token}\r\nlang: en\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      `Content-Length: ${Buffer.byteLength(payload)}\r\n\r\n${payload}`,
  );
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

export async function httpOrdersBench(opts: HttpOrdersOptions): Promise<HttpOrdersResult> {
  const connections = opts.connections ?? 100;
  const seconds = opts.seconds ?? 10;
  const users = opts.users ?? 200;
  const processes = opts.processes ?? 1;
  if (processes > 1 && opts.db !== 'postgres') throw new Error('several processes need PostgreSQL');
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-bench-'));
  const schema = opts.db === 'postgres' ? `bench_${Date.now().toString(36)}` : undefined;
  const dbOpts = opts.db === 'postgres' ? { url: opts.url, schema } : { dataDir };
  // Seed before the server starts: PGlite's folder has one process at a time.
  const db = await openDb(dbOpts);
  await migrate(db);
  const traders = await db.tx((q) => seedTraders(q, users, { usdt: '100000000', btc: '10000' }));
  // Most of the stream rests (a few hundred orders per trader in a run), far past the usual
  // open-order limit: raised, so the limit is still checked on every order but never refuses.
  await db.query("UPDATE markets SET max_open_orders = 1000000 WHERE symbol = 'btcusdt'");
  await db.close();

  const env: NodeJS.ProcessEnv =
    opts.db === 'postgres'
      ? {
          DATABASE_URL: opts.url,
          DATABASE_SCHEMA: schema,
          DATA_DIR: dataDir,
          ...(processes > 1 ? { REDIS_URL: opts.redisUrl ?? 'redis://127.0.0.1:6379' } : {}),
        }
      : { DATABASE_URL: '', DATA_DIR: dataDir };
  // One after the other: the first one takes the markets' books, the others hand orders to it.
  const ports: number[] = [];
  const servers: ChildProcess[] = [];
  for (let i = 0; i < processes; i++) {
    const port = await freePort();
    ports.push(port);
    servers.push(await startServer(env, port, opts.nodeArgs));
  }
  const portOf = (c: number) => ports[c % processes]!;
  const sockets = Array.from({ length: connections }, (_, c) => new Connection(portOf(c)));
  const latencies: number[] = [];
  let errors = 0;
  let n = 0;
  let firstError = '';
  try {
    const run = async (until: number, record: boolean) => {
      await Promise.all(
        Array.from({ length: connections }, async (_, c) => {
          while (performance.now() < until) {
            const k = n++;
            const t = traders[(k * 7 + c) % traders.length]!;
            const side = k % 2 === 0 ? 'buy' : 'sell';
            // prices straddle 50000 so about one order in five crosses and trades
            const offset = ((k * 37) % 50) - (side === 'buy' ? 40 : 10);
            const price = (50000 + offset).toFixed(2);
            const t0 = performance.now();
            const res = await sockets[c]!.request(
              orderRequest(portOf(c), t.token, {
                symbol: 'btcusdt',
                side,
                type: 'limit',
                price,
                qty: '0.001',
              }),
            );
            const ms = performance.now() - t0;
            if (res.status !== 200) {
              errors++;
              firstError ||= res.body;
            } else if (record) latencies.push(ms);
          }
        }),
      );
    };
    await run(performance.now() + 1500, false); // warm-up: JIT, pools, first pages
    const started = performance.now();
    await run(started + seconds * 1000, true);
    const elapsed = (performance.now() - started) / 1000;
    if (firstError) console.error(`  (first error: ${firstError.slice(0, 200)})`);
    latencies.sort((a, b) => a - b);
    const check = await openDbAfter(servers, dbOpts);
    return {
      db: opts.db,
      orders: latencies.length,
      errors,
      seconds: elapsed,
      ordersPerS: latencies.length / elapsed,
      p50Ms: pct(latencies, 0.5),
      p99Ms: pct(latencies, 0.99),
      connections,
      trades: check,
      processes,
    };
  } finally {
    for (const s of sockets) s.close();
    for (const server of servers) if (server.exitCode === null) server.kill('SIGKILL');
    if (schema) {
      const d = await openDb({ url: opts.url });
      await d.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await d.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Stops the servers and counts the trades the run made. */
async function openDbAfter(servers: ChildProcess[], dbOpts: Parameters<typeof openDb>[0]): Promise<number> {
  await stopServers(servers);
  const db = await openDb(dbOpts);
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM trades');
  await db.close();
  return row?.n ?? 0;
}
