import type { AdminDashboard, AdminUser, AdminUserDetail, LedgerCheck } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { FUND_PASSWORD, fund, readyToWithdraw, USDT } from '../wallet/test-helpers.ts';
import { auditRows, operatorLogin } from './testing.ts';

// The console's users and dashboard (issue 23): search, detail, freezes and their effects, roles, audit.
let h: Harness;
let admin: { id: number; token: string };
let reviewer: { id: number; token: string };
let support: { id: number; token: string };
beforeAll(async () => {
  h = await startHarness();
  admin = await operatorLogin(h, 'admin');
  reviewer = await operatorLogin(h, 'reviewer');
  support = await operatorLogin(h, 'support');
});
afterAll(() => h.close());

const users = (q: string, token = reviewer.token) =>
  h.call<{ items: AdminUser[]; total: number }>('GET', 'admin/users', { q }, { token });
const detail = (userId: number, token = reviewer.token) =>
  h.call<AdminUserDetail>('GET', 'admin/users/detail', { user_id: String(userId) }, { token });
const freeze = (
  body: Record<string, string>,
  unfreeze = false,
  token = admin.token,
  lang: 'en' | 'th' = 'en',
) =>
  h.call<AdminUserDetail>('POST', unfreeze ? 'admin/users/unfreeze' : 'admin/users/freeze', body, {
    token,
    lang,
  });

describe('admin/users search', () => {
  it('finds a user by e-mail, phone, invite code and id, and nobody else', async () => {
    const a = await registerByEmail(h);
    const b = await registerByEmail(h);
    await h.app.ctx.db.query("UPDATE users SET area_code = '66', mobile = '812345098' WHERE id = $1", [
      a.user.id,
    ]);
    const ids = async (q: string) => (await users(q)).body.data.items.map((u) => u.id);
    expect(await ids(a.email.toUpperCase())).toEqual([a.user.id]);
    expect(await ids('2345098')).toEqual([a.user.id]);
    expect(await ids(b.user.invite_code.toLowerCase())).toEqual([b.user.id]);
    expect(await ids(String(b.user.id))).toContain(b.user.id);
    expect(await ids('no-such-person@nowhere')).toEqual([]);
    const row = (await users(b.email)).body.data.items[0]!;
    expect(row).toMatchObject({ invite_code: b.user.invite_code, status: 'active', withdraw_frozen: false });
  });
});

describe('admin/users/detail', () => {
  it("shows the user's balances, referrals and empty activity lists", async () => {
    const inviter = await registerByEmail(h);
    const invitee = await registerByEmail(h);
    await h.app.ctx.db.query('UPDATE users SET invited_by = $1 WHERE id = $2', [
      inviter.user.id,
      invitee.user.id,
    ]);
    await fund(h, inviter, '250');
    const res = await detail(inviter.user.id);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.user.id).toBe(inviter.user.id);
    expect(d.balances).toEqual([expect.objectContaining({ type: 'spot', symbol: 'USDT', available: '250' })]);
    expect(d.invitee_count).toBe(1);
    expect(d.invitees[0]).toMatchObject({ id: invitee.user.id, account: invitee.email });
    expect((await detail(invitee.user.id)).body.data.inviter_account).toBe(inviter.email);
    expect(d).toMatchObject({ spot_orders: [], contract_positions: [], option_orders: [], trust_orders: [] });
  });

  it('answers a missing user with a clear error', async () => {
    const res = await detail(99999999);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('This user does not exist');
  });
});

