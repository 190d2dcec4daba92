import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../http/errors.ts';
import { freshEmail, type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { userService } from './service.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const reg = (body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call('POST', 'user/register', body, { lang });

describe('registration by e-mail', () => {
  it('sends a code by e-mail over SMTP and registers with it, logged in at once', async () => {
    const email = freshEmail();
    const sent = await h.call<{ resend_in: number; expires_in: number }>('POST', 'sms_mail', {
      email,
      type: 'register',
    });
    expect(sent.body).toMatchObject({
      type: 'ok',
      code: 1,
      message: 'Send success',
      data: { resend_in: 60, expires_in: 600 },
    });
    const mail = h.outbox.messages.findLast((m) => m.to === email);
    expect(mail?.subject).toContain('Verdant');
    const code = h.outbox.lastCode(email);
    const res = await h.call<{
      token: string;
      user: { account: string; email: string; has_fund_password: boolean };
    }>('POST', 'user/register', {
      type: 'email',
      account: email.toUpperCase(),
      code,
      password: 'secret123',
      re_password: 'secret123',
      agree: '1',
    });
    expect(res.body.type).toBe('ok');
    expect(res.body.message).toBe('Registration successful');
    expect(res.body.data.user).toMatchObject({ account: email, email, has_fund_password: false });
    const center = await h.call<{ email: string }>('GET', 'user/center', undefined, {
      token: res.body.data.token,
    });
    expect(center.body.data.email).toBe(email);
  });

  it('checks every rule of spec §5 with its message, and creates nothing on failure', async () => {
    const email = freshEmail();
    const base = {
      type: 'email',
      account: email,
      code: '123456',
      password: 'secret123',
      re_password: 'secret123',
      agree: '1',
    };
    const cases: [Record<string, string>, string, string][] = [
      [{ ...base, account: '' }, 'Please enter your e-mail address', 'email'],
      [{ ...base, account: 'not-an-email' }, 'Please enter a valid e-mail address', 'email'],
      [{ ...base, code: '' }, 'Please enter the verification code', 'code'],
      [{ ...base, password: '' }, 'Please enter the password', 'password'],
      [
        { ...base, password: '12345', re_password: '12345' },
        'The password must be at least 6 characters',
        'password',
      ],
      [{ ...base, re_password: '' }, 'Please confirm the password', 're_password'],
      [{ ...base, re_password: 'secret124' }, 'The two passwords are inconsistent', 're_password'],
      [{ ...base, agree: '' }, 'Please read and tick to agree to the user agreement', 'agree'],
      [{ ...base, invite_code: 'NOPE1234' }, 'This invitation code does not exist', 'invite_code'],
      [{ ...base, type: 'fax' }, 'Please choose phone or e-mail', 'type'],
    ];
    for (const [body, message, field] of cases) {
      const res = await reg(body);
      expect(res.status, message).toBe(400);
      expect(res.body).toMatchObject({ type: 'error', message, field });
    }
    expect((await h.call('POST', 'user/check_email', { email })).body.data).toEqual({ exists: false });
  });

  it('answers in Thai by default', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/user/register',
      payload: { type: 'email', account: 'x' },
    });
    expect(res.json().message).toBe('กรุณากรอกอีเมลที่ถูกต้อง');
  });

  it('rejects a wrong code, and locks the code after five wrong tries', async () => {
    const email = freshEmail();
    await h.call('POST', 'sms_mail', { email, type: 'register' });
    const good = h.outbox.lastCode(email);
    const wrong = good === '000000' ? '111111' : '000000';
    const body = {
      type: 'email',
      account: email,
      password: 'secret123',
      re_password: 'secret123',
      agree: '1',
    };
    for (let i = 0; i < 4; i++) {
      expect((await reg({ ...body, code: wrong })).body.message).toBe('The verification code is incorrect');
    }
    expect((await reg({ ...body, code: wrong })).body.message).toBe(
      'Too many wrong codes. Please request a new code',
    );
    // even the right code no longer works: guessing is capped
    const res = await reg({ ...body, code: good });
    expect(res.status).toBe(429);
    expect(res.body.message).toBe('Too many wrong codes. Please request a new code');
  });

  it('refuses an expired code', async () => {
    const email = freshEmail();
    await h.call('POST', 'sms_mail', { email, type: 'register' });
    await h.app.ctx.db.query(
      "UPDATE verification_codes SET expires_at = now() - interval '1 second' WHERE target = $1",
      [email],
    );
    const res = await reg({
      type: 'email',
      account: email,
      code: h.outbox.lastCode(email),
      password: 'secret123',
      re_password: 'secret123',
      agree: '1',
    });
    expect(res.body.message).toBe('The verification code has expired. Please request a new one');
  });

  it('will not send a second code within 60 seconds', async () => {
    const email = freshEmail();
    expect((await h.call('POST', 'sms_mail', { email, type: 'register' })).body.type).toBe('ok');
    const again = await h.call('POST', 'sms_mail', { email, type: 'register' });
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^Please wait \d+ seconds before requesting another code$/);
  });

  it('will not send a registration code to a registered address', async () => {
    const { email } = await registerByEmail(h);
    const res = await h.call('POST', 'sms_mail', { email, type: 'register' });
    expect(res.body.message).toBe('This e-mail address is already registered');
  });

  it('lets exactly one of two simultaneous registrations through (double submit)', async () => {
    const email = freshEmail();
    await h.call('POST', 'sms_mail', { email, type: 'register' });
    const body = {
      type: 'email',
      account: email,
      code: h.outbox.lastCode(email),
      password: 'secret123',
      re_password: 'secret123',
      agree: '1',
    };
    const results = await Promise.all([reg(body), reg(body)]);
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(1);
    const [count] = await h.app.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM users WHERE email = $1',
      [email],
    );
    expect(count?.n).toBe(1);
  });

  it('stores a valid invitation code as the inviter', async () => {
    const inviter = await registerByEmail(h);
    const email = freshEmail();
    await h.call('POST', 'sms_mail', { email, type: 'register' });
    const res = await reg({
      type: 'email',
      account: email,
      code: h.outbox.lastCode(email),
      password: 'secret123',
      re_password: 'secret123',
      agree: '1',
      invite_code: inviter.user.invite_code.toLowerCase(),
    });
    expect(res.body.type).toBe('ok');
    const [row] = await h.app.ctx.db.query<{ invited_by: number }>(
      'SELECT invited_by FROM users WHERE email = $1',
      [email],
    );
    expect(row?.invited_by).toBe(inviter.user.id);
  });
});

