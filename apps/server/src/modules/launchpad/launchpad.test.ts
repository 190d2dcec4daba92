import type {
  AdminLaunchpadOrder,
  LaunchpadConfig,
  LaunchpadOrder,
  LaunchpadOrderPage,
  LaunchpadProject,
  LaunchpadProjectInfo,
} from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, post } from '../../ledger/ledger.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { operatorLogin } from '../admin/testing.ts';

let h: Harness;
let op: { token: string; id: number };
beforeAll(async () => {
  h = await startHarness();
  op = await operatorLogin(h, 'admin');
});
afterAll(async () => {
  await h.close();
});

const USDT = 3;
const VDT = 12;
const c = (v: string) => v.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
const clean = async () => (await verifyLedger(h.app.ctx.db)).problems;

async function subscriber(usdt = '100000') {
  const u = await registerByEmail(h);
  await h.app.ctx.db.tx((q) =>
    post(q, {
      reason: 'deposit',
      legs: [
        { account: { userId: u.user.id, type: 'spot', currencyId: USDT }, available: usdt },
        { account: { house: 'deposits', currencyId: USDT }, available: `-${usdt}` },
      ],
    }),
  );
  return u;
}
async function spot(userId: number, currencyId: number) {
  const b = await balanceOf(h.app.ctx.db, { userId, type: 'spot', currencyId });
  return { available: c(b.available), frozen: c(b.frozen) };
}
const subscribe = (token: string, body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<LaunchpadOrder>('POST', 'lh/send/order', { project_id: '1', ...body }, { token, lang });
const adminPost = <T>(path: string, body: Record<string, string>) =>
  h.call<T>('POST', path, body, { token: op.token });

/** A project of its own (coin `coin`), open now, with `capacity` USDT at price 1. */
async function project(id: number, coin: number, capacity: string, userMax = '1000') {
  await h.app.ctx.db.query(
    `INSERT INTO launchpad_projects (id, name, intro, coin_currency_id, pay_currency_id, issue_price, total_supply,
                                     user_min, user_max, starts_at, ends_at, launch_at, lockup_days)
     VALUES ($1, '{"en":"Test"}', '{"en":"Test"}', $2, 3, 1, $3, 10, $4,
             now() - interval '1 hour', now() + interval '1 day', now() + interval '2 days', 0)`,
    [id, coin, capacity, userMax],
  );
}

describe('projects', () => {
  it('lists projects with their state, filters by view, recommends, and answers balances to a user', async () => {
    const all = await h.call<LaunchpadConfig>('GET', 'lh/send/config', undefined, { lang: 'ja' });
    const vdt = all.body.data.projects.find((p) => p.id === 1)!;
    expect(vdt).toMatchObject({
      coin: 'VDT',
      pay_currency: 'USDT',
      issue_price: '0.5',
      price: '0.5',
      total_supply: '2000000',
      capacity: '1000000',
      user_min: '10',
      user_max: '50000',
      lockup_days: 7,
      state: 'subscribing',
    });
    expect(vdt.intro).toMatch(/VDT/);
    expect(vdt.intro).not.toBe(
      (await h.call<LaunchpadConfig>('GET', 'lh/send/config')).body.data.projects[0]!.intro,
    );
    const launched = await h.call<LaunchpadConfig>('GET', 'lh/send/config', { state: 'launched' });
    expect(launched.body.data.projects.find((p) => p.id === 1)).toBeUndefined();
    const bad = await h.call('GET', 'lh/send/config', { state: 'nope' });
    expect(bad.status).toBe(400);
    const rec = await h.call<LaunchpadProject[]>('GET', 'lh/send/get_recommend');
    expect(rec.body.data.map((p) => p.id)).toContain(1);
    const u = await subscriber('500');
    const info = await h.call<LaunchpadProjectInfo>(
      'GET',
      'lh/send/product_info',
      { id: '1' },
      { token: u.token },
    );
    expect(info.body.data).toMatchObject({ available: '500', mine: '0' });
  });
});

describe('subscribing', () => {
  it('checks amount, limits and balance, in the user language, changing nothing', async () => {
    const u = await subscriber('100');
    const cases: [Record<string, string>, number, string][] = [
      [{ amount: '' }, 400, 'Please enter the amount'],
      [{ amount: '1.1234567' }, 400, 'Enter the amount as a number with at most 6 decimals'],
      [{ amount: '9' }, 400, 'Subscribe between 10 and 50000 USDT'],
      [{ amount: '101' }, 400, 'You have insufficient balance, so please recharge'],
      [{ amount: '50001' }, 409, 'You may subscribe at most 50000 USDT in all; 50000 USDT left'],
      [{ amount: '10', project_id: '77' }, 404, 'This project does not exist'],
    ];
    for (const [body, status, message] of cases) {
      const r = await subscribe(u.token, body);
      expect([r.status, r.body.message]).toEqual([status, message]);
    }
    expect((await subscribe(u.token, { amount: '' }, 'th')).body.message).toBe('กรุณากรอกจำนวน');
    expect(await spot(u.user.id, USDT)).toEqual({ available: '100', frozen: '0' });
  });

  it('freezes the payment under review; an operator passes part of it: coins locked, the rest refunded, audited', async () => {
    const u = await subscriber('1000');
    const r = await subscribe(u.token, { amount: '1000' });
    expect(r.body.message).toBe('Subscription submitted, under review');
    expect(r.body.data).toMatchObject({
      status: 'review',
      amount: '1000',
      quantity: null,
      redeemable: false,
    });
    expect(await spot(u.user.id, USDT)).toEqual({ available: '0', frozen: '1000' });
    expect(await clean()).toEqual([]);

    const queue = await h.call<{ items: AdminLaunchpadOrder[] }>('GET', 'admin/launchpad', undefined, {
      token: op.token,
    });
    expect(queue.body.data.items.map((o) => o.id)).toContain(r.body.data.id);
    const passed = await adminPost<AdminLaunchpadOrder>('admin/launchpad/pass', {
      id: r.body.data.id,
      amount: '400',
    });
    expect(passed.body.data).toMatchObject({ status: 'passed', quantity: '800', cost: '400', refund: '600' });
    expect(await spot(u.user.id, USDT)).toEqual({ available: '600', frozen: '0' });
    expect(await spot(u.user.id, VDT)).toEqual({ available: '0', frozen: '800' });
    const again = await adminPost('admin/launchpad/reject', { id: r.body.data.id, reason: 'late' });
    expect([again.status, again.body.message]).toEqual([400, 'This subscription has already been reviewed']);
    const [audit] = await h.app.ctx.db.query<{ action: string; operator_id: number }>(
      `SELECT action, operator_id FROM audit_log WHERE target_type = 'launchpad_order' AND target_id = $1`,
      [r.body.data.id],
    );
    expect(audit).toEqual({ action: 'launchpad.pass', operator_id: op.id });

    // redeemable only after launch and the lock-up
    const early = await h.call('POST', 'lh/send/redeem', { id: r.body.data.id }, { token: u.token });
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/^Redeemable after launch and the lock-up, from /);
    await h.app.ctx.db.query(
      `UPDATE launchpad_orders SET unlock_at = now() - interval '1 minute' WHERE id = $1`,
      [r.body.data.id],
    );
    const mine = await h.call<LaunchpadOrderPage>('GET', 'lh/send/order_list', undefined, { token: u.token });
    expect(mine.body.data.list[0]).toMatchObject({
      id: r.body.data.id,
      redeemable: true,
      accumulated_return: '0',
      return_rate: '0',
    });
    const redeemed = await h.call<LaunchpadOrder>(
      'POST',
      'lh/send/redeem',
      { id: r.body.data.id },
      { token: u.token },
    );
    expect(redeemed.body.message).toBe('Redeemed to your spot account');
    expect(await spot(u.user.id, VDT)).toEqual({ available: '800', frozen: '0' });
    const twice = await h.call('POST', 'lh/send/redeem', { id: r.body.data.id }, { token: u.token });
    expect(twice.status).toBe(409);
    expect(await clean()).toEqual([]);
  });

  it('a rejected subscription gives the whole payment back and frees the project capacity', async () => {
    const u = await subscriber('300');
    const r = await subscribe(u.token, { amount: '300' });
    const before = (await h.call<LaunchpadProjectInfo>('GET', 'lh/send/product_info', { id: '1' })).body.data
      .project.subscribed;
    const rej = await adminPost<AdminLaunchpadOrder>('admin/launchpad/reject', {
      id: r.body.data.id,
      reason: 'KYC',
    });
    expect(rej.body.data).toMatchObject({ status: 'rejected', reason: 'KYC' });
    expect(await spot(u.user.id, USDT)).toEqual({ available: '300', frozen: '0' });
    const after = (await h.call<LaunchpadProjectInfo>('GET', 'lh/send/product_info', { id: '1' })).body.data
      .project.subscribed;
    expect(Number(before) - Number(after)).toBe(300);
    const list = await h.call<LaunchpadOrderPage>(
      'GET',
      'lh/send/order_list',
      { status: 'rejected' },
      {
        token: u.token,
      },
    );
    expect(list.body.data.list.map((o) => o.id)).toEqual([r.body.data.id]);
    expect(await clean()).toEqual([]);
  });

  it('a closed or launched project takes no subscriptions', async () => {
    await project(91, 10, '1000');
    await h.app.ctx.db.query(
      `UPDATE launchpad_projects SET starts_at = now() - interval '3 days', ends_at = now() - interval '2 days',
              launch_at = now() - interval '1 day' WHERE id = 91`,
    );
    const u = await subscriber('100');
    const r = await subscribe(u.token, { project_id: '91', amount: '10' });
    expect([r.status, r.body.message]).toEqual([409, 'This coin has already launched']);
  });
});

