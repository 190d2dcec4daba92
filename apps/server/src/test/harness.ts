import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Lang } from '@verdant/api';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import { openDb } from '../db/client.ts';
import { type Outbox, startOutbox } from './outbox.ts';

export interface Harness {
  app: FastifyInstance;
  outbox: Outbox;
  config: Config;
  /** POST/GET under /api with a form body, answering the parsed envelope and the status. */
  call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    body?: Record<string, string>,
    opts?: { token?: string; lang?: Lang },
  ): Promise<{ status: number; body: Envelope<T> }>;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface Envelope<T> {
  type: string;
  code: number;
  message: string;
  data: T;
  field?: string;
}

/**
 * A whole server on a database of its own: in-memory PGlite, or a fresh schema on the
 * PostgreSQL server named by DATABASE_URL (dropped afterwards). The same tests run on both.
 */
let snapshot: Blob | undefined;
/** The migrated PGlite data directory of this run (test/global-setup.ts), read once per file. */
function pgliteSnapshot(): Blob | undefined {
  const file = inject('pgliteSnapshot');
  if (!file) return undefined;
  snapshot ??= new Blob([readFileSync(file)]);
  return snapshot;
}

/**
 * A data folder for a server run as a child process (main.ts): on PGlite the run's migrated
 * snapshot is written into it first, so the child skips initdb and every migration (about 10 s a
 * start on a busy 2-core machine). Left empty on PostgreSQL, where the child uses its schema.
 */
export async function migratedDataDir(prefix = 'verdant-test-'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const blob = process.env.DATABASE_URL ? undefined : pgliteSnapshot();
  if (blob) await (await openDb({ dataDir: dir, pgliteSnapshot: blob })).close();
  return dir;
}

export async function startHarness(
  overrides: Partial<Config> = {},
  /** Runs after the app is built and before it is ready, e.g. to add a test-only route. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>,
): Promise<Harness> {
  const outbox = await startOutbox();
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-test-'));
  const url = process.env.DATABASE_URL;
  const schema = url ? `test_${randomBytes(6).toString('hex')}` : undefined;
  const config = loadConfig(
    // the house market maker stays off unless a test turns it on (it quotes once a server listens)
    { ...process.env, DATA_DIR: dataDir, MARKET_MAKER: '0' },
    {
      databaseSchema: schema,
      smtpUrl: outbox.smtpUrl,
      smsWebhookUrl: outbox.smsWebhookUrl,
      // generous limits so ordinary tests never meet them; the rate-limit tests lower them
      rateLimits: { login: 1000, codes: 1000, passwordChecks: 1000, windowMs: 60_000 },
      accountRateLimits: { login: 1000, codes: 1000, passwordChecks: 1000, windowMs: 60_000 },
      addressRateLimits: { login: 1000, codes: 1000, passwordChecks: 1000, windowMs: 60_000 },
      // no feed timer and no back-fill: tests drive the feed by hand (app.market.feed.tick)
      feedIntervalMs: 0,
      backfillDays: 0,
      ...overrides,
    },
  );
  const db = await openDb({
    url,
    schema,
    limits: config.db,
    pgliteSnapshot: url ? undefined : pgliteSnapshot(),
  });
  const app = await buildApp({ config, db, logger: false });
  await beforeReady?.(app);
  await app.ready();

  return {
    app,
    outbox,
    config,
    inject: (o) => app.inject(o),
    async call<T>(
      method: 'GET' | 'POST' | 'PUT',
      path: string,
      body?: Record<string, string>,
      opts: { token?: string; lang?: Lang } = {},
    ) {
      const headers: Record<string, string> = { lang: opts.lang ?? 'en' };
      if (opts.token) headers.authorization = opts.token;
      const res = await app.inject({
        method,
        url: `/api/${path}${method === 'GET' && body ? `?${new URLSearchParams(body)}` : ''}`,
        headers:
          method === 'GET' ? headers : { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        ...(method !== 'GET' ? { payload: new URLSearchParams(body ?? {}).toString() } : {}),
      });
      return { status: res.statusCode, body: res.json() as Envelope<T> };
    },
    async close() {
      await app.close();
      if (schema) await db.query(`DROP SCHEMA ${schema} CASCADE`);
      await db.close();
      await outbox.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let seq = 0;
/** A fresh e-mail address per call, so tests in one file never collide. */
export function freshEmail(): string {
  seq += 1;
  return `user${seq}.${randomBytes(3).toString('hex')}@example.com`;
}

/** Registers by e-mail through the real endpoints (code read from the SMTP outbox). */
export async function registerByEmail(h: Harness, email = freshEmail(), password = 'secret123') {
  const sent = await h.call('POST', 'sms_mail', { email, type: 'register' });
  if (sent.body.type !== 'ok') throw new Error(`sms_mail failed: ${sent.body.message}`);
  const code = h.outbox.lastCode(email);
  const res = await h.call<{ token: string; user: { id: number; invite_code: string } }>(
    'POST',
    'user/register',
    {
      type: 'email',
      account: email,
      code,
      password,
      re_password: password,
      agree: '1',
    },
  );
  if (res.body.type !== 'ok') throw new Error(`register failed: ${res.body.message}`);
  return { email, password, token: res.body.data.token, user: res.body.data.user };
}