describe('registration by phone', () => {
  it('sends an SMS through the provider hook and registers the number', async () => {
    const sent = await h.call('POST', 'sms_send', {
      area_code: '66',
      mobile: '0812345678',
      type: 'register',
    });
    expect(sent.body.type).toBe('ok');
    const code = h.outbox.lastCode('+66 812345678');
    const res = await h.call<{ token: string; user: { account: string; mobile: string } }>(
      'POST',
      'user/register',
      {
        type: 'mobile',
        area_code: '66',
        account: '812345678',
        code,
        password: 'secret123',
        re_password: 'secret123',
        agree: 'on',
      },
    );
    expect(res.body.type).toBe('ok');
    expect(res.body.data.user).toMatchObject({ account: '+66 812345678', mobile: '812345678' });
    expect(
      (await h.call('POST', 'user/check_mobile', { area_code: '66', mobile: '0812345678' })).body.data,
    ).toEqual({ exists: true });
    const login = await h.call('POST', 'user/login', {
      account: '0812345678',
      area_code: '66',
      password: 'secret123',
    });
    expect(login.body.message).toBe('Login success');
  });

  it('requires a valid phone number', async () => {
    expect(
      (await h.call('POST', 'sms_send', { area_code: '66', mobile: '', type: 'register' })).body.message,
    ).toBe('Please enter your phone number');
    expect(
      (await h.call('POST', 'sms_send', { area_code: '66', mobile: '12', type: 'register' })).body.message,
    ).toBe('Please enter a valid phone number');
    expect(
      (await h.call('POST', 'sms_send', { area_code: '66', mobile: '0212345', type: 'register' })).body
        .message,
    ).toBe('Please enter a valid phone number');
    expect(
      (await h.call('POST', 'sms_send', { area_code: '999', mobile: '812345678', type: 'register' })).body
        .message,
    ).toBe('Please choose a valid country code');
  });

  it('lists dialling codes with names in the request language, Thailand first', async () => {
    const th = await h.call<{ area_code: string; country: string; name: string }[]>(
      'POST',
      'area_code',
      {},
      { lang: 'th' },
    );
    expect(th.body.data[0]).toEqual({ area_code: '66', country: 'TH', name: 'ไทย' });
    const ja = await h.call<{ name: string }[]>('POST', 'area_code', {}, { lang: 'ja' });
    expect(ja.body.data[0]?.name).toBe('タイ');
    expect(ja.body.data.length).toBeGreaterThan(200);
  });
});

