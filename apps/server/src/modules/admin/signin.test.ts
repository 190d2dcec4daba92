// Operator sign-in in steps: the forced password change, TOTP enrolment and codes (RFC 6238),
// replayed and wrong codes, and what an admin does to other operators. Audited, every step.
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { resetOperatorTotp } from './manage.ts';
import { createOperator } from './operators.ts';
import { currentCode } from './signin.ts';
import {
  auditRows,
  enrolledOperator,
  OPERATOR_PASSWORD,
  operatorLogin,
  TEST_TOTP_SECRET,
} from './testing.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

let n = 0;
const fresh = async (role: 'admin' | 'reviewer' | 'support' = 'reviewer') => {
  n += 1;
  const username = `fresh${n}`;
  const op = await createOperator(h.app.ctx.db, { username, password: OPERATOR_PASSWORD, role });
  return { ...op, username };
};
const login = (username: string, password = OPERATOR_PASSWORD) =>
  h.call<{ token: string; stage: string }>('POST', 'admin/login', { username, password });
const post = <T = unknown>(path: string, token: string, body: Record<string, string> = {}) =>
  h.call<T>('POST', path, body, { token });
const me = (token: string) => h.call('GET', 'admin/me', undefined, { token });
const actions = async (id: number) => (await auditRows(h, 'operator', id)).map((r) => r.action);
/** The code of the step before the current one: still accepted once (clock drift), never after a newer one. */
const previousCode = (username: string, secret: string) => currentCode(username, secret, Date.now() - 30_000);

describe('the first login: a new password, then TOTP enrolment', () => {
  it('a new operator must change the password first; nothing else opens before', async () => {
    const op = await fresh();
    const first = await login(op.username);
    expect(first.body).toMatchObject({ type: 'ok', data: { stage: 'password' } });
    const token = first.body.data.token;
    expect((await me(token)).body).toMatchObject({ type: '999', code: 999 });
    // a step that is not this session's answers 999 as well
    expect((await post('admin/totp/setup', token)).status).toBe(401);

    const wrong = await post('admin/password', token, {
      password: 'not-mine-at-all',
      new_password: 'new-secret-12',
    });
    expect(wrong.body).toMatchObject({
      code: 2103,
      message: 'The current password is wrong',
      field: 'password',
    });
    const same = await post('admin/password', token, {
      password: OPERATOR_PASSWORD,
      new_password: OPERATOR_PASSWORD,
    });
    expect(same.body).toMatchObject({ type: 'error', field: 'new_password' });
    const short = await post('admin/password', token, { password: OPERATOR_PASSWORD, new_password: 'short' });
    expect(short.body).toMatchObject({ type: 'error', field: 'new_password' });

    const changed = await post<{ stage: string }>('admin/password', token, {
      password: OPERATOR_PASSWORD,
      new_password: 'new-secret-12',
    });
    expect(changed.body).toMatchObject({
      type: 'ok',
      message: 'Password changed',
      data: { stage: 'totp_setup' },
    });
    expect((await me(token)).status).toBe(401);
    // the old password is gone; the new one leads to enrolment (not to the change again)
    expect((await login(op.username)).body.code).toBe(2103);
    expect((await login(op.username, 'new-secret-12')).body.data.stage).toBe('totp_setup');
    expect(await actions(op.id)).toEqual([
      'operator.create',
      'operator.login',
      'operator.password_failed',
      'operator.password_change',
      'operator.login_failed',
      'operator.login',
    ]);
  });

  it('enrols with the QR code URI and a first code; the secret is never answered again', async () => {
    const op = await fresh('support');
    await h.app.ctx.db.query('UPDATE operators SET must_change_password = false WHERE id = $1', [op.id]);
    const { token, stage } = (await login(op.username)).body.data;
    expect(stage).toBe('totp_setup');
    const setup = await post<{ secret: string; uri: string }>('admin/totp/setup', token);
    expect(setup.body.type).toBe('ok');
    const { secret, uri } = setup.body.data;
    // what an authenticator app reads from the QR code
    const parsed = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
    expect(parsed).toBeInstanceOf(OTPAuth.TOTP);
    expect(parsed).toMatchObject({ issuer: 'Verdant console', label: op.username, digits: 6, period: 30 });
    expect(parsed.secret.base32).toBe(secret);

    const bad = await post('admin/totp/enable', token, { code: currentCode(op.username, TEST_TOTP_SECRET) });
    expect(bad.body).toMatchObject({ type: 'error', code: 2001, field: 'code' });
    expect((await me(token)).status).toBe(401);
    const good = await post<{ stage: string }>('admin/totp/enable', token, {
      code: currentCode(op.username, secret),
    });
    expect(good.body).toMatchObject({ type: 'ok', data: { stage: 'ready', operator: { id: op.id } } });
    expect((await me(token)).body.type).toBe('ok');
    // enrolled: no new secret, not even for this session
    expect((await post('admin/totp/setup', token)).status).toBe(401);
    const second = (await login(op.username)).body.data;
    expect(second.stage).toBe('totp');
    expect((await post('admin/totp/setup', second.token)).status).toBe(401);
    expect(JSON.stringify(await h.call('GET', 'admin/me', undefined, { token }))).not.toContain(secret);
    expect(await actions(op.id)).toEqual([
      'operator.create',
      'operator.login',
      'operator.totp_setup',
      'operator.totp_failed',
      'operator.totp_enable',
      'operator.login',
    ]);
  });
});

