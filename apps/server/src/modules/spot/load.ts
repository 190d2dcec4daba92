import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { join, resolve } from 'node:path';
import type { Queryable } from '../../db/client.ts';
import { newToken } from '../../http/auth.ts';
import { type Posting, postMany } from '../../ledger/ledger.ts';

/**
 * Funded traders with live sessions, written straight to the database: for load tests and the
 * benchmark, which need hundreds of users without going through registration codes. Each gets
 * `usdt` and `btc` on its spot account from the house 'deposits' account, through the ledger.
 */
export async function seedTraders(
  q: Queryable,
  n: number,
  funds: { usdt: string; btc: string },
): Promise<{ id: number; token: string }[]> {
  const tag = randomBytes(4).toString('hex');
  const emails = Array.from({ length: n }, (_, i) => `load${i}.${tag}@example.com`);
  const rows = await q.query<{ id: number }>(
    `INSERT INTO users (nickname, account_type, email, password_hash, invite_code)
     SELECT 'load', 'email', e, '!', upper(substr(md5(e), 1, 10)) FROM unnest($1::text[]) WITH ORDINALITY AS x(e, n)
     ORDER BY n RETURNING id`,
    [emails],
  );
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  const sessions = ids.map(() => newToken());
  await q.query('INSERT INTO sessions (token_hash, user_id) SELECT * FROM unnest($1::text[], $2::int[])', [
    sessions.map((s) => s.hash),
    ids,
  ]);
  const postings: Posting[] = [];
  for (const id of ids)
    for (const [currencyId, amount] of [
      [3, funds.usdt],
      [1, funds.btc],
    ] as const)
      postings.push({
        reason: 'deposit',
        legs: [
          { account: { userId: id, type: 'spot', currencyId }, available: amount },
          { account: { house: 'deposits', currencyId }, available: `-${amount}` },
        ],
      });
  await postMany(q, postings);
  return ids.map((id, i) => ({ id, token: sessions[i]!.token }));
}

const ROOT = resolve(import.meta.dirname, '../../../../..');

/**
 * A port free right now, chosen by the OS. (A random pick in 20000–40000 overlapped the
 * ephemeral range that a previous run's 1,000 client sockets use, and a server once failed to
 * listen in the bench.)
 */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolvePort(port));
    });
  });
}

/** Starts the server and resolves once it answers; the caller kills it. */
export async function startServer(
  env: NodeJS.ProcessEnv,
  port: number,
  /** Extra node flags, e.g. --cpu-prof to profile the server under load. */
  nodeArgs: string[] = [],
  /** How long a start may take: on a machine shared with other test runs, more than a minute. */
  waitMs = 60_000,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, '--import', 'tsx', join(ROOT, 'apps/server/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        FEED_INTERVAL_MS: '0',
        BACKFILL_DAYS: '0',
        MARKET_MAKER: '0',
        ...env,
      },
      stdio: ['ignore', 'ignore', process.env.BENCH_STDERR ? 'inherit' : 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d) => {
    stderr += d;
  });
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/api/wallet/currencies`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${stderr}`);
}

export function postForm(
  agent: http.Agent,
  port: number,
  path: string,
  token: string,
  body: Record<string, string>,
  method = 'POST',
): Promise<{ status: number; body: string }> {
  const payload = new URLSearchParams(body).toString();
  return new Promise((resolvePromise, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/${path}`,
        method,
        agent,
        headers: {
          authorization: token,
          lang: 'en',
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let data = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          data += c;
        });
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, body: data }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