describe('login and sessions', () => {
  it('logs in by e-mail, and fails with one message for a wrong password or an unknown account', async () => {
    const u = await registerByEmail(h);
    const good = await h.call<{ token: string }>('POST', 'user/login', {
      account: u.email,
      password: u.password,
    });
    expect(good.body.type).toBe('ok');
    expect(good.body.data.token).toMatch(/^[\w-]{43}$/);
    const wrong = await h.call('POST', 'user/login', { account: u.email, password: 'nope123' });
    const unknown = await h.call('POST', 'user/login', { account: freshEmail(), password: 'nope123' });
    expect(wrong.body.message).toBe('Wrong account or password');
    expect(unknown.body.message).toBe('Wrong account or password');
    expect((await h.call('POST', 'user/login', { account: '', password: 'x' })).body.message).toBe(
      'Please enter your phone number or e-mail address',
    );
  });

  it('stores only a hash of the token', async () => {
    const u = await registerByEmail(h);
    const rows = await h.app.ctx.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM sessions WHERE token_hash = $1',
      [u.token],
    );
    expect(rows).toHaveLength(0);
  });

  it('answers 999 with HTTP 401 without a token, with a bad token, and after logout', async () => {
    const noToken = await h.call('GET', 'user/center');
    expect(noToken.status).toBe(401);
    expect(noToken.body).toEqual({ type: '999', code: 999, message: 'Please log in first' });
    const bad = await h.call('GET', 'user/center', undefined, { token: 'x'.repeat(43) });
    expect(bad.body).toMatchObject({ type: '999', message: 'Your session has ended. Please log in again' });

    const u = await registerByEmail(h);
    expect((await h.call('GET', 'user/center', undefined, { token: u.token })).body.type).toBe('ok');
    expect((await h.call('POST', 'user/logout', {}, { token: u.token })).body.message).toBe(
      'You have logged out',
    );
    expect((await h.call('GET', 'user/center', undefined, { token: u.token })).body.code).toBe(999);
  });

  it('limits login attempts with a localized 429', async () => {
    const limited = await startHarness({
      rateLimits: { login: 3, codes: 2, passwordChecks: 3, windowMs: 60_000 },
      addressRateLimits: { login: 1000, codes: 2, passwordChecks: 1000, windowMs: 60_000 },
    });
    try {
      const body = { account: 'someone@example.com', password: 'wrong-one' };
      for (let i = 0; i < 3; i++) expect((await limited.call('POST', 'user/login', body)).status).toBe(400);
      const blocked = await limited.call('POST', 'user/login', body, { lang: 'th' });
      expect(blocked.status).toBe(429);
      expect(blocked.body.type).toBe('error');
      expect(blocked.body.message).toMatch(/^ลองหลายครั้งเกินไป กรุณาลองใหม่ในอีก \d+ วินาที$/);
      // code sending is limited on its own: here by its ceiling per address, whatever the target
      for (let i = 0; i < 2; i++)
        await limited.call('POST', 'sms_mail', { email: `r${i}@example.com`, type: 'register' });
      const codes = await limited.call('POST', 'sms_mail', { email: 'r9@example.com', type: 'register' });
      expect(codes.status).toBe(429);
      expect(codes.body.message).toMatch(/^Too many attempts/);
    } finally {
      await limited.close();
    }
  });
});