describe('parallel subscriptions', () => {
  it('20 parallel subscriptions of one user against a limit for 5: exactly 5 pass', async () => {
    await project(92, 11, '100000', '500');
    const u = await subscriber('10000');
    const rs = await Promise.all(
      Array.from({ length: 20 }, () => subscribe(u.token, { project_id: '92', amount: '100' })),
    );
    expect(rs.filter((r) => r.status === 200)).toHaveLength(5);
    expect(await spot(u.user.id, USDT)).toEqual({ available: '9500', frozen: '500' });
    expect(await clean()).toEqual([]);
  });

  it('24 parallel subscriptions of 4 users against a supply for 6: exactly 6 pass', async () => {
    await project(93, 9, '600');
    const users = await Promise.all(Array.from({ length: 4 }, () => subscriber('1000')));
    const rs = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        subscribe(users[i % 4]!.token, { project_id: '93', amount: '100' }),
      ),
    );
    expect(rs.filter((r) => r.status === 200)).toHaveLength(6);
    const info = await h.call<LaunchpadProjectInfo>('GET', 'lh/send/product_info', { id: '93' });
    expect(info.body.data.project).toMatchObject({ subscribed: '600', state: 'sold_out', progress: '1' });
    expect(await clean()).toEqual([]);
  });
});

