import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from './db/client.ts';
import { freePort, startServer as startLoadServer } from './modules/spot/load.ts';
import { migratedDataDir } from './test/harness.ts';
import { startTcpProxy } from './test/tcp-proxy.ts';

/**
 * The server as an operator runs it: real processes (`main.ts`), started and stopped with
 * signals. On PostgreSQL when DATABASE_URL is set (a schema of their own), on PGlite otherwise.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const url = process.env.DATABASE_URL;
const dirs: string[] = [];
const schemas: string[] = [];

/** A database of its own; `migrated` starts a PGlite folder from the run's migrated snapshot. */
async function place(migrated = false): Promise<NodeJS.ProcessEnv> {
  const dataDir = migrated
    ? await migratedDataDir('verdant-main-')
    : mkdtempSync(join(tmpdir(), 'verdant-main-'));
  dirs.push(dataDir);
  if (!url) return { DATABASE_URL: '', DATA_DIR: dataDir };
  const schema = `main_${randomBytes(5).toString('hex')}`;
  schemas.push(schema);
  return { DATABASE_URL: url, DATABASE_SCHEMA: schema, DATA_DIR: dataDir };
}

afterAll(async () => {
  if (url && schemas.length) {
    const db = await openDb({ url });
    for (const s of schemas) await db.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
    await db.close();
  }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs main.ts to its end (a process that must refuse to start): exit code, and what it wrote (log and stderr). */
function runToExit(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((res) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps/server/src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        FEED_INTERVAL_MS: '0',
        BACKFILL_DAYS: '0',
        MARKET_MAKER: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const add = (d: Buffer) => {
      output += d;
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    child.on('close', (code) => res({ code, output }));
  });
}

/** Starts main.ts and resolves once it answers, with a long wait for a machine shared with other runs. */
const startServer = (env: NodeJS.ProcessEnv, port: number) => startLoadServer(env, port, [], 300_000);

const exited = (child: ChildProcess) =>
  new Promise<number | null>((res) => {
    if (child.exitCode !== null) res(child.exitCode);
    else child.once('exit', (code) => res(code));
  });

/** One raw HTTP/1.1 connection, to send a request in pieces and read what comes back. */
function rawConnection(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  let received = Buffer.alloc(0);
  socket.on('data', (d) => {
    received = Buffer.concat([received, d]);
  });
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.on('error', () => {});
  return { socket, closed, received: () => received };
}

const LOGIN_BODY = 'account=nobody%40example.com&password=wrongpass1';
const loginHead = (lang: string) =>
  'POST /api/user/login HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
  `lang: ${lang}\r\nContent-Length: ${LOGIN_BODY.length}\r\n\r\n`;

/** The HTTP responses in a raw stream: status, headers and JSON body (Content-Length in bytes). */
function responses(
  raw: Buffer,
): { status: number; headers: string; body: { code: number; message: string } }[] {
  const out = [];
  let rest = raw;
  while (rest.subarray(0, 8).toString() === 'HTTP/1.1') {
    const headEnd = rest.indexOf('\r\n\r\n');
    const headers = rest.subarray(0, headEnd).toString();
    const length = Number(/content-length: (\d+)/i.exec(headers)?.[1]);
    const body = rest.subarray(headEnd + 4, headEnd + 4 + length).toString();
    out.push({ status: Number(headers.split(' ')[1]), headers, body: JSON.parse(body) });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return out;
}

describe('stopping on SIGTERM', { timeout: 600_000 }, () => {
  it('closes idle connections at once, finishes requests in flight, answers late ones with a localized 503, and exits', async () => {
    const port = await freePort();
    const server = await startServer({ ...(await place(true)), SHUTDOWN_GRACE_MS: '60000' }, port);
    try {
      // five keep-alive connections, idle once their request is answered
      const agent = new http.Agent({ keepAlive: true, maxSockets: 5 });
      const get = () =>
        new Promise<number>((res, rej) =>
          http
            .get({ host: '127.0.0.1', port, path: '/api/wallet/currencies', agent }, (r) => {
              r.resume();
              r.on('end', () => res(r.statusCode ?? 0));
            })
            .on('error', rej),
        );
      expect(await Promise.all([get(), get(), get(), get(), get()])).toEqual([200, 200, 200, 200, 200]);
      const idle = Object.values(agent.freeSockets).flat();
      expect(idle).toHaveLength(5);
      const idleClosed = Promise.all(idle.map((s) => new Promise((r) => s!.once('close', r))));

      // a request in flight: its headers are in, half of its body is not
      const inflight = rawConnection(port);
      inflight.socket.write(loginHead('es') + LOGIN_BODY.slice(0, 10));
      await new Promise((r) => setTimeout(r, 300));

      const exit = exited(server);
      server.kill('SIGTERM');
      // the idle connections are closed by the server (before: kept for the 72 s keep-alive)
      await idleClosed;
      // the rest of the body, and a second request right behind it on the same connection
      inflight.socket.write(
        `${LOGIN_BODY.slice(10)}GET /api/wallet/currencies HTTP/1.1\r\nHost: test\r\nlang: es\r\n\r\n`,
      );
      await inflight.closed;
      const [first, late] = responses(inflight.received());
      // the request in flight got its real answer (wrong account or password)
      expect(first).toMatchObject({
        status: 400,
        body: { code: 2103, message: 'Cuenta o contraseña incorrecta' },
      });
      // the late one: a 503 in the envelope, in its language, and the connection closes
      expect(late).toMatchObject({
        status: 503,
        body: {
          type: 'error',
          code: 1503,
          message: 'El servidor se está reiniciando. Vuelve a intentarlo en unos instantes',
        },
      });
      expect(late!.headers).toMatch(/connection: close/i);
      expect(await exit).toBe(0);
      agent.destroy();
    } finally {
      server.kill('SIGKILL');
    }
  });

  it('cuts a request that does not finish once the grace period is over, and exits', async () => {
    const port = await freePort();
    const server = await startServer({ ...(await place(true)), SHUTDOWN_GRACE_MS: '1000' }, port);
    try {
      const stuck = rawConnection(port);
      stuck.socket.write(loginHead('en') + LOGIN_BODY.slice(0, 10));
      await new Promise((r) => setTimeout(r, 300));
      const exit = exited(server);
      server.kill('SIGTERM');
      // before: the server waited for the request's 60 s timeout
      await stuck.closed;
      expect(await exit).toBe(0);
    } finally {
      server.kill('SIGKILL');
    }
  });
});

describe('refusing to start', { timeout: 600_000 }, () => {
  it('names a data folder it cannot write', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verdant-main-'));
    dirs.push(dir);
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const dataDir = join(file, 'data');
    const r = await runToExit({ ...(await place()), DATA_DIR: dataDir, PORT: String(await freePort()) });
    expect(r.code).toBe(1);
    expect(r.output.trim().split('\n')).toEqual([
      expect.stringMatching(
        new RegExp(`^Verdant cannot start: the data folder ${dataDir} cannot be written`),
      ),
    ]);
  });

  it('gives up on a database that cannot be reached after retrying, saying so once', async () => {
    const closedPort = await freePort();
    const r = await runToExit({
      ...(await place()),
      DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/postgres`,
      DB_START_WAIT_MS: '1500',
      PORT: String(await freePort()),
    });
    expect(r.code).toBe(1);
    const lines = r.output.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!).msg).toBe(
      `the database at 127.0.0.1:${closedPort}/postgres cannot be reached (ECONNREFUSED); retrying for up to 2 s`,
    );
    expect(lines[1]).toBe(
      `Verdant cannot start: the database at 127.0.0.1:${closedPort}/postgres cannot be reached (ECONNREFUSED) after 2 s of retries`,
    );
  });

  it.skipIf(!url)('starts once a database that was unreachable answers', async () => {
    const real = new URL(url!);
    const proxy = await startTcpProxy(real.hostname, Number(real.port || 5432));
    proxy.reset();
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'apps/server/src/main.ts')], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...(await place()),
        DATABASE_URL: proxy.url(url!),
        DB_START_WAIT_MS: '120000',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        FEED_INTERVAL_MS: '0',
        BACKFILL_DAYS: '0',
        MARKET_MAKER: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const add = (d: Buffer) => {
      stderr += d;
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    try {
      while (!stderr.includes('retrying for up to 120 s')) {
        expect(child.exitCode).toBe(null);
        await new Promise((r) => setTimeout(r, 100));
      }
      proxy.forward();
      for (;;) {
        expect(child.exitCode).toBe(null);
        const up = await fetch(`http://127.0.0.1:${port}/api/wallet/currencies`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(stderr).toContain('answers now');
    } finally {
      child.kill('SIGKILL');
      await proxy.close();
    }
  });

  it('refuses a second process on one PGlite data folder, and takes over the lock of a killed one', async () => {
    const dataDir = await migratedDataDir('verdant-main-');
    dirs.push(dataDir);
    const env = { DATABASE_URL: '', DATA_DIR: dataDir };
    const first = await startServer(env, await freePort());
    try {
      const r = await runToExit({ ...env, PORT: String(await freePort()) });
      expect(r.code).toBe(1);
      expect(r.output.trim()).toBe(
        `Verdant cannot start: the data folder ${dataDir} is in use by another Verdant process (pid ${first.pid}); ` +
          `stop it first, or give this one another DATA_DIR (if no such process runs, delete ${join(dataDir, 'pglite.lock')})`,
      );
    } finally {
      first.kill('SIGKILL');
      await exited(first);
    }
    // the killed process left its lock file behind; a new server takes it over and starts
    expect(JSON.parse(readFileSync(join(dataDir, 'pglite.lock'), 'utf8')).pid).toBe(first.pid);
    const port = await freePort();
    const next = await startServer(env, port);
    try {
      expect((await fetch(`http://127.0.0.1:${port}/api/wallet/currencies`)).status).toBe(200);
    } finally {
      next.kill('SIGTERM');
      await exited(next);
    }
  });
});