describe('forgot password', () => {
  it('checks the code first, then sets the new password and ends every session', async () => {
    const u = await registerByEmail(h);
    expect((await h.call('POST', 'sms_mail', { email: freshEmail(), type: 'forget' })).body.message).toBe(
      'This account is not registered',
    );
    await h.call('POST', 'sms_mail', { email: u.email, type: 'forget' });
    const code = h.outbox.lastCode(u.email);
    const step1 = await h.call('POST', 'user/forget', { type: 'email', account: u.email, code });
    expect(step1.body).toMatchObject({ type: 'ok', data: { step: 'checked' } });
    const mismatch = await h.call('POST', 'user/forget', {
      type: 'email',
      account: u.email,
      code,
      password: 'newpass1',
      re_password: 'newpass2',
    });
    expect(mismatch.body.message).toBe('The two passwords are inconsistent');
    const step2 = await h.call('POST', 'user/forget', {
      type: 'email',
      account: u.email,
      code,
      password: 'newpass1',
      re_password: 'newpass1',
    });
    expect(step2.body.data).toEqual({ step: 'reset' });
    expect((await h.call('GET', 'user/center', undefined, { token: u.token })).body.code).toBe(999);
    expect((await h.call('POST', 'user/login', { account: u.email, password: u.password })).body.type).toBe(
      'error',
    );
    expect((await h.call('POST', 'user/login', { account: u.email, password: 'newpass1' })).body.type).toBe(
      'ok',
    );
    // the code is spent
    const reuse = await h.call('POST', 'user/forget', {
      type: 'email',
      account: u.email,
      code,
      password: 'newpass3',
      re_password: 'newpass3',
    });
    expect(reuse.body.message).toBe('The verification code is incorrect');
  });
});

describe('verification-code attempts under parallel guesses', () => {
  it('30 parallel user/forget guesses compare at most five codes; the right one, sent last, is refused and the password stays', async () => {
    const u = await registerByEmail(h);
    await h.call('POST', 'sms_mail', { email: u.email, type: 'forget' });
    const good = h.outbox.lastCode(u.email);
    const wrong = Array.from({ length: 40 }, (_, i) => String(100000 + i * 7919)).filter((c) => c !== good);
    const guesses = [...wrong.slice(0, 29), good];
    const results = await Promise.all(
      guesses.map((code) =>
        h.call('POST', 'user/forget', {
          type: 'email',
          account: u.email,
          code,
          password: 'newpass1',
          re_password: 'newpass1',
        }),
      ),
    );
    const messages = results.map((r) => r.body.message);
    // four wrong codes answered as wrong, the fifth used the last attempt: nothing more compared
    expect(messages.filter((m) => m === 'The verification code is incorrect')).toHaveLength(4);
    expect(messages.filter((m) => m === 'Too many wrong codes. Please request a new code')).toHaveLength(26);
    expect(results.at(-1)?.status).toBe(429);
    const [row] = await h.app.ctx.db.query<{ attempts: number }>(
      "SELECT attempts FROM verification_codes WHERE target = $1 AND purpose = 'forget'",
      [u.email],
    );
    expect(row?.attempts).toBe(5);
    // the right code, once the attempts are spent, is refused too
    const late = await h.call('POST', 'user/forget', {
      type: 'email',
      account: u.email,
      code: good,
      password: 'newpass1',
      re_password: 'newpass1',
    });
    expect(late.status).toBe(429);
    expect((await h.call('POST', 'user/login', { account: u.email, password: 'newpass1' })).body.type).toBe(
      'error',
    );
    expect((await h.call('POST', 'user/login', { account: u.email, password: u.password })).body.type).toBe(
      'ok',
    );
  });
});

