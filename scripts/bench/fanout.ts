/**
 * Socket fan-out: messages per second that the real server (`apps/server/src/main.ts` in a child
 * process, fresh PGlite folder) delivers to 1,000 Socket.IO clients, each subscribed to what the
 * chart page shows: `ticker:btcusdt`, `depth:btcusdt`, `trades:btcusdt`, `kline:btcusdt:1min` and
 * `tickers`. The index feed ticks every 100 ms, the market maker quotes, and a light order load
 * over HTTP (limit orders that cross its quotes) makes trades and moves the book, so every stream
 * flows. The clients run in child processes of this one (socket.io-client, websocket
 * transport), every message counted over a fixed window after a warm-up.
 *
 * Beside it, the peer: the same clients on a bare Socket.IO server (another child process)
 * broadcasting the payloads Verdant sent, at the rates Verdant reached per stream: the ceiling of
 * the transport and of these clients on this machine.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { freePort, postForm, seedTraders, startServer } from '../../apps/server/src/modules/spot/load.ts';
import type { ClientsData, ClientsReport } from './fanout-clients.ts';
import type { PeerStream } from './fanout-peer.ts';
import { stopServers } from './shared.ts';

const SYMBOL = 'btcusdt';
/** Stream → the event its messages come as. */
const STREAMS: Record<string, string> = {
  tickers: 'tickers',
  [`ticker:${SYMBOL}`]: 'ticker',
  [`depth:${SYMBOL}`]: 'depth',
  [`trades:${SYMBOL}`]: 'trades',
  [`kline:${SYMBOL}:1min`]: 'kline',
};
const EVENTS = Object.values(STREAMS);

export interface FanoutRun {
  clients: number;
  seconds: number;
  deliveries: number;
  deliveriesPerS: number;
  /** Deliveries per second, per event. */
  perStream: Record<string, number>;
  /** Bytes of one payload of each event (JSON). */
  payloadBytes: Record<string, number>;
  /** Trade time (server) → delivery, ms; null without trades. */
  lagP50Ms: number | null;
  lagP99Ms: number | null;
  lagSamples: number;
}

export interface FanoutResult {
  publishMs: number;
  feedMs: number;
  ordersPerS: number;
  workers: number;
  verdant: FanoutRun;
  peer: FanoutRun;
  /** Verdant ÷ peer. */
  ratio: number;
  trades: number;
}

export interface FanoutOptions {
  clients?: number;
  /** Client processes the clients are spread over. */
  workers?: number;
  seconds?: number;
  warmupSeconds?: number;
  /** MARKET_PUBLISH_MS of the server (its default is 300). */
  publishMs?: number;
  feedMs?: number;
  /** Orders per second of the light HTTP load. */
  ordersPerS?: number;
  /** Extra node flags for the server process (--cpu-prof …). */
  nodeArgs?: string[];
}

/** The run's settings, the unset ones at their defaults. */
function withDefaults(opts: FanoutOptions) {
  return {
    clients: opts.clients ?? 1000,
    workers: opts.workers ?? 2,
    seconds: opts.seconds ?? 10,
    warmup: opts.warmupSeconds ?? 3,
    publishMs: opts.publishMs ?? 300,
    feedMs: opts.feedMs ?? 100,
    ordersPerS: opts.ordersPerS ?? 20,
  };
}

export interface FanoutClusterOptions extends FanoutOptions {
  /** Server processes on one PostgreSQL schema with REDIS_URL (a cluster); clients spread over them. */
  processes: number;
  /** postgres://… */
  url: string;
  /** redis://… (default the local one) */
  redisUrl?: string;
}

const pct = (sorted: number[], p: number) =>
  sorted.length === 0 ? null : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

/** Clients spread over child processes; `measure` counts over a window. */
class ClientPool {
  private constructor(
    private readonly workers: ChildProcess[],
    readonly connected: number,
  ) {}