describe('the code at every login', () => {
  it('a right code makes the session ready; a code is used once; an older one is refused after it', async () => {
    const op = await enrolledOperator(h, 'reviewer');
    const a = (await login(op.username)).body.data.token;
    expect((await post('admin/totp/verify', a, { code: '12345' })).body).toMatchObject({
      message: 'This code is not right. Enter the code your authenticator shows now',
      field: 'code',
    });
    const code = currentCode(op.username, TEST_TOTP_SECRET);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    expect((await post('admin/totp/verify', a, { code: wrong })).body.code).toBe(2001);
    expect((await post('admin/totp/verify', a, { code })).body).toMatchObject({
      type: 'ok',
      data: { stage: 'ready' },
    });
    expect((await me(a)).body.type).toBe('ok');

    // the same code on another login: refused, the session stays at the code step
    const b = (await login(op.username)).body.data.token;
    const replay = await post('admin/totp/verify', b, { code });
    expect(replay.body).toMatchObject({
      type: 'error',
      code: 2001,
      message: 'This code has been used already. Wait for the next code',
    });
    expect((await me(b)).status).toBe(401);
    // the previous step's code would pass by clock drift, but never once a newer one was used
    const older = await post('admin/totp/verify', b, { code: previousCode(op.username, TEST_TOTP_SECRET) });
    expect(older.body.code).toBe(2001);
    expect(await actions(op.id)).toEqual([
      'operator.create',
      'operator.login',
      'operator.totp_failed',
      'operator.totp_verify',
      'operator.login',
    ]);
  });

  it('20 logins sending one code at once: exactly one becomes ready', async () => {
    const op = await enrolledOperator(h, 'reviewer');
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) tokens.push((await login(op.username)).body.data.token);
    const code = currentCode(op.username, TEST_TOTP_SECRET);
    const results = await Promise.all(tokens.map((t) => post('admin/totp/verify', t, { code })));
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r.body.code === 2001)).toHaveLength(19);
    const ready = await Promise.all(tokens.map(async (t) => (await me(t)).body.type === 'ok'));
    expect(ready.filter(Boolean)).toHaveLength(1);
    expect((await actions(op.id)).filter((a) => a === 'operator.totp_verify')).toHaveLength(1);
  });

  it('wrong codes are limited like logins: the operator gets a 429 after the login limit', async () => {
    const limited = await startHarness({
      rateLimits: { login: 3, codes: 5, passwordChecks: 5, windowMs: 60_000 },
      accountRateLimits: { login: 100, codes: 5, passwordChecks: 5, windowMs: 60_000 },
      addressRateLimits: { login: 100, codes: 5, passwordChecks: 5, windowMs: 60_000 },
    });
    try {
      const op = await enrolledOperator(limited, 'reviewer');
      const res = await limited.call<{ token: string }>('POST', 'admin/login', {
        username: op.username,
        password: OPERATOR_PASSWORD,
      });
      const token = res.body.data.token;
      // the login counted once for this operator and address; two wrong codes use up the rest
      for (let i = 0; i < 2; i++)
        expect((await limited.call('POST', 'admin/totp/verify', { code: '000000' }, { token })).status).toBe(
          400,
        );
      const blocked = await limited.call(
        'POST',
        'admin/totp/verify',
        { code: currentCode(op.username, TEST_TOTP_SECRET) },
        { token },
      );
      expect(blocked.status).toBe(429);
      expect(blocked.body.message).toMatch(/^Too many attempts/);
    } finally {
      await limited.close();
    }
  });
});