describe('change login password (user/e_pwd)', () => {
  it('needs old, new and repeat; refuses a wrong old password; then revokes every session', async () => {
    const u = await registerByEmail(h);
    const other = await h.call<{ token: string }>('POST', 'user/login', {
      account: u.email,
      password: u.password,
    });
    // both sessions in use (and so in the server's session cache) before the change
    for (const token of [u.token, other.body.data.token])
      expect((await h.call('GET', 'user/center', undefined, { token })).body.type).toBe('ok');
    const call = (b: Record<string, string>) => h.call('POST', 'user/e_pwd', b, { token: u.token });
    expect((await call({ password: 'newpass1', re_password: 'newpass1' })).body.message).toBe(
      'Please enter the old password',
    );
    expect((await call({ old_password: u.password, re_password: 'x' })).body.message).toBe(
      'Please enter the password',
    );
    expect((await call({ old_password: u.password, password: 'newpass1' })).body.message).toBe(
      'Please confirm the password',
    );
    expect(
      (await call({ old_password: u.password, password: 'newpass1', re_password: 'newpass2' })).body.message,
    ).toBe('The two passwords are inconsistent');
    expect(
      (await call({ old_password: 'wrong-old', password: 'newpass1', re_password: 'newpass1' })).body.message,
    ).toBe('The old password is incorrect');
    const done = await call({ old_password: u.password, password: 'newpass1', re_password: 'newpass1' });
    expect(done.body.message).toBe('Password changed. Please log in again');
    expect((await h.call('GET', 'user/center', undefined, { token: u.token })).body.code).toBe(999);
    expect((await h.call('GET', 'user/center', undefined, { token: other.body.data.token })).body.code).toBe(
      999,
    );
    expect((await h.call('POST', 'user/login', { account: u.email, password: 'newpass1' })).body.type).toBe(
      'ok',
    );
  });
});

describe('fund password (safe/update_password)', () => {
  it('is exactly 6 digits, confirmed, and reported by user/has_password', async () => {
    const u = await registerByEmail(h);
    const set = (b: Record<string, string>) => h.call('POST', 'safe/update_password', b, { token: u.token });
    expect(
      (await h.call<{ has_password: boolean }>('POST', 'user/has_password', {}, { token: u.token })).body
        .data,
    ).toEqual({
      has_password: false,
    });
    for (const bad of ['12345', '1234567', 'abcdef', '12 456']) {
      expect((await set({ password: bad, re_password: bad })).body.message).toBe(
        'The fund password must be exactly 6 digits',
      );
    }
    expect((await set({ password: '123456', re_password: '654321' })).body.message).toBe(
      'The two passwords are inconsistent',
    );
    expect((await set({ password: '123456', re_password: '123456' })).body.message).toBe(
      'Fund password saved',
    );
    expect((await h.call('POST', 'user/has_password', {}, { token: u.token })).body.data).toEqual({
      has_password: true,
    });
    expect(
      (await h.call<{ has_fund_password: boolean }>('GET', 'user/center', undefined, { token: u.token })).body
        .data.has_fund_password,
    ).toBe(true);
  });

  it('changing it needs the old one or a code sent to the user', async () => {
    const u = await registerByEmail(h);
    const set = (b: Record<string, string>) => h.call('POST', 'safe/update_password', b, { token: u.token });
    await set({ password: '123456', re_password: '123456' });
    expect((await set({ password: '222222', re_password: '222222' })).body.message).toBe(
      'Please enter the current fund password or a verification code',
    );
    expect(
      (await set({ password: '222222', re_password: '222222', old_password: '999999' })).body.message,
    ).toBe('The fund password is incorrect. 4 attempts left');
    expect((await set({ password: '222222', re_password: '222222', old_password: '123456' })).body.type).toBe(
      'ok',
    );
    // by code: it goes to the user's own address whatever the body says
    const sent = await h.call(
      'POST',
      'sms_mail',
      { email: 'someone-else@example.com', type: 'fund_password' },
      { token: u.token },
    );
    expect(sent.body.type).toBe('ok');
    const code = h.outbox.lastCode(u.email);
    expect(
      (await set({ password: '333333', re_password: '333333', code, code_type: 'email' })).body.type,
    ).toBe('ok');
    expect((await h.call('POST', 'sms_mail', { email: u.email, type: 'fund_password' })).status).toBe(401);
  });

  it('locks after five wrong fund passwords', async () => {
    const u = await registerByEmail(h);
    const set = (b: Record<string, string>) => h.call('POST', 'safe/update_password', b, { token: u.token });
    await set({ password: '123456', re_password: '123456' });
    const messages: string[] = [];
    for (let i = 0; i < 5; i++)
      messages.push(
        (await set({ password: '222222', re_password: '222222', old_password: '000000' })).body.message,
      );
    expect(messages.at(-1)).toBe('Too many wrong fund passwords. Please try again in 30 minutes');
    // the right one is refused too while locked
    const locked = await set({ password: '222222', re_password: '222222', old_password: '123456' });
    expect(locked.status).toBe(423);
    expect(locked.body.message).toMatch(/^Too many wrong fund passwords/);
  });
});