describe('a launch lists the coin', () => {
  it('adds the coin/USDT spot market at launch, and the return follows its recorded trade price', async () => {
    const db = h.app.ctx.db;
    await db.query(
      `INSERT INTO currencies (id, symbol, name, decimals, chains, is_fiat, min_deposit, min_withdraw, withdraw_fee, can_deposit, can_withdraw, sort)
       VALUES (61, 'LNCH', 'Launch Coin', 6, '{}', false, 0, 0, 0, false, false, 61)`,
    );
    await project(61, 61, '100000');
    await db.query(
      `UPDATE launchpad_projects SET issue_price = 0.5, tick_size = 0.001, lot_size = 0.1 WHERE id = 61`,
    );
    const u = await subscriber();
    const r = await subscribe(u.token, { project_id: '61', amount: '100' });
    await adminPost('admin/launchpad/pass', { id: r.body.data.id, amount: '100' });
    // before launch: no market
    expect(await h.app.launchpad.launchDue()).toEqual([]);
    expect((await h.app.market.allMarkets()).some((m) => m.symbol === 'lnchusdt')).toBe(false);

    await db.query(
      `UPDATE launchpad_projects SET starts_at = now() - interval '3 days', ends_at = now() - interval '2 days',
              launch_at = now() - interval '1 day' WHERE id = 61`,
    );
    const added = await h.app.launchpad.launchDue();
    expect(added).toHaveLength(1);
    const m = (await h.app.market.allMarkets()).find((x) => x.symbol === 'lnchusdt')!;
    expect(m).toMatchObject({
      id: added[0],
      base: 'LNCH',
      quote: 'USDT',
      tickSize: '0.001',
      lotSize: '0.1',
      priceDecimals: 3,
      amountDecimals: 1,
      enabled: true,
      simulated: false,
    });
    // launching again adds nothing
    expect(await h.app.launchpad.launchDue()).toEqual([]);
    // listed with the other markets; no made-up price: it has not traded
    const quotes = await h.call<{ symbol: string; last: string | null }[]>('GET', 'currency/quotation_new');
    expect(quotes.status).toBe(200);
    expect(quotes.body.data.find((t) => t.symbol === 'lnchusdt')).toMatchObject({ last: null });

    // the issue price until a price is recorded
    const before = await h.call<LaunchpadOrderPage>('GET', 'lh/send/order_list', undefined, {
      token: u.token,
    });
    expect(before.body.data.list[0]).toMatchObject({
      quantity: '200',
      accumulated_return: '0',
      return_rate: '0',
    });

    await db.tx((q) =>
      h.app.market.recordTrade(q, { marketId: m.id, price: '0.75', qty: '10', takerSide: 'buy' }),
    );
    const after = await h.call<LaunchpadOrderPage>('GET', 'lh/send/order_list', undefined, {
      token: u.token,
    });
    expect(after.body.data.list[0]).toMatchObject({ accumulated_return: '50', return_rate: '0.5' });
    const info = await h.call<LaunchpadProjectInfo>(
      'GET',
      'lh/send/product_info',
      { id: '61' },
      { token: u.token },
    );
    expect(info.body.data.project.price).toBe('0.75');
    expect(await clean()).toEqual([]);
  });
});