  /** `ports`: the client processes take them in turn (one port per worker, round robin). */
  static async open(ports: number | number[], clients: number, workers: number): Promise<ClientPool> {
    const list: ChildProcess[] = [];
    const ready: Promise<number>[] = [];
    const portList = Array.isArray(ports) ? ports : [ports];
    for (let w = 0; w < workers; w++) {
      const share = Math.floor(clients / workers) + (w < clients % workers ? 1 : 0);
      const port = portList[w % portList.length]!;
      const data: ClientsData = { port, clients: share, streams: Object.keys(STREAMS), events: EVENTS };
      const worker = fork(new URL('./fanout-clients.ts', import.meta.url), {
        env: { ...process.env, FANOUT_CLIENTS: JSON.stringify(data) },
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      list.push(worker);
      ready.push(
        new Promise((resolve, reject) => {
          worker.once('error', reject);
          worker.once('exit', (c) => reject(new Error(`client process exited (${c})`)));
          worker.once('message', (m: { type: string; connected: number; rejected: number }) => {
            if (m.rejected > 0) reject(new Error(`${m.rejected} subscriptions rejected`));
            else resolve(m.connected);
          });
        }),
      );
    }
    try {
      const connected = (await Promise.all(ready)).reduce((a, b) => a + b, 0);
      return new ClientPool(list, connected);
    } catch (e) {
      for (const w of list) w.kill('SIGKILL');
      throw e;
    }
  }

  async measure(seconds: number): Promise<FanoutRun> {
    for (const w of this.workers) w.send({ type: 'start' });
    const started = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const reports = await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<{ report: ClientsReport; connected: number }>((resolve) => {
            w.once('message', resolve);
            w.send({ type: 'stop' });
          }),
      ),
    );
    const elapsed = (performance.now() - started) / 1000;
    const counts: Record<string, number> = Object.fromEntries(EVENTS.map((e) => [e, 0]));
    const lags: number[] = [];
    for (const { report } of reports) {
      for (const e of EVENTS) counts[e]! += report.counts[e] ?? 0;
      for (const l of report.lags) lags.push(l);
    }
    lags.sort((a, b) => a - b);
    const deliveries = Object.values(counts).reduce((a, b) => a + b, 0);
    this.samples = reports[0]!.report.samples;
    return {
      clients: reports.reduce((a, r) => a + r.connected, 0),
      seconds: elapsed,
      deliveries,
      deliveriesPerS: deliveries / elapsed,
      perStream: Object.fromEntries(EVENTS.map((e) => [e, counts[e]! / elapsed])),
      payloadBytes: reports[0]!.report.bytes,
      lagP50Ms: pct(lags, 0.5),
      lagP99Ms: pct(lags, 0.99),
      lagSamples: lags.length,
    };
  }

  samples: Record<string, unknown> = {};

  async close(): Promise<void> {
    await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.exitCode !== null) return resolve();
            const t = setTimeout(() => {
              w.kill('SIGKILL');
              resolve();
            }, 5000);
            w.once('exit', () => {
              clearTimeout(t);
              resolve();
            });
            w.send({ type: 'close' });
          }),
      ),
    );
  }
}

async function btcQuote(port: number): Promise<{ price: number; tick: number } | null> {
  const res = await fetch(`http://127.0.0.1:${port}/api/currency/quotation_new`, { headers: { lang: 'en' } });
  const body = (await res.json()) as {
    data?: { symbol: string; index_price: string | null; tick_size: string }[];
  };
  const t = body.data?.find((x) => x.symbol === SYMBOL);
  return t?.index_price ? { price: Number(t.index_price), tick: Number(t.tick_size) } : null;
}

