import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** A second session of the user, never used yet (so nothing of it is cached in the server). */
async function freshSession(u: { email: string; password: string }): Promise<string> {
  const res = await h.call<{ token: string }>('POST', 'user/login', {
    account: u.email,
    password: u.password,
  });
  return res.body.data.token;
}

/** Moves a session's login and last request into the past. */
async function age(token: string, created: string, lastSeen: string) {
  await h.app.ctx.db.query(
    `UPDATE sessions SET created_at = now() - $2::interval, last_seen_at = now() - $3::interval
      WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
    [token, created, lastSeen],
  );
}

const center = (token: string) => h.call('GET', 'user/center', undefined, { token });

describe('session lifetimes', () => {
  it('defaults: 7 days idle, 30 days from login', () => {
    expect(h.config.sessionIdleSeconds).toBe(7 * 24 * 3600);
    expect(h.config.sessionMaxSeconds).toBe(30 * 24 * 3600);
  });

  it('refuses a session 400 days old, however recently it was used', async () => {
    const u = await registerByEmail(h);
    const token = await freshSession(u);
    await age(token, '400 days', '1 minute');
    const res = await center(token);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({
      type: '999',
      code: 999,
      message: 'Your session has ended. Please log in again',
    });
    // the other session of the same user is untouched
    expect((await center(u.token)).body.type).toBe('ok');
  });

  it('refuses a session past 30 days from login, and one idle for more than 7 days', async () => {
    const u = await registerByEmail(h);
    const old = await freshSession(u);
    await age(old, '30 days 1 minute', '1 minute');
    expect((await center(old)).body.code).toBe(999);
    const idle = await freshSession(u);
    await age(idle, '10 days', '7 days 1 minute');
    expect((await center(idle)).body.code).toBe(999);
  });

  it('keeps a session in use: 29 days from login, 6 days idle still works, and the request renews the idle time', async () => {
    const u = await registerByEmail(h);
    const token = await freshSession(u);
    await age(token, '29 days', '6 days 23 hours');
    expect((await center(token)).body.type).toBe('ok');
    const [row] = await h.app.ctx.db.query<{ idle: boolean }>(
      `SELECT last_seen_at > now() - interval '1 minute' AS idle FROM sessions
        WHERE token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [token],
    );
    expect(row?.idle).toBe(true);
  });

  it('user/center2 counts only live sessions', async () => {
    const u = await registerByEmail(h);
    const old = await freshSession(u);
    await age(old, '31 days', '1 minute');
    const c2 = await h.call<{ active_sessions: number }>('GET', 'user/center2', undefined, {
      token: u.token,
    });
    expect(c2.body.data.active_sessions).toBe(1);
  });
});

describe('session lifetimes, configured', () => {
  it('a session is not kept in the server cache past its absolute lifetime', async () => {
    const short = await startHarness({ sessionMaxSeconds: 4 });
    try {
      const u = await registerByEmail(short);
      // in use, so cached (for up to 5 s without its lifetime); then its 4 s run out
      expect((await short.call('GET', 'user/center', undefined, { token: u.token })).body.type).toBe('ok');
      await new Promise((r) => setTimeout(r, 4_100));
      expect((await short.call('GET', 'user/center', undefined, { token: u.token })).body.code).toBe(999);
    } finally {
      await short.close();
    }
  });
});
