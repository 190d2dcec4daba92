import type {
  AdminReferralMember,
  ContractPosition,
  OptionOrder,
  ReferralInvite,
  ReferralRanking,
  ReferralRebatePage,
  ReferralRefereePage,
  ReferralShare,
} from '@verdant/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, post, type UserAccountType } from '../../ledger/ledger.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import { freshEmail, type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin } from '../admin/testing.ts';
import { fundOption, tick } from '../option/test-helpers.ts';
import { BTC, fund, place, USDT } from '../spot/test-helpers.ts';
import { maskAccount } from './service.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(async () => {
  // every scenario leaves the ledger provably whole: rebates move value, never make it
  expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
});

const c = (v: string) => (v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v);
const bal = async (userId: number, type: UserAccountType, currencyId: number) =>
  c((await balanceOf(h.app.ctx.db, { userId, type, currencyId })).available);
const fees = async (currencyId: number) =>
  c((await balanceOf(h.app.ctx.db, { house: 'fees', currencyId })).available);
const minus = (a: string, b: string) => c((Number(a) - Number(b)).toFixed(12));

/** Registers through the real endpoints with `inviter`'s code, as the link's page does. */
async function referee(inviter: { user: { invite_code: string } }) {
  const email = freshEmail();
  await h.call('POST', 'sms_mail', { email, type: 'register' });
  const res = await h.call<{ token: string; user: { id: number; invite_code: string } }>(
    'POST',
    'user/register',
    {
      type: 'email',
      account: email,
      code: h.outbox.lastCode(email),
      password: 'secret123',
      re_password: 'secret123',
      agree: '1',
      invite_code: inviter.user.invite_code,
    },
  );
  if (res.body.type !== 'ok') throw new Error(res.body.message);
  return { email, token: res.body.data.token, user: res.body.data.user };
}

const get = <T>(path: string, token: string, q: Record<string, string> = {}) =>
  h.call<T>('GET', path, q, { token });

async function setExclusive(token: string, userId: number, rate: string | null) {
  return h.call<AdminReferralMember>(
    'POST',
    'admin/referral/member',
    { user_id: String(userId), exclusive: rate === null ? '0' : '1', ...(rate ? { rate } : {}) },
    { token },
  );
}