export async function fanoutBench(opts: FanoutOptions = {}): Promise<FanoutResult> {
  const { clients, workers, seconds, warmup, publishMs, feedMs, ordersPerS } = withDefaults(opts);

  const { verdant, samples, trades } = await runVerdant(opts, null);

  // ---- the bare Socket.IO peer, same payloads at the same rates -------------------------------
  const peerStreams: PeerStream[] = Object.entries(STREAMS).map(([room, event]) => ({
    room,
    event,
    payload: samples[event] ?? {},
    rate: (verdant.perStream[event] ?? 0) / Math.max(1, verdant.clients),
  }));
  const peerPort = await freePort();
  const peerProc: ChildProcess = fork(new URL('./fanout-peer.ts', import.meta.url), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  let peer: FanoutRun;
  try {
    await new Promise<void>((resolve, reject) => {
      peerProc.once('error', reject);
      peerProc.once('exit', (c) => reject(new Error(`peer exited (${c})`)));
      peerProc.once('message', () => resolve());
      peerProc.send({ port: peerPort, tickMs: publishMs, streams: peerStreams });
    });
    const pool = await ClientPool.open(peerPort, clients, workers);
    try {
      await new Promise((r) => setTimeout(r, warmup * 1000));
      peer = await pool.measure(seconds);
    } finally {
      await pool.close();
    }
  } finally {
    peerProc.removeAllListeners('exit');
    peerProc.kill('SIGKILL');
  }

  return {
    publishMs,
    feedMs,
    ordersPerS,
    workers,
    verdant,
    peer,
    ratio: verdant.deliveriesPerS / peer.deliveriesPerS,
    trades,
  };
}

/**
 * Verdant's part: one server on a fresh PGlite folder, or `cluster.processes` servers on a fresh
 * PostgreSQL schema with REDIS_URL, the clients spread over them (the orders go to the first).
 */
async function runVerdant(
  opts: FanoutOptions,
  cluster: FanoutClusterOptions | null,
): Promise<{ verdant: FanoutRun; samples: Record<string, unknown>; trades: number }> {
  const { clients, workers, seconds, warmup, publishMs, feedMs, ordersPerS } = withDefaults(opts);
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-fanout-'));
  const schema = cluster ? `fanout_${Date.now().toString(36)}` : undefined;
  const dbOpts = cluster ? { url: cluster.url, schema } : { dataDir };
  let verdant!: FanoutRun;
  let samples!: Record<string, unknown>;
  const db = await openDb(dbOpts);
  await migrate(db);
  const traders = await db.tx((q) => seedTraders(q, 20, { usdt: '100000000', btc: '10000' }));
  await db.close();
  const env: NodeJS.ProcessEnv = {
    ...(cluster
      ? {
          DATABASE_URL: cluster.url,
          DATABASE_SCHEMA: schema,
          REDIS_URL: cluster.redisUrl ?? 'redis://127.0.0.1:6379',
        }
      : { DATABASE_URL: '' }),
    DATA_DIR: dataDir,
    FEED_INTERVAL_MS: String(feedMs),
    MARKET_PUBLISH_MS: String(publishMs),
    MARKET_MAKER: '1',
    MM_REFRESH_MS: '500',
  };
  const ports: number[] = [];
  const servers: ChildProcess[] = [];
  try {
    for (let i = 0; i < (cluster?.processes ?? 1); i++) {
      const p = await freePort();
      ports.push(p);
      servers.push(await startServer(env, p, opts.nodeArgs));
    }
  } catch (e) {
    for (const s of servers) s.kill('SIGKILL');
    throw e;
  }
  const port = ports[0]!;
  let pool: ClientPool | null = null;
  let loading = true;
  let load: Promise<void> = Promise.resolve();
  try {
    let quote = await btcQuote(port);
    for (let i = 0; !quote && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 200));
      quote = await btcQuote(port);
    }
    if (!quote) throw new Error('no index price for btcusdt');
    const q = quote;
    // the light order load: limit orders 0.3 % through the index, so they take the market
    // maker's quotes (trades) and, when they outlast them, rest in the book (depth moves)
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    load = (async () => {
      let k = 0;
      const gap = 1000 / ordersPerS;
      let next = performance.now();
      while (loading) {
        const t = traders[k % traders.length]!;
        const side = k % 2 === 0 ? 'buy' : 'sell';
        const p = q.price * (side === 'buy' ? 1.003 : 0.997);
        const price = (Math.round(p / q.tick) * q.tick).toFixed(2);
        k++;
        void postForm(agent, port, 'coin/trade', t.token, {
          symbol: SYMBOL,
          side,
          type: 'limit',
          price,
          qty: '0.001',
        }).catch(() => {});
        next += gap;
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      }
      agent.destroy();
    })();
    pool = await ClientPool.open(ports, clients, workers);
    await new Promise((r) => setTimeout(r, warmup * 1000));
    verdant = await pool.measure(seconds);
    samples = pool.samples;
  } finally {
    loading = false;
    await load;
    await pool?.close();
    await stopServers(servers);
  }
  const check = await openDb(dbOpts);
  const [row] = await check.query<{ n: number }>('SELECT count(*)::int AS n FROM trades');
  if (schema) await check.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await check.close();
  rmSync(dataDir, { recursive: true, force: true });
  return { verdant, samples, trades: row?.n ?? 0 };
}

/** Verdant alone, with its clients spread over several processes of a cluster (no peer run). */
export async function fanoutClusterBench(
  opts: FanoutClusterOptions,
): Promise<{ verdant: FanoutRun; trades: number }> {
  const { verdant, trades } = await runVerdant(opts, opts);
  return { verdant, trades };
}