describe('an admin manages operators', () => {
  it('creates one who must change the password and enrol; lists them without secrets', async () => {
    const admin = await operatorLogin(h, 'admin');
    const created = await post<{ id: number; must_change_password: boolean; totp_enabled: boolean }>(
      'admin/operators/create',
      admin.token,
      { username: 'new.reviewer', password: 'first-password-1', role: 'reviewer' },
    );
    expect(created.body).toMatchObject({
      type: 'ok',
      message: 'Operator created',
      data: { username: 'new.reviewer', role: 'reviewer', must_change_password: true, totp_enabled: false },
    });
    const id = created.body.data.id;
    const [audit] = await auditRows(h, 'operator', id);
    expect(audit).toMatchObject({ operator_id: admin.id, action: 'operator.create' });
    expect((await login('new.reviewer', 'first-password-1')).body.data.stage).toBe('password');
    const list = await h.call<{ id: number }[]>('GET', 'admin/operators', undefined, { token: admin.token });
    expect(list.body.data.find((o) => o.id === id)).toMatchObject({ disabled: false, totp_enabled: false });
    expect(JSON.stringify(list.body)).not.toMatch(/password_hash|totp_secret|JBSWY3DP/);
    const taken = await post('admin/operators/create', admin.token, {
      username: 'NEW.reviewer',
      password: 'first-password-1',
      role: 'admin',
    });
    expect(taken.body).toMatchObject({ type: 'error', field: 'username' });
  });

  it('disables (sessions end, login refused) and enables; never themselves', async () => {
    const admin = await operatorLogin(h, 'admin');
    const other = await operatorLogin(h, 'support');
    const off = await post('admin/operators/disable', admin.token, { id: String(other.id), disabled: '1' });
    expect(off.body).toMatchObject({ type: 'ok', data: { disabled: true } });
    expect((await me(other.token)).status).toBe(401);
    expect((await login(other.username)).body.message).toBe('This operator account is disabled');
    const self = await post('admin/operators/disable', admin.token, { id: String(admin.id), disabled: '1' });
    expect(self.body).toMatchObject({ type: 'error', message: 'You cannot disable your own account' });
    expect(
      (await post('admin/operators/disable', admin.token, { id: String(other.id), disabled: '0' })).body.type,
    ).toBe('ok');
    expect((await login(other.username)).body.data.stage).toBe('totp');
    const rows = (await auditRows(h, 'operator', other.id)).filter((r) => r.operator_id === admin.id);
    expect(rows.map((r) => [r.action, r.before, r.after])).toEqual([
      ['operator.disable', { disabled: false }, { disabled: true }],
      ['operator.enable', { disabled: true }, { disabled: false }],
    ]);
  });

  it('resets a password (changed at next login) and TOTP (enrolled again); sessions end; audited', async () => {
    const admin = await operatorLogin(h, 'admin');
    const other = await operatorLogin(h, 'reviewer');
    const reset = await post('admin/operators/reset_password', admin.token, {
      id: String(other.id),
      password: 'temporary-pass-1',
    });
    expect(reset.body).toMatchObject({ type: 'ok', data: { must_change_password: true } });
    expect((await me(other.token)).status).toBe(401);
    expect((await login(other.username, 'temporary-pass-1')).body.data.stage).toBe('password');

    const totp = await post('admin/operators/reset_totp', admin.token, { id: String(other.id) });
    expect(totp.body).toMatchObject({ type: 'ok', data: { totp_enabled: false } });
    await h.app.ctx.db.query('UPDATE operators SET must_change_password = false WHERE id = $1', [other.id]);
    expect((await login(other.username, 'temporary-pass-1')).body.data.stage).toBe('totp_setup');
    const mine = (await auditRows(h, 'operator', other.id)).filter((r) => r.operator_id === admin.id);
    expect(mine.map((r) => r.action)).toEqual(['operator.reset_password', 'operator.reset_totp']);
    const unknown = await post('admin/operators/reset_totp', admin.token, { id: '99999' });
    expect(unknown.body).toMatchObject({ type: 'error', code: 1404 });
  });

  it('the command line resets the TOTP of an admin with no other admin to do it (audited, no operator)', async () => {
    const lone = await operatorLogin(h, 'admin');
    await resetOperatorTotp(h.app.ctx.db, null, null, { id: String(lone.id) });
    expect((await me(lone.token)).status).toBe(401);
    expect((await login(lone.username)).body.data.stage).toBe('totp_setup');
    const [row] = (await auditRows(h, 'operator', lone.id)).filter((r) => r.action === 'operator.reset_totp');
    expect(row).toMatchObject({ operator_id: null, after: { totp_enabled: false } });
  });
});