describe('fund password lock-out under parallel guesses', () => {
  it('20 wrong fund passwords at once: at most five compared, then locked; the right one is refused while locked', async () => {
    const u = await registerByEmail(h);
    const set = (b: Record<string, string>) => h.call('POST', 'safe/update_password', b, { token: u.token });
    await set({ password: '123456', re_password: '123456' });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        set({ password: '222222', re_password: '222222', old_password: String(200000 + i) }),
      ),
    );
    const messages = results.map((r) => r.body.message);
    expect(messages.filter((m) => /^The fund password is incorrect/.test(m))).toHaveLength(4);
    expect(results.filter((r) => r.status === 423)).toHaveLength(16);
    const [row] = await h.app.ctx.db.query<{ failures: number; locked: boolean }>(
      `SELECT fund_password_failures AS failures, fund_password_locked_until > now() AS locked
         FROM users WHERE id = $1`,
      [u.user.id],
    );
    expect(row).toEqual({ failures: 5, locked: true });
    const right = await set({ password: '222222', re_password: '222222', old_password: '123456' });
    expect(right.status).toBe(423);
    expect(right.body.message).toBe('Too many wrong fund passwords. Please try again in 30 minutes');
    // once the lock has run out the right one works, and only that clears the count
    await h.app.ctx.db.query(
      "UPDATE users SET fund_password_locked_until = now() - interval '1 second' WHERE id = $1",
      [u.user.id],
    );
    const wrongAgain = await set({ password: '222222', re_password: '222222', old_password: '000000' });
    expect(wrongAgain.body.message).toBe('The fund password is incorrect. 4 attempts left');
    expect((await set({ password: '222222', re_password: '222222', old_password: '123456' })).body.type).toBe(
      'ok',
    );
  });
});