describe('invitation code, link, share and poster', () => {
  it('every user has a code and a link to registration with the code filled in', async () => {
    const r = await registerByEmail(h);
    const inv = await get<ReferralInvite>('user/invite', r.token);
    expect(inv.body.data).toMatchObject({
      invite_code: r.user.invite_code,
      link: `/h5/#/pages/user/login/register?invite=${r.user.invite_code}`,
      authorisation_code: null,
      promoted_count: 0,
      total_earnings: '0',
      earnings: [],
      pending_payout: '0',
      rate: '0.2',
      exclusive: false,
    });
    const a = await referee(r);
    const mine = await get<ReferralInvite>('user/invite', a.token);
    // the code a user registered with is its authorisation code
    expect(mine.body.data.authorisation_code).toBe(r.user.invite_code);
    expect((await get<ReferralInvite>('user/invite', r.token)).body.data.promoted_count).toBe(1);
    const share = await h.call<ReferralShare>('GET', 'user/my_share', {}, { token: r.token, lang: 'th' });
    expect(share.body.data.text).toContain(r.user.invite_code);
    expect(share.body.data.text).toContain('รหัสเชิญ');
  });

  it('the poster is an SVG picture with a QR code and the code, in the user’s language', async () => {
    const r = await registerByEmail(h);
    const res = await h.inject({
      method: 'GET',
      url: '/api/user/my_poster',
      headers: { authorization: r.token, lang: 'ja', host: 'exchange.example' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('image/svg+xml');
    expect(res.body).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*<\/svg>\s*$/);
    expect(res.body).toContain(r.user.invite_code);
    expect(res.body).toContain('私の招待コード');
    // the QR code: one path of many dark modules
    expect((res.body.match(/h1v1h-1z/g) ?? []).length).toBeGreaterThan(200);
    const en = await h.inject({
      method: 'GET',
      url: '/api/user/my_poster',
      headers: { authorization: r.token, lang: 'en' },
    });
    expect(en.body).toContain('My invitation code');
  });

  it('asks a visitor to log in', async () => {
    for (const path of [
      'user/invite',
      'user/my_share',
      'user/my_poster',
      'user/my_invite_list',
      'user/my_account_return',
    ]) {
      const res = await h.inject({ method: 'GET', url: `/api/${path}`, headers: { lang: 'en' } });
      expect(res.statusCode, path).toBe(401);
      expect(res.json()).toMatchObject({ type: '999', code: 999 });
    }
  });
});

describe('rebates on each kind of fee', () => {
  it('spot: the referee’s fee earns its referrer the default rate, in the fee’s currency; no referrer, no rebate', async () => {
    const r = await registerByEmail(h);
    const buyer = await referee(r);
    const seller = await registerByEmail(h);
    await fund(h.app, buyer.user.id, USDT, '1000');
    await fund(h.app, seller.user.id, BTC, '1');
    const [fb0, fu0] = [await fees(BTC), await fees(USDT)];
    await place(h.app, buyer.token, { side: 'buy', type: 'limit', price: '60000', qty: '0.004' });
    const sold = await place(h.app, seller.token, {
      side: 'sell',
      type: 'limit',
      price: '60000',
      qty: '0.004',
    });
    expect(sold.body.data.status).toBe('completed');
    // buyer pays 0.004 × 0.1 % = 0.000004 BTC; 20 % of it comes back to the referrer
    expect(await bal(r.user.id, 'spot', BTC)).toBe('0.0000008');
    expect(minus(await fees(BTC), fb0)).toBe('0.0000032');
    // the seller has no referrer: the whole 0.24 USDT stays with the house
    expect(minus(await fees(USDT), fu0)).toBe('0.24');
    const records = await get<ReferralRebatePage>('user/my_account_return', r.token);
    expect(records.body.data).toMatchObject({ total: 1, page: 1 });
    expect(records.body.data.list[0]).toMatchObject({
      kind: 'spot',
      referee: maskAccount(buyer.email),
      currency: 'BTC',
      fee: '0.000004',
      rate: '0.2',
      amount: '0.0000008',
      account_type: 'spot',
    });
    const inv = await get<ReferralInvite>('user/invite', r.token);
    expect(inv.body.data.earnings).toEqual([{ currency: 'BTC', currency_id: BTC, amount: '0.0000008' }]);
  });

  it('contract: the open and the close fees each earn a rebate into the referrer’s contract account', async () => {
    const r = await registerByEmail(h);
    const u = await referee(r);
    await h.app.ctx.db.query(
      `INSERT INTO index_ticks (market_id, price, source, created_at) VALUES (1, '60000', 'test', now())`,
    );
    await fundContract(u.user.id, '1000');
    const f0 = await fees(USDT);
    const open = await h.call<ContractPosition>(
      'POST',
      'lever/submit',
      { symbol: 'btcusdt', multiple: '10', direction: 'long', lots: '3' },
      { token: u.token },
    );
    expect(open.body).toMatchObject({ type: 'ok', data: { fee: '0.9' } });
    // 20 % of 0.9
    expect(await bal(r.user.id, 'contract', USDT)).toBe('0.18');
    await h.app.ctx.db.query(
      `INSERT INTO index_ticks (market_id, price, source, created_at) VALUES (1, '61000', 'test', now())`,
    );
    const closed = await h.call('POST', 'lever/close', { id: open.body.data.id }, { token: u.token });
    expect(closed.body.type).toBe('ok');
    // close fee 3 lots × 61,000 × 0.01 lot value × 0.0005 = 0.915 → 0.183
    expect(await bal(r.user.id, 'contract', USDT)).toBe('0.363');
    expect(minus(await fees(USDT), f0)).toBe(minus('1.815', '0.363'));
    const rows = (await get<ReferralRebatePage>('user/my_account_return', r.token)).body.data.list;
    expect(rows.map((x) => [x.kind, x.fee, x.amount])).toEqual([
      ['contract', '0.915', '0.183'],
      ['contract', '0.9', '0.18'],
    ]);
  });

  it('option: a win’s fee earns the exclusive rate an operator set, into the referrer’s option account', async () => {
    const admin = await operatorLogin(h, 'admin');
    const r = await registerByEmail(h);
    expect((await setExclusive(admin.token, r.user.id, '0.5')).body.data).toMatchObject({
      exclusive: true,
      rate: '0.5',
    });
    const u = await referee(r);
    await h.app.ctx.db.query(`UPDATE users SET verification = 'verified' WHERE id = $1`, [u.user.id]);
    await fundOption(h.app, u.user.id, '1000');
    await tick(h.app, '100', Date.now() - 1, 2);
    const o = await h.call<OptionOrder>(
      'POST',
      'microtrade/submit',
      { symbol: 'ethusdt', seconds: '30', currency: 'USDT', direction: 'bullish', amount: '100' },
      { token: u.token },
    );
    expect(o.body.type).toBe('ok');
    const due = Date.parse(o.body.data.deliver_at);
    await tick(h.app, '100.01', due + 400, 2);
    const f0 = await fees(USDT);
    expect(await h.app.option.settleDue(due + 1000)).toBe(1);
    // the win's fee is 1.6; half of it goes to the exclusive member
    expect(await bal(r.user.id, 'option', USDT)).toBe('0.8');
    expect(minus(await fees(USDT), f0)).toBe('0.8');
    const inv = (await get<ReferralInvite>('user/invite', r.token)).body.data;
    expect(inv).toMatchObject({ exclusive: true, rate: '0.5', total_earnings: '0.8' });
  });
});

async function fundContract(userId: number, amount: string) {
  await h.app.ctx.db.tx((q) =>
    post(q, {
      reason: 'deposit',
      legs: [
        { account: { userId, type: 'contract', currencyId: USDT }, available: amount },
        { account: { house: 'deposits', currencyId: USDT }, available: `-${amount}` },
      ],
    }),
  );
}

describe('ranking and referees', () => {
  it('ranks promoters by rebates valued in USDT, top 10 only, accounts masked', async () => {
    // eleven promoters with 1..11 USDT of rebates each (rows as the fee writers leave them)
    const ids: number[] = [];
    for (let i = 1; i <= 11; i++) {
      const [u] = await h.app.ctx.db.query<{ id: number }>(
        `INSERT INTO users (nickname, account_type, email, password_hash, invite_code)
         VALUES ('p', 'email', $1, 'x', $2) RETURNING id`,
        [`promoter${i}.rank@example.com`, `RANK${String(i).padStart(4, '0')}`],
      );
      ids.push(u!.id);
    }
    const payer = await registerByEmail(h);
    for (const [i, id] of ids.entries())
      await h.app.ctx.db.query(
        `INSERT INTO referral_rebates (referrer_id, referee_id, kind, currency_id, fee, rate, amount, ref_type, ref_id)
         VALUES ($1, $2, 'spot', $3, $4, 0.2, $5, 'spot_order', '0')`,
        [id, payer.user.id, USDT, String((i + 1) * 5), String((i + 100) * 1)],
      );
    const res = await h.call<ReferralRanking>('GET', 'user/invite_list');
    const list = res.body.data.list;
    expect(list).toHaveLength(10);
    expect(list.map((x) => x.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(list[0]).toEqual({ rank: 1, account: 'pr***@example.com', rebate: '110' });
    expect(list.map((x) => x.rebate)).toEqual([
      '110',
      '109',
      '108',
      '107',
      '106',
      '105',
      '104',
      '103',
      '102',
      '101',
    ]);
    // the promoter with the least is not shown
    expect(list.some((x) => x.rebate === '100')).toBe(false);
    expect(JSON.stringify(list)).not.toContain('promoter');
  });

  it('masks e-mail and phone accounts', () => {
    expect(maskAccount('alice@example.com')).toBe('al***@example.com');
    expect(maskAccount('a@x.io')).toBe('a***@x.io');
    expect(maskAccount('+66 812345678')).toBe('+66****78');
  });

  it('lists my referees, newest first, with what each one’s fees earned me', async () => {
    const r = await registerByEmail(h);
    const a = await referee(r);
    const b = await referee(r);
    const seller = await registerByEmail(h);
    await fund(h.app, seller.user.id, BTC, '1');
    await fund(h.app, b.user.id, USDT, '1000');
    await place(h.app, seller.token, { side: 'sell', type: 'limit', price: '50000', qty: '0.01' });
    await place(h.app, b.token, { side: 'buy', type: 'limit', price: '50000', qty: '0.01' });
    await h.app.ctx.db.query(`UPDATE users SET verification = 'verified' WHERE id = $1`, [a.user.id]);
    const page = await get<ReferralRefereePage>('user/my_invite_list', r.token);
    expect(page.body.data.total).toBe(2);
    expect(page.body.data.list.map((x) => x.verified)).toEqual([false, true]);
    expect(page.body.data.list.map((x) => x.account)).toEqual([maskAccount(b.email), maskAccount(a.email)]);
    expect(page.body.data.list[1]!.rebate).toBe('0');
    // 0.01 BTC × 0.1 % × 20 % = 0.000002 BTC, valued at the latest BTC index price
    const [p] = await h.app.ctx.db.query<{ price: string }>(
      'SELECT price::text FROM index_ticks WHERE market_id = 1 ORDER BY id DESC LIMIT 1',
    );
    const expected = p ? Number((Number(p.price) * 0.000002).toFixed(6)) : 0;
    expect(Number(page.body.data.list[0]!.rebate)).toBeCloseTo(expected, 6);
    const bad = await h.call('GET', 'user/my_invite_list', { page: 'x' }, { token: r.token, lang: 'en' });
    expect(bad.status).toBe(400);
  });
});

describe('operators: admin/referral/member', () => {
  it('a user token is not an operator (999); a reviewer or support operator is refused (403)', async () => {
    const u = await registerByEmail(h);
    const asUser = await h.call(
      'GET',
      'admin/referral/member',
      { user_id: String(u.user.id) },
      { token: u.token },
    );
    expect(asUser.body.code).toBe(999);
    for (const role of ['reviewer', 'support'] as const) {
      const op = await operatorLogin(h, role);
      const g = await h.call(
        'GET',
        'admin/referral/member',
        { user_id: String(u.user.id) },
        { token: op.token },
      );
      expect(g.status, role).toBe(403);
      const p = await setExclusive(op.token, u.user.id, '0.4');
      expect(p.status, role).toBe(403);
    }
    expect((await get<ReferralInvite>('user/invite', u.token)).body.data.exclusive).toBe(false);
  });

  it('shows and sets the status, audited with before and after; bad input changes nothing', async () => {
    const admin = await operatorLogin(h, 'admin');
    const u = await registerByEmail(h);
    const shown = await h.call<AdminReferralMember>(
      'GET',
      'admin/referral/member',
      { user_id: String(u.user.id) },
      { token: admin.token },
    );
    expect(shown.body.data).toMatchObject({
      user_id: u.user.id,
      account: u.email,
      invite_code: u.user.invite_code,
      exclusive: false,
      rate: '0.2',
      default_rate: '0.2',
      updated_at: null,
    });
    for (const [body, message] of [
      [{ user_id: String(u.user.id), exclusive: '1' }, 'Enter the exclusive rebate rate'],
      [
        { user_id: String(u.user.id), exclusive: '1', rate: '1.5' },
        'The rebate rate must be a number from 0 to 1 with at most 8 decimals',
      ],
      [
        { user_id: String(u.user.id), exclusive: '1', rate: 'abc' },
        'The rebate rate must be a number from 0 to 1 with at most 8 decimals',
      ],
      [{ user_id: String(u.user.id), exclusive: 'maybe' }, 'Choose whether the member is exclusive'],
    ] as const) {
      const r = await h.call('POST', 'admin/referral/member', body, { token: admin.token, lang: 'en' });
      expect(r.status).toBe(400);
      expect(r.body.message).toBe(message);
    }
    const th = await h.call(
      'POST',
      'admin/referral/member',
      { user_id: String(u.user.id), exclusive: '1' },
      { token: admin.token, lang: 'th' },
    );
    expect(th.body.message).toBe('โปรดระบุอัตราเงินคืนพิเศษ');
    const missing = await setExclusive(admin.token, 99_999_999, '0.3');
    expect(missing.status).toBe(404);
    expect(await auditRows(h, 'user', u.user.id)).toEqual([]);

    expect((await setExclusive(admin.token, u.user.id, '0.35')).body.data).toMatchObject({
      exclusive: true,
      rate: '0.35',
    });
    expect((await setExclusive(admin.token, u.user.id, null)).body.data).toMatchObject({
      exclusive: false,
      rate: '0.2',
    });
    const audit = await auditRows(h, 'user', u.user.id);
    expect(audit.map((a) => [a.action, a.operator_id, a.before, a.after])).toEqual([
      [
        'referral.member',
        admin.id,
        { exclusive: false, rate: null },
        { exclusive: true, rate: '0.35000000' },
      ],
      [
        'referral.member',
        admin.id,
        { exclusive: true, rate: '0.35000000' },
        { exclusive: false, rate: null },
      ],
    ]);
  });

  it('twenty changes at once are applied one after another: each audit entry starts where the last ended', async () => {
    const admin = await operatorLogin(h, 'admin');
    const u = await registerByEmail(h);
    const rates = Array.from({ length: 20 }, (_, i) => `0.${String(i + 10)}`);
    const answers = await Promise.all(rates.map((r) => setExclusive(admin.token, u.user.id, r)));
    expect(answers.map((a) => a.status)).toEqual(rates.map(() => 200));
    const audit = await auditRows(h, 'user', u.user.id);
    expect(audit).toHaveLength(20);
    for (let i = 1; i < audit.length; i++) expect(audit[i]!.before).toEqual(audit[i - 1]!.after);
    const last = audit.at(-1)!.after as { rate: string };
    const now = await h.call<AdminReferralMember>(
      'GET',
      'admin/referral/member',
      { user_id: String(u.user.id) },
      { token: admin.token },
    );
    expect(Number(now.body.data.rate)).toBe(Number(last.rate));
  });
});

describe('rebates under load', () => {
  it('twenty sellers at once into one bid, half of them referees: each referee’s fee earns its exact rebate', async () => {
    const r = await registerByEmail(h);
    const buyer = await registerByEmail(h);
    await fund(h.app, buyer.user.id, USDT, '1500');
    const sellers = [];
    for (let i = 0; i < 20; i++) {
      const u = i % 2 === 0 ? await referee(r) : await registerByEmail(h);
      await fund(h.app, u.user.id, BTC, '0.001');
      sellers.push(u);
    }
    const bid = await place(h.app, buyer.token, { side: 'buy', type: 'limit', price: '60000', qty: '0.02' });
    expect(bid.body.data.status).toBe('waiting');
    const f0 = await fees(USDT);
    const sold = await Promise.all(
      sellers.map((u) =>
        place(h.app, u.token, { side: 'sell', type: 'limit', price: '60000', qty: '0.001' }),
      ),
    );
    expect(sold.map((x) => x.body.data?.status ?? x.body.message)).toEqual(sellers.map(() => 'completed'));
    // each sale pays 60 × 0.1 % = 0.06 USDT; ten referees' fees give 10 × 0.012
    expect(await bal(r.user.id, 'spot', USDT)).toBe('0.12');
    expect(minus(await fees(USDT), f0)).toBe(minus('1.2', '0.12'));
    const page = await get<ReferralRebatePage>('user/my_account_return', r.token, { limit: '100' });
    expect(page.body.data.list.map((x) => x.amount)).toEqual(Array.from({ length: 10 }, () => '0.012'));
  });

  it('twenty referees opening contracts at once each credit their exact rebate', async () => {
    const r = await registerByEmail(h);
    const users = [];
    for (let i = 0; i < 20; i++) users.push(await referee(r));
    for (const u of users) await fundContract(u.user.id, '100');
    await h.app.ctx.db.query(
      `INSERT INTO index_ticks (market_id, price, source, created_at) VALUES (1, '60000', 'test', now())`,
    );
    const f0 = await fees(USDT);
    const opened = await Promise.all(
      users.map((u) =>
        h.call<ContractPosition>(
          'POST',
          'lever/submit',
          { symbol: 'btcusdt', multiple: '10', direction: 'short', lots: '1' },
          { token: u.token },
        ),
      ),
    );
    expect(opened.map((o) => o.body.data?.fee ?? o.body.message)).toEqual(users.map(() => '0.3'));
    // 20 × 0.3 × 20 %
    expect(await bal(r.user.id, 'contract', USDT)).toBe('1.2');
    expect(minus(await fees(USDT), f0)).toBe('4.8');
    const page = await get<ReferralRebatePage>('user/my_account_return', r.token, { limit: '100' });
    expect(page.body.data.total).toBe(20);
  });
});