describe('freezing a user', () => {
  it('a frozen login is refused in the user language, the live session ends, unfreezing lets them in', async () => {
    const u = await registerByEmail(h);
    expect((await h.call('GET', 'user/center', undefined, { token: u.token })).status).toBe(200);
    const res = await freeze({ user_id: String(u.user.id), target: 'login', reason: 'chargeback' });
    expect(res.status).toBe(200);
    expect(res.body.data.user.status).toBe('disabled');
    // the session the user had is over at once
    expect((await h.call('GET', 'user/center', undefined, { token: u.token })).status).toBe(401);
    const refused = await h.call(
      'POST',
      'user/login',
      { account: u.email, password: u.password },
      { lang: 'th' },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('บัญชีนี้ถูกระงับ กรุณาติดต่อฝ่ายบริการลูกค้า');
    await freeze({ user_id: String(u.user.id), target: 'login', reason: 'resolved' }, true);
    const again = await h.call('POST', 'user/login', { account: u.email, password: u.password });
    expect(again.body.type).toBe('ok');
    const audit = await auditRows(h, 'user', u.user.id);
    expect(audit.map((a) => a.action)).toEqual(['user.freeze', 'user.unfreeze']);
    expect(audit[0]).toMatchObject({
      operator_id: admin.id,
      before: { status: 'active', target: 'login', reason: 'chargeback' },
      after: { status: 'disabled' },
    });
  });

  it('frozen withdrawals are refused with a clear message and nothing frozen; other money still moves', async () => {
    const { u, addressId } = await readyToWithdraw(h, '1000');
    await freeze({ user_id: String(u.user.id), target: 'withdraw', reason: 'under investigation' });
    const body = {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '200',
      fund_password: FUND_PASSWORD,
    };
    const refused = await h.call('POST', 'wallet/out', body, { token: u.token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'Withdrawals are frozen on this account. Please contact customer service',
    );
    const [bal] = await h.app.ctx.db.query<{ frozen: string }>(
      "SELECT trim_scale(frozen)::text AS frozen FROM ledger_accounts WHERE user_id = $1 AND type = 'spot'",
      [u.user.id],
    );
    expect(bal!.frozen).toBe('0');
    // the login still works: only withdrawals are frozen
    expect((await h.call('GET', 'user/center', undefined, { token: u.token })).status).toBe(200);
    await freeze({ user_id: String(u.user.id), target: 'withdraw', reason: 'cleared' }, true);
    expect((await h.call('POST', 'wallet/out', body, { token: u.token })).body.type).toBe('ok');
  });

  it('checks the target and the reason, and a second freeze changes nothing and is not audited twice', async () => {
    const u = await registerByEmail(h);
    const id = String(u.user.id);
    const noReason = await freeze({ user_id: id, target: 'login', reason: ' ' });
    expect(noReason.body).toMatchObject({ type: 'error', message: 'Please enter the reason' });
    const badTarget = await freeze({ user_id: id, target: 'trading', reason: 'x' }, false, admin.token, 'th');
    expect(badTarget.body.message).toBe('เลือกสิ่งที่จะระงับ: การเข้าสู่ระบบหรือการถอนเงิน');
    await freeze({ user_id: id, target: 'withdraw', reason: 'one' });
    await freeze({ user_id: id, target: 'withdraw', reason: 'two' });
    expect((await auditRows(h, 'user', id)).length).toBe(1);
  });
});

describe('dashboard and ledger check', () => {
  it('counts users, money requests, pools and volumes', async () => {
    const u = await registerByEmail(h);
    await fund(h, u, '40');
    const res = await h.call<AdminDashboard>('GET', 'admin/dashboard', undefined, { token: reviewer.token });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d.users.total).toBeGreaterThanOrEqual(1);
    expect(d.users.new_today).toBe(d.users.total);
    expect(d.deposits.approved_today).toEqual(
      expect.arrayContaining([expect.objectContaining({ symbol: 'USDT' })]),
    );
    expect(d.spot_volumes.map((v) => v.symbol)).toContain('BTCUSDT');
    expect(d.open_interest.length).toBeGreaterThan(0);
  });

  it('runs the ledger verification for admins', async () => {
    const res = await h.call<LedgerCheck>('POST', 'admin/ledger/verify', undefined, { token: admin.token });
    expect(res.body.data).toMatchObject({ ok: true, problems: [] });
    expect(res.body.data.entries).toBeGreaterThan(0);
  });
});

describe('roles', () => {
  it('a user token gets 999 and a role not allowed gets 403 on every new route', async () => {
    const u = await registerByEmail(h);
    const routes: ['GET' | 'POST', string, string[]][] = [
      ['GET', 'admin/users/detail', ['support']],
      ['POST', 'admin/users/freeze', ['support', 'reviewer']],
      ['POST', 'admin/users/unfreeze', ['support', 'reviewer']],
      ['GET', 'admin/dashboard', ['support']],
      ['POST', 'admin/ledger/verify', ['support', 'reviewer']],
    ];
    const tokens: Record<string, string> = { support: support.token, reviewer: reviewer.token };
    for (const [method, path, refused] of routes) {
      const asUser = await h.call(method, path, { user_id: String(u.user.id) }, { token: u.token });
      expect(asUser.status, path).toBe(401);
      expect(asUser.body.code, path).toBe(999);
      for (const role of refused) {
        const r = await h.call(method, path, { user_id: String(u.user.id) }, { token: tokens[role]! });
        expect(r.status, `${path} as ${role}`).toBe(403);
      }
    }
  });
});
