import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { freshEmail, type Harness, registerByEmail, startHarness } from '../test/harness.ts';

// the limits as shipped: per address and account, per account, per address
const shipped = loadConfig({});
let h: Harness;
beforeAll(async () => {
  h = await startHarness({
    rateLimits: shipped.rateLimits,
    accountRateLimits: shipped.accountRateLimits,
    addressRateLimits: shipped.addressRateLimits,
  });
});
afterAll(() => h.close());

/** A login from the given address (the app trusts no proxy header by default: the peer's address counts). */
async function login(from: string, account: string, password: string) {
  const res = await h.inject({
    method: 'POST',
    url: '/api/user/login',
    remoteAddress: from,
    headers: { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ account, password }).toString(),
  });
  return { status: res.statusCode, body: res.json() as { type: string; message: string } };
}

describe('login limits, keyed once the body is read', () => {
  it('shipped numbers: 10 per address and account a minute, 30 per account an hour, 60 per address a minute', () => {
    expect(shipped.rateLimits).toMatchObject({ login: 10, windowMs: 60_000 });
    expect(shipped.accountRateLimits).toMatchObject({ login: 30, windowMs: 3_600_000 });
    expect(shipped.addressRateLimits).toMatchObject({ login: 60, windowMs: 60_000 });
  });

  it('10 failed logins for other accounts from one address do not lock out a different account there', async () => {
    const victim = await registerByEmail(h);
    const from = '198.51.100.1';
    for (let i = 0; i < 10; i++) expect((await login(from, freshEmail(), 'wrong-one')).status).toBe(400);
    const res = await login(from, victim.email, victim.password);
    expect(res.body).toMatchObject({ type: 'ok', message: 'Login success' });
  });

  it('one address guessing one account is stopped after 10; other accounts from there still log in', async () => {
    const target = await registerByEmail(h);
    const other = await registerByEmail(h);
    const from = '198.51.100.2';
    for (let i = 0; i < 10; i++) expect((await login(from, target.email, 'wrong-one')).status).toBe(400);
    // the same account spelled differently is the same account
    const blocked = await login(from, ` ${target.email.toUpperCase()} `, 'wrong-one');
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Too many attempts. Please try again in \d+ seconds$/);
    expect((await login(from, other.email, other.password)).body.type).toBe('ok');
  });

  it('one account guessed from many addresses is limited to 30 an hour', async () => {
    const target = await registerByEmail(h);
    for (let i = 0; i < 30; i++)
      expect((await login(`203.0.113.${i + 1}`, target.email, 'wrong-one')).status).toBe(400);
    expect((await login('203.0.113.200', target.email, 'wrong-one')).status).toBe(429);
    // a different account from one of those addresses is not affected
    const other = await registerByEmail(h);
    expect((await login('203.0.113.1', other.email, other.password)).body.type).toBe('ok');
  });

  it('one address trying many accounts meets the ceiling of 60 a minute; other addresses do not', async () => {
    const from = '192.0.2.7';
    for (let i = 0; i < 60; i++) expect((await login(from, freshEmail(), 'wrong-one')).status).toBe(400);
    const u = await registerByEmail(h);
    expect((await login(from, u.email, u.password)).status).toBe(429);
    expect((await login('192.0.2.8', u.email, u.password)).body.type).toBe('ok');
  });
});

/** Any POST under /api from the given address. */
async function post(from: string, path: string, body: Record<string, string>, token?: string) {
  const res = await h.inject({
    method: 'POST',
    url: `/api/${path}`,
    remoteAddress: from,
    headers: {
      lang: 'en',
      'content-type': 'application/x-www-form-urlencoded',
      ...(token ? { authorization: token } : {}),
    },
    payload: new URLSearchParams(body).toString(),
  });
  return { status: res.statusCode, body: res.json() as { type: string; message: string } };
}

describe('the other kinds', () => {
  it('codes: one contact checked from many addresses is limited to 10 an hour, spellings included', async () => {
    const email = freshEmail();
    for (let i = 0; i < 10; i++) {
      const spelled = i % 2 ? email.toUpperCase() : email;
      expect((await post(`203.0.114.${i + 1}`, 'user/check_email', { email: spelled })).status).toBe(200);
    }
    const res = await post('203.0.114.99', 'user/check_email', { email });
    expect(res.status).toBe(429);
    expect(res.body.message).toMatch(/^Too many attempts/);
  });

  it('logged-in password checks count per user, whatever address the token is used from', async () => {
    const u = await registerByEmail(h);
    // incomplete forms: refused by the service, but every request counts
    for (let i = 0; i < 30; i++)
      expect((await post(`198.18.0.${i + 1}`, 'user/e_pwd', {}, u.token)).status).toBe(400);
    expect((await post('198.18.1.1', 'user/e_pwd', {}, u.token)).status).toBe(429);
    // another user is not affected
    const other = await registerByEmail(h);
    expect((await post('198.18.0.1', 'user/e_pwd', {}, other.token)).status).toBe(400);
  });

  it('an IPv6 /64 is one address for the ceiling', async () => {
    for (let i = 0; i < 30; i++)
      expect(
        (await post(`2001:db8:7:7::${(i + 1).toString(16)}`, 'user/check_email', { email: freshEmail() }))
          .status,
      ).toBe(200);
    const res = await post('2001:db8:7:7:ffff::1', 'user/check_email', { email: freshEmail() });
    expect(res.status).toBe(429);
    // the next /64 is another address
    expect((await post('2001:db8:7:8::1', 'user/check_email', { email: freshEmail() })).status).toBe(200);
  });
});
