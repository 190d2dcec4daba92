import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../db/client.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { createOperator, setOperatorDisabled } from './operators.ts';
import { enrolledOperator, OPERATOR_PASSWORD, operatorLogin, signIn } from './testing.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../../../../..');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const login = (username: string, password: string) =>
  h.call<{ token: string; operator: { id: number; username: string; role: string } }>('POST', 'admin/login', {
    username,
    password,
  });

describe('creating operators (the function behind npm run admin:create)', () => {
  it('creates an operator with an argon2id hash and audits it', async () => {
    const op = await createOperator(h.app.ctx.db, {
      username: ' Alice.Ops ',
      password: 'long-enough-1',
      role: 'admin',
    });
    expect(op).toMatchObject({ username: 'alice.ops', role: 'admin' });
    const [row] = await h.app.ctx.db.query<{ password_hash: string }>(
      'SELECT password_hash FROM operators WHERE id = $1',
      [op.id],
    );
    expect(row?.password_hash).toMatch(/^\$argon2id\$/);
    const [audit] = await h.app.ctx.db.query<{ operator_id: number | null; action: string; after: unknown }>(
      "SELECT operator_id, action, after FROM audit_log WHERE target_type = 'operator' AND target_id = $1",
      [String(op.id)],
    );
    expect(audit).toMatchObject({
      operator_id: null,
      action: 'operator.create',
      after: { username: 'alice.ops' },
    });
  });

  it('checks username, role and password, and refuses a taken username', async () => {
    const db = h.app.ctx.db;
    const cases: [Record<string, string>, string][] = [
      [{ username: '', role: 'admin', password: 'long-enough-1' }, 'admin.usernameRequired'],
      [{ username: 'a b', role: 'admin', password: 'long-enough-1' }, 'admin.usernameInvalid'],
      [{ username: 'bob', role: 'root', password: 'long-enough-1' }, 'admin.roleInvalid'],
      [{ username: 'bob', role: 'reviewer', password: 'short' }, 'validation.passwordTooShort'],
      [{ username: 'bob', role: 'reviewer', password: '' }, 'validation.passwordRequired'],
    ];
    for (const [input, key] of cases) {
      await expect(createOperator(db, input)).rejects.toMatchObject({ messageKey: key });
    }
    await createOperator(db, { username: 'carol', role: 'reviewer', password: 'long-enough-1' });
    await expect(
      createOperator(db, { username: 'CAROL', role: 'admin', password: 'long-enough-2' }),
    ).rejects.toMatchObject({ messageKey: 'admin.usernameTaken' });
  });

  it('the CLI works end to end as a child process on a fresh DATA_DIR', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'verdant-cli-'));
    const cli = ['--import', 'tsx', join(ROOT, 'apps/server/src/admin-cli.ts')];
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
    try {
      const created = await run(
        process.execPath,
        [...cli, 'create', '--username', 'dora', '--role', 'admin'],
        {
          cwd: ROOT,
          env: { ...env, ADMIN_PASSWORD: 'cli-password-1' },
        },
      );
      expect(created.stdout).toMatch(/created operator dora \(admin\), id 1, in PGlite in /);

      // the password from standard input when not interactive
      const child = execFile(
        process.execPath,
        [...cli, 'create', '--username', 'eve', '--role', 'reviewer'],
        { cwd: ROOT, env },
      );
      child.stdin?.end('cli-password-2\n');
      const out = await new Promise<string>((res, rej) => {
        let text = '';
        child.stdout?.on('data', (c) => {
          text += String(c);
        });
        child.on('exit', (code) => (code === 0 ? res(text) : rej(new Error(`exit ${code}`))));
      });
      expect(out).toMatch(/created operator eve \(reviewer\), id 2/);

      const bad = await run(process.execPath, [...cli, 'create', '--username', 'dora', '--role', 'admin'], {
        cwd: ROOT,
        env: { ...env, ADMIN_PASSWORD: 'cli-password-1' },
      }).catch((e: { code: number; stderr: string }) => e);
      expect(bad).toMatchObject({
        code: 1,
        stderr: expect.stringContaining('This username is already taken'),
      });

      const db = await openDb({ dataDir });
      try {
        const rows = await db.query<{ username: string; role: string }>(
          'SELECT username, role FROM operators ORDER BY id',
        );
        expect(rows).toEqual([
          { username: 'dora', role: 'admin' },
          { username: 'eve', role: 'reviewer' },
        ]);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('operator login and sessions', () => {
  it('logs in, answers me, and logs out; the token is stored hashed', async () => {
    const op = await enrolledOperator(h, 'reviewer');
    const res = await login(op.username.toUpperCase(), OPERATOR_PASSWORD);
    expect(res.body).toMatchObject({
      type: 'ok',
      message: 'Login success',
      data: { operator: { id: op.id, username: op.username, role: 'reviewer' }, stage: 'totp' },
    });
    // the password alone opens nothing but the second step
    const half = await h.call('GET', 'admin/me', undefined, { token: res.body.data.token });
    expect(half.status).toBe(401);
    const token = await signIn(h, op.username);
    const stored = await h.app.ctx.db.query('SELECT 1 FROM operator_sessions WHERE token_hash = $1', [token]);
    expect(stored).toHaveLength(0);
    const me = await h.call('GET', 'admin/me', undefined, { token });
    expect(me.body).toMatchObject({
      type: 'ok',
      data: { id: op.id, username: op.username, role: 'reviewer' },
    });
    expect((await h.call('POST', 'admin/logout', {}, { token })).body.type).toBe('ok');
    const after = await h.call('GET', 'admin/me', undefined, { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ type: '999', code: 999, message: 'Operator login required' });
  });

  it('refuses a wrong password and an unknown username with one message; logs the failed try', async () => {
    const op = await createOperator(h.app.ctx.db, {
      username: 'grace',
      role: 'admin',
      password: OPERATOR_PASSWORD,
    });
    const wrong = await login('grace', 'not-the-password');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      type: 'error',
      code: 2103,
      message: 'Wrong username or password',
      field: 'password',
    });
    const unknown = await login('nobody-here', OPERATOR_PASSWORD);
    expect(unknown.body.message).toBe('Wrong username or password');
    const empty = await login('', '');
    expect(empty.body).toMatchObject({ message: 'Please enter the username', field: 'username' });
    const [row] = await h.app.ctx.db.query<{ action: string }>(
      "SELECT action FROM audit_log WHERE operator_id = $1 AND action = 'operator.login_failed'",
      [op.id],
    );
    expect(row).toBeDefined();
  });

  it('a disabled operator cannot log in, and their sessions end', async () => {
    const op = await operatorLogin(h, 'reviewer');
    await setOperatorDisabled(h.app.ctx.db, op.username, true);
    expect((await h.call('GET', 'admin/me', undefined, { token: op.token })).status).toBe(401);
    const res = await login(op.username, OPERATOR_PASSWORD);
    expect(res.body).toMatchObject({ type: 'error', message: 'This operator account is disabled' });
  });

  it("a user's token does not work on /api/admin, nor an operator's on the user API", async () => {
    const u = await registerByEmail(h);
    for (const path of ['admin/me', 'admin/users', 'admin/verifications', 'admin/deposits', 'admin/audit']) {
      const res = await h.call('GET', path, undefined, { token: u.token });
      expect(res.status, path).toBe(401);
      expect(res.body).toEqual({ type: '999', code: 999, message: 'Operator login required' });
    }
    const anonymous = await h.call('GET', 'admin/me', undefined, { lang: 'th' });
    expect(anonymous.body.message).toBe('กรุณาเข้าสู่ระบบผู้ดูแล');
    const op = await operatorLogin(h, 'admin');
    const res = await h.call('GET', 'user/center', undefined, { token: op.token });
    expect(res.status).toBe(401);
  });

  it('limits operator logins per address and username, per username across addresses, and per address', async () => {
    const limited = await startHarness({
      rateLimits: { login: 2, codes: 5, passwordChecks: 5, windowMs: 60_000 },
      accountRateLimits: { login: 3, codes: 5, passwordChecks: 5, windowMs: 60_000 },
      addressRateLimits: { login: 4, codes: 5, passwordChecks: 5, windowMs: 60_000 },
    });
    const from = (ip: string, username: string) =>
      limited.inject({
        method: 'POST',
        url: '/api/admin/login',
        remoteAddress: ip,
        headers: { lang: 'en' },
        payload: { username, password: 'wrong-password' },
      });
    try {
      // one address guessing one username: the third try is refused
      expect((await from('10.0.0.1', 'x')).statusCode).toBe(400);
      expect((await from('10.0.0.1', 'X')).statusCode).toBe(400);
      const third = await from('10.0.0.1', 'x');
      expect(third.statusCode).toBe(429);
      expect(third.json().message).toMatch(/^Too many attempts\. Please try again in \d+ seconds$/);
      // another username from the same address still gets its answer
      expect((await from('10.0.0.1', 'other')).statusCode).toBe(400);
      // the same username from a new address counts across addresses: 3 in all
      expect((await from('10.0.0.2', 'x')).statusCode).toBe(400);
      expect((await from('10.0.0.3', 'x')).statusCode).toBe(429);
      // and one address trying many usernames meets its own ceiling
      for (const u of ['a', 'b', 'c']) expect((await from('10.0.0.9', u)).statusCode).toBe(400);
      expect((await from('10.0.0.9', 'd')).statusCode).toBe(400);
      expect((await from('10.0.0.9', 'e')).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('roles', () => {
  it('only an admin reads the audit log: a reviewer gets 403 ADMIN_FORBIDDEN', async () => {
    const reviewer = await operatorLogin(h, 'reviewer');
    const res = await h.call('GET', 'admin/audit', undefined, { token: reviewer.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ type: 'error', code: 4003, message: 'Your role does not allow this' });

    const admin = await operatorLogin(h, 'admin');
    const log = await h.call<{
      items: { action: string; operator_id: number | null; operator_username: string | null }[];
      total: number;
    }>('GET', 'admin/audit', { operator_id: String(admin.id) }, { token: admin.token });
    expect(log.body.type).toBe('ok');
    // newest first: the second factor, then the password step
    expect(log.body.data.items.slice(0, 2)).toMatchObject([
      { action: 'operator.totp_verify', operator_id: admin.id, operator_username: admin.username },
      { action: 'operator.login', operator_id: admin.id, operator_username: admin.username },
    ]);
    const creations = await h.call<{ items: { action: string; operator_id: null }[] }>(
      'GET',
      'admin/audit',
      { action: 'operator.create', limit: '100' },
      { token: admin.token },
    );
    expect(creations.body.data.items.length).toBeGreaterThan(3);
    expect(
      creations.body.data.items.every((i) => i.action === 'operator.create' && i.operator_id === null),
    ).toBe(true);
  });
});

describe('users, balances and ledger for operators', () => {
  it('lists users newest first and searches by e-mail, nickname or id; pages are checked', async () => {
    const reviewer = await operatorLogin(h, 'reviewer');
    const a = await registerByEmail(h);
    const b = await registerByEmail(h);
    const all = await h.call<{
      items: { id: number; email: string }[];
      total: number;
      page: number;
      limit: number;
    }>('GET', 'admin/users', { limit: '2' }, { token: reviewer.token });
    expect(all.body.data).toMatchObject({ page: 1, limit: 2 });
    expect(all.body.data.items.map((u) => u.id)).toEqual([b.user.id, a.user.id]);
    expect(all.body.data.total).toBeGreaterThanOrEqual(2);

    const found = await h.call<{
      items: { id: number; account: string; verification: string }[];
      total: number;
    }>('GET', 'admin/users', { q: a.email.slice(0, 10).toUpperCase() }, { token: reviewer.token });
    expect(found.body.data.items.map((u) => u.id)).toContain(a.user.id);
    expect(found.body.data.items.find((u) => u.id === a.user.id)).toMatchObject({
      account: a.email,
      verification: 'none',
    });
    const byId = await h.call<{ items: { id: number }[] }>(
      'GET',
      'admin/users',
      { q: String(b.user.id) },
      {
        token: reviewer.token,
      },
    );
    expect(byId.body.data.items.map((u) => u.id)).toContain(b.user.id);
    // a phone account, found by part of its number as typed with the dialling code
    const [phoneUser] = await h.app.ctx.db.query<{ id: number }>(
      `INSERT INTO users (nickname, account_type, area_code, mobile, password_hash, invite_code)
       VALUES ('081****5678', 'mobile', '66', '812345678', 'x', 'PHONE001') RETURNING id`,
    );
    const byPhone = await h.call<{ items: { id: number; account: string }[] }>(
      'GET',
      'admin/users',
      { q: '+66 81234' },
      { token: reviewer.token },
    );
    expect(byPhone.body.data.items).toEqual([
      expect.objectContaining({ id: phoneUser!.id, account: '+66 812345678' }),
    ]);
    const none = await h.call<{ items: unknown[]; total: number }>(
      'GET',
      'admin/users',
      { q: '%_nobody_%' },
      {
        token: reviewer.token,
      },
    );
    expect(none.body.data).toMatchObject({ items: [], total: 0 });
    const bad = await h.call('GET', 'admin/users', { page: '0' }, { token: reviewer.token });
    expect(bad.body).toMatchObject({
      type: 'error',
      message: 'Invalid page number or page size',
      field: 'page',
    });
  });

  it('balances and ledger need a user that exists', async () => {
    const reviewer = await operatorLogin(h, 'reviewer');
    const u = await registerByEmail(h);
    const empty = await h.call(
      'GET',
      'admin/balances',
      { user_id: String(u.user.id) },
      { token: reviewer.token },
    );
    expect(empty.body).toMatchObject({ type: 'ok', data: [] });
    const ledger = await h.call(
      'GET',
      'admin/ledger',
      { user_id: String(u.user.id) },
      { token: reviewer.token },
    );
    expect(ledger.body).toMatchObject({ type: 'ok', data: { items: [], total: 0 } });
    const missing = await h.call('GET', 'admin/balances', {}, { token: reviewer.token });
    expect(missing.body).toMatchObject({ type: 'error', message: 'Please choose a user', field: 'user_id' });
    const unknown = await h.call('GET', 'admin/ledger', { user_id: '999999' }, { token: reviewer.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('This user does not exist');
  });
});

describe('OpenAPI', () => {
  it('lists the bank, kyc and admin routes with their tags', async () => {
    const res = await h.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json() as { paths: Record<string, Record<string, { tags?: string[] }>> };
    const tagOf = (path: string, method: string) => doc.paths[path]?.[method]?.tags;
    expect(tagOf('/api/user/cash_save', 'post')).toEqual(['bank']);
    expect(tagOf('/api/user/cash_info', 'post')).toEqual(['bank']);
    expect(tagOf('/api/user/cash_delete', 'post')).toEqual(['bank']);
    expect(tagOf('/api/user/real_name', 'post')).toEqual(['kyc']);
    expect(tagOf('/api/user/real_name2', 'post')).toEqual(['kyc']);
    expect(tagOf('/api/user/real_name_status', 'get')).toEqual(['kyc']);
    for (const [path, method] of [
      ['/api/admin/login', 'post'],
      ['/api/admin/logout', 'post'],
      ['/api/admin/me', 'get'],
      ['/api/admin/users', 'get'],
      ['/api/admin/balances', 'get'],
      ['/api/admin/ledger', 'get'],
      ['/api/admin/deposits', 'get'],
      ['/api/admin/deposits/approve', 'post'],
      ['/api/admin/deposits/reject', 'post'],
      ['/api/admin/withdrawals', 'get'],
      ['/api/admin/withdrawals/approve', 'post'],
      ['/api/admin/withdrawals/reject', 'post'],
      ['/api/admin/verifications', 'get'],
      ['/api/admin/verifications/approve', 'post'],
      ['/api/admin/verifications/reject', 'post'],
      ['/api/admin/upload/{name}', 'get'],
      ['/api/admin/audit', 'get'],
    ] as const) {
      expect(tagOf(path, method), `${method} ${path}`).toEqual(['admin']);
    }
  });
});