describe('fund password lock-out across processes', () => {
  it('the database alone caps parallel guesses: 20 checks through separate services compare at most five', async () => {
    const u = await registerByEmail(h);
    await h.call(
      'POST',
      'safe/update_password',
      { password: '123456', re_password: '123456' },
      { token: u.token },
    );
    // each service gets a database handle of its own identity, so nothing queues them in this
    // process: as if each came from a different server process
    const services = Array.from({ length: 20 }, () =>
      userService({ ...h.app.ctx, db: Object.create(h.app.ctx.db) as typeof h.app.ctx.db }),
    );
    const outcomes = await Promise.all(
      services.map((s, i) =>
        s.verifyFundPassword(u.user.id, String(300000 + i)).then(
          () => 'ok',
          (e: AppError) => e.messageKey,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'fund.wrong')).toHaveLength(4);
    expect(outcomes.filter((o) => o === 'fund.locked')).toHaveLength(16);
    const right = await services[0]!
      .verifyFundPassword(u.user.id, '123456')
      .catch((e: AppError) => e.messageKey);
    expect(right).toBe('fund.locked');
  });
});

describe('profile, language and contacts', () => {
  it('user/center shows what the account page needs; nickname can change', async () => {
    const u = await registerByEmail(h);
    const c = await h.call<Record<string, unknown>>('GET', 'user/center', undefined, { token: u.token });
    expect(c.body.data).toMatchObject({
      account: u.email,
      email: u.email,
      mobile: null,
      lang: 'en',
      verification: 'none',
      has_fund_password: false,
    });
    expect(c.body.data.invite_code).toMatch(/^[A-Z2-9]{8}$/);
    expect((await h.call('POST', 'user/nickname', { nickname: 'x' }, { token: u.token })).body.message).toBe(
      'The nickname must be 2 to 20 characters',
    );
    const renamed = await h.call<{ nickname: string }>(
      'POST',
      'user/nickname',
      { nickname: 'กบเขียว' },
      { token: u.token },
    );
    expect(renamed.body.data.nickname).toBe('กบเขียว');
  });

  it('set/lang keeps the choice on the account; get/lang returns it', async () => {
    const u = await registerByEmail(h);
    const set = await h.call<{ lang: string }>('POST', 'set/lang', { lang: 'ja' }, { token: u.token });
    expect(set.body.data.lang).toBe('ja');
    expect(set.body.message).toBe('操作が完了しました');
    expect((await h.call<{ lang: string }>('POST', 'get/lang', {}, { token: u.token })).body.data.lang).toBe(
      'ja',
    );
    expect((await h.call('POST', 'set/lang', { lang: 'xx' })).body.message).toBe(
      'This language is not supported',
    );
    expect((await h.call<{ lang: string }>('POST', 'get/lang', {}, { lang: 'ko' })).body.data.lang).toBe(
      'ko',
    );
  });

  it('set/sms_other_mail binds a phone to an e-mail account with a code; user/center2 shows it', async () => {
    const u = await registerByEmail(h);
    expect(
      (await h.call('POST', 'sms_send', { area_code: '66', mobile: '898765432', type: 'bind' })).status,
    ).toBe(401);
    await h.call(
      'POST',
      'sms_send',
      { area_code: '66', mobile: '898765432', type: 'bind' },
      { token: u.token },
    );
    const code = h.outbox.lastCode('+66 898765432');
    const bound = await h.call<{ mobile: string }>(
      'POST',
      'set/sms_other_mail',
      { type: 'mobile', area_code: '66', account: '898765432', code },
      { token: u.token },
    );
    expect(bound.body.message).toBe('Binding successful');
    expect(bound.body.data.mobile).toBe('898765432');
    const c2 = await h.call<Record<string, unknown>>('GET', 'user/center2', undefined, { token: u.token });
    expect(c2.body.data).toMatchObject({
      mobile_bound: true,
      email_bound: true,
      has_fund_password: false,
      active_sessions: 1,
    });
    const again = await h.call(
      'POST',
      'set/sms_other_mail',
      { type: 'mobile', area_code: '66', account: '898765432', code },
      { token: u.token },
    );
    expect(again.body.message).toBe('This contact is already bound to your account');
  });

  it('set/get_customer_url says where online service leads', async () => {
    expect((await h.call<{ url: string }>('POST', 'set/get_customer_url')).body.data.url).toBe(
      '#/pages/help-center/chat',
    );
  });
});
