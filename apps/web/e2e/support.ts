import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as OTPAuth from 'otpauth';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { beforeEach, expect, onTestFailed } from 'vitest';

// codes arrive at the same loopback SMTP server the server's own tests use
export { startOutbox } from '../../server/src/test/outbox.ts';

const root = resolve(import.meta.dirname, '../../..');

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (typeof a === 'object' && a ? res(a.port) : rej(new Error('no port'))));
    });
  });
}

/**
 * The real server (`npm run serve`'s entry) on a fresh data folder and a free port. A caller that
 * passes its own `dataDir` (prepared beforehand, checked afterwards) keeps it: stop() leaves it.
 */
/**
 * For tests that never look at prices or charts: no 30-day back-fill, no index feed and no market
 * maker (each costs seconds of CPU at start and keeps writing while the test runs).
 */
export const NO_MARKET_DATA = { BACKFILL_DAYS: '0', FEED_INTERVAL_MS: '0', MARKET_MAKER: '0' };

export async function startServer(env: Record<string, string> = {}, opts: { dataDir?: string } = {}) {
  const port = await freePort();
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'verdant-e2e-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', join(root, 'apps/server/src/main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout?.on('data', (c) => {
    log += c;
  });
  child.stderr?.on('data', (c) => {
    log += c;
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${log}`);
    try {
      if ((await fetch(`${base}/h5/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i > 300) throw new Error(`server did not start: ${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    base,
    dataDir,
    log: () => log,
    async api<T = unknown>(path: string, body: Record<string, string> = {}, token?: string, method = 'POST') {
      const res = await fetch(`${base}/api/${path}`, {
        method,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          lang: 'en',
          ...(token ? { authorization: token } : {}),
        },
        ...(method === 'GET' ? {} : { body: new URLSearchParams(body).toString() }),
      });
      return (await res.json()) as { type: string; code: number; message: string; data: T };
    },
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(
  base: string,
): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE ${new URL(base).hostname}`,
    ],
  });
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  return { browser, context, page };
}

/** Runs a command in the repository to its end; resolves with its exit code and output. */
export function run(
  command: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  return new Promise((res) => {
    const child = spawn(command, args, {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
    });
    child.stderr?.on('data', (c) => {
      out += c;
    });
    child.on('exit', (code) => res({ code, out }));
  });
}

/** Runs a TypeScript script of the repository with Node (through tsx). */
export const runNode = (args: string[], env: Record<string, string>) =>
  run(process.execPath, ['--import', 'tsx', ...args], env);

/**
 * An admin operator made with the CLI in `dataDir`, before the server starts there: the
 * embedded database allows one process at a time.
 */
export async function createOperator(dataDir: string, op: { username: string; password: string }) {
  const created = await runNode(
    [join(root, 'apps/server/src/admin-cli.ts'), 'create', '--username', op.username, '--role', 'admin'],
    { DATA_DIR: dataDir, ADMIN_PASSWORD: op.password },
  );
  expect(created.code, created.out).toBe(0);
}

/** The code an authenticator app shows now for a base32 secret (RFC 6238: SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
}

/** What an operator's sign-in left per server: the token, and the password and secret now in use. */
const operatorSessions = new Map<string, { token: string; password: string; secret?: string }>();

/**
 * A ready operator token for an operator made with `createOperator`, going through the console's
 * sign-in steps over the API like a person would: the forced password change (to the password
 * with '-2' appended), TOTP enrolment (the code computed as an authenticator does), later logins
 * with a code. The token is kept per server: a second sign-in within one 30-second step could
 * not give a fresh code.
 */
export async function operatorToken(
  server: Server,
  op: { username: string; password: string },
): Promise<string> {
  const key = `${server.base}|${op.username}`;
  const known = operatorSessions.get(key);
  if (known) return known.token;
  let password = op.password;
  const login = await expectOk(
    server.api<{ token: string; stage: string }>('admin/login', { username: op.username, password }),
  );
  const { token } = login;
  let stage = login.stage;
  if (stage === 'password') {
    const changed = `${password}-2`;
    stage = (
      await expectOk(
        server.api<{ stage: string }>('admin/password', { password, new_password: changed }, token),
      )
    ).stage;
    password = changed;
  }
  let secret: string | undefined;
  if (stage === 'totp_setup') {
    secret = (await expectOk(server.api<{ secret: string }>('admin/totp/setup', {}, token))).secret;
    await expectOk(server.api('admin/totp/enable', { code: totpCode(secret) }, token));
  } else if (stage === 'totp')
    throw new Error('operatorToken: this operator signed in before without this helper');
  operatorSessions.set(key, { token, password, ...(secret ? { secret } : {}) });
  return token;
}

/** Retries `fn` every 100 ms until it stops throwing: mail delivery, reviews and pushes take a moment. */
export async function eventually<T>(fn: () => T | Promise<T>, tries = 150): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i > tries) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The data of an envelope that must be a success (its message is shown when it is not). */
export async function expectOk<T>(p: Promise<{ type: string; message: string; data: T }>): Promise<T> {
  const r = await p;
  expect(r.type, r.message).toBe('ok');
  return r.data;
}

type Server = Awaited<ReturnType<typeof startServer>>;
type Outbox = { lastCode(to: string): string };

/** Registers an e-mail account over the API (the code read from the test SMTP server); its token. */
export async function registerByEmail(server: Server, mailbox: Outbox, email: string, password: string) {
  await expectOk(server.api('sms_mail', { email, type: 'register' }));
  const code = await eventually(() => mailbox.lastCode(email));
  const reg = await expectOk(
    server.api<{ token: string }>('user/register', {
      type: 'email',
      account: email,
      code,
      password,
      re_password: password,
      agree: '1',
    }),
  );
  return reg.token;
}

/** Types six digits on antd-mobile's on-screen number pad of the n-th passcode box, then closes the pad. */
export async function passcode(page: Page, n: number, digits: string) {
  await page.locator('.adm-passcode-input').nth(n).click();
  // each box has its own pad, in the same order
  const pad = page.locator('.adm-number-keyboard-popup').nth(n);
  for (const d of digits) {
    await pad
      .locator('.adm-number-keyboard-key')
      .filter({ hasText: new RegExp(`^${d}$`) })
      .click();
  }
  // close the pad so it does not cover what comes next
  await pad.locator('.adm-number-keyboard-header').click();
}

/** A failing step leaves a screenshot of what the user saw, and the route it was on. */
export function screenshotFailures(page: () => Page | undefined) {
  beforeEach((ctx) => {
    onTestFailed(async () => {
      const p = page();
      if (!p) return;
      const file = join(tmpdir(), `verdant-e2e-${ctx.task.name.replace(/\W+/g, '-').slice(0, 60)}.png`);
      await p.screenshot({ path: file }).catch(() => {});
      console.log(
        `screenshot of the failure: ${file} (at ${await p.evaluate(() => location.hash).catch(() => '?')})`,
      );
    });
  });
}
