import type { TrustConfig, TrustProductInfo, TrustReport } from '@verdant/api';
import { DAY_MS } from '@verdant/engine';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { age, buy, trustBalance, trustOrders, trustUser } from './test-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const clean = async () => (await verifyLedger(h.app.ctx.db)).problems;

describe('products', () => {
  it('lists the products with term, minimum, daily and total yield, state and penalty rule', async () => {
    const r = await h.call<TrustConfig>('GET', 'lh/deposit/config', undefined, { lang: 'th' });
    expect(r.status).toBe(200);
    const p1 = r.body.data.products.find((p) => p.id === 1)!;
    expect(p1).toMatchObject({
      name: 'ฝากประจำ USDT 15 วัน',
      currency: 'USDT',
      term_days: 15,
      min_amount: '100',
      daily_rate: '0.004',
      total_rate: '0.06',
      state: 'ongoing',
      penalty_rule: 'daily_interest',
      penalty_rate: '1.5',
    });
    expect(r.body.data.products.find((p) => p.id === 4)!.state).toBe('soon');
  });
  it('product_info answers the trust balance to a logged-in user, null to a visitor', async () => {
    const u = await trustUser(h, '250.5');
    const mine = await h.call<TrustProductInfo>(
      'GET',
      'lh/deposit/product_info',
      { id: '1' },
      { token: u.token },
    );
    expect(mine.body.data.available).toBe('250.5');
    const visitor = await h.call<TrustProductInfo>('GET', 'lh/deposit/product_info', { id: '1' });
    expect(visitor.body.data.available).toBeNull();
    const missing = await h.call('GET', 'lh/deposit/product_info', { id: '999' });
    expect(missing.status).toBe(404);
  });
});

describe('buying', () => {
  it('checks amount, minimum escrow, agreement and balance in order, in the user language, changing nothing', async () => {
    const u = await trustUser(h, '150');
    const cases: [Record<string, string>, number, string][] = [
      [{ amount: '' }, 400, 'Please enter the amount'],
      [{ amount: 'abc' }, 400, 'Enter the amount as a number with at most 6 decimals'],
      [{ amount: '99.99' }, 400, 'The minimum escrow is 100 USDT'],
      [{ amount: '100', agree: '' }, 400, 'Please read and tick to agree to the service agreement'],
      [{ amount: '151' }, 400, 'You have insufficient balance, so please recharge'],
      [{ amount: '1', product_id: '4' }, 409, 'This product is not open yet'],
    ];
    for (const [body, status, message] of cases) {
      const r = await buy(h, u.token, body);
      expect([r.status, r.body.message]).toEqual([status, message]);
    }
    const th = await buy(h, u.token, { amount: '' }, 'th');
    expect(th.body.message).toBe('กรุณากรอกจำนวน');
    expect(await trustBalance(h.app, u.user.id)).toEqual({ available: '150', frozen: '0' });
    // a refused purchase takes no capacity
    const [p] = await h.app.ctx.db.query<{ sold: string }>(
      'SELECT sold::text FROM trust_products WHERE id = 1',
    );
    expect(Number(p!.sold)).toBe(0);
  });

  it('a purchase locks the principal in the trust account and shows its terms', async () => {
    const u = await trustUser(h, '10000');
    const r = await buy(h, u.token, { amount: '10000' });
    expect(r.body.message).toBe('Purchase successful');
    expect(r.body.data).toMatchObject({
      status: 'hosting',
      amount: '10000',
      daily_interest: '40',
      expected_income: '600',
      remaining_days: 15,
      income: '0',
      penalty: '60',
    });
    expect(Date.parse(r.body.data.payout_time!) - Date.parse(r.body.data.started_at)).toBe(DAY_MS);
    expect(Date.parse(r.body.data.matures_at) - Date.parse(r.body.data.started_at)).toBe(15 * DAY_MS);
    expect(await trustBalance(h.app, u.user.id)).toEqual({ available: '0', frozen: '10000' });
    const list = await trustOrders(h, u.token);
    expect(list.body.data.list.map((o) => o.id)).toEqual([r.body.data.id]);
    expect(await clean()).toEqual([]);
  });
});

describe('daily interest', () => {
  it('spec example: 0.4 % a day for 15 days on 10,000 pays 600, then the principal comes back', async () => {
    const u = await trustUser(h, '10000');
    const order = (await buy(h, u.token, { amount: '10000' })).body.data;
    const start = Date.parse(order.started_at);
    await h.app.trust.accrueDue(start + 15 * DAY_MS);
    expect(await trustBalance(h.app, u.user.id)).toEqual({ available: '10600', frozen: '0' });
    // paid by the trust pool, one journal per payout pass
    const [paid] = await h.app.ctx.db.query<{ n: number; sum: string }>(
      `SELECT count(DISTINCT j.id)::int AS n, trim_scale(sum(e.delta_available))::text AS sum
         FROM ledger_journals j JOIN ledger_entries e ON e.journal_id = j.id
         JOIN ledger_accounts a ON a.id = e.account_id
        WHERE j.reason = 'trust_interest' AND j.ref_id = $1 AND a.house = 'trust_pool'`,
      [order.id],
    );
    expect(paid).toEqual({ n: 1, sum: '-600' });
    const done = await trustOrders(h, u.token, 'completed');
    expect(done.body.data.list[0]).toMatchObject({
      id: order.id,
      income: '600',
      remaining_days: 0,
      penalty: '0',
    });
    expect(done.body.data.list[0]!.ended_at).toBe(order.matures_at);
    expect(await clean()).toEqual([]);
  });

  it('running twice pays once, and after a gap of several days every missed day is paid at once', async () => {
    const u = await trustUser(h, '10000');
    const order = (await buy(h, u.token, { amount: '10000' })).body.data;
    const start = Date.parse(order.started_at);
    await h.app.trust.accrueDue(start + 3 * DAY_MS);
    await h.app.trust.accrueDue(start + 3 * DAY_MS + 1000);
    await Promise.all([h.app.trust.accrueDue(start + 3 * DAY_MS), h.app.trust.accrueDue(start + 3 * DAY_MS)]);
    expect(await trustBalance(h.app, u.user.id)).toEqual({ available: '120', frozen: '10000' });
    // not a whole day yet: nothing more
    await h.app.trust.accrueDue(start + 4 * DAY_MS - 1);
    expect((await trustBalance(h.app, u.user.id)).available).toBe('120');
    // five days of downtime: caught up in one pass
    await h.app.trust.accrueDue(start + 8 * DAY_MS);
    expect((await trustBalance(h.app, u.user.id)).available).toBe('320');
    const r = await h.call<TrustReport>('GET', 'lh/deposit/report', undefined, { token: u.token });
    expect(r.body.data).toEqual({
      currencies: [{ currency: 'USDT', decimals: 6, hosted: '10000', income: '320' }],
      orders: { hosting: 1, completed: 0, redeemed: 0 },
    });
    expect(await clean()).toEqual([]);
  });
});

describe('the accrual job', () => {
  it('runs as a singleton job and, once started, pays what fell due while it was stopped', async () => {
    const u = await trustUser(h, '1000');
    const order = (await buy(h, u.token, { amount: '1000' })).body.data;
    await age(h.app, order.id, 4);
    expect(h.app.ctx.jobs.runs('trust-accrual')).toBe(false);
    h.app.trust.start();
    expect(h.app.ctx.jobs.runs('trust-accrual')).toBe(true);
    await vi.waitFor(async () => expect((await trustBalance(h.app, u.user.id)).available).toBe('16'), {
      timeout: 10_000,
    });
    expect(await clean()).toEqual([]);
  });
});

describe('early redemption', () => {
  it('remaining-days rule, spec example: ratio 0.4 %, 3 days left, 1,000 → 12; owed days are paid first', async () => {
    const u = await trustUser(h, '1000');
    const order = (await buy(h, u.token, { product_id: '2', amount: '1000' })).body.data;
    expect(order).toMatchObject({ penalty_rule: 'remaining_days', daily_interest: '5', term_days: 30 });
    await age(h.app, order.id, 27);
    // shown before confirming
    const shown = (await trustOrders(h, u.token)).body.data.list.find((o) => o.id === order.id)!;
    expect(shown).toMatchObject({ remaining_days: 3, penalty: '12' });
    const r = await h.call<{ status: string; penalty: string; income: string }>(
      'POST',
      'lh/deposit/order/cancel',
      { id: order.id },
      { token: u.token },
    );
    expect(r.body.message).toBe('Redeemed');
    expect(r.body.data).toMatchObject({ status: 'redeemed', penalty: '12', income: '135' });
    // 1000 − 12 + 27 days × 5
    expect(await trustBalance(h.app, u.user.id)).toEqual({ available: '1123', frozen: '0' });
    const again = await h.call('POST', 'lh/deposit/order/cancel', { id: order.id }, { token: u.token });
    expect([again.status, again.body.message]).toEqual([409, 'This order has already ended']);
    expect((await trustOrders(h, u.token, 'redeemed')).body.data.list[0]!.id).toBe(order.id);
    expect(await clean()).toEqual([]);
  });

  it('daily-interest rule: 1.5 × the daily interest is deducted from the principal', async () => {
    const u = await trustUser(h, '10000');
    const order = (await buy(h, u.token, { amount: '10000' })).body.data;
    await age(h.app, order.id, 2);
    const r = await h.call<{ penalty: string }>(
      'POST',
      'lh/deposit/order/cancel',
      { id: order.id },
      { token: u.token },
    );
    expect(r.body.data.penalty).toBe('60');
    // 10000 − 60 + 2 days × 40
    expect(await trustBalance(h.app, u.user.id)).toEqual({ available: '10020', frozen: '0' });
    expect(await clean()).toEqual([]);
  });

  it("an order that matured before the job paid it completes instead, with no penalty; others' orders are not found", async () => {
    const u = await trustUser(h, '1000');
    const other = await trustUser(h, '0');
    const order = (await buy(h, u.token, { amount: '1000' })).body.data;
    const foreign = await h.call('POST', 'lh/deposit/order/cancel', { id: order.id }, { token: other.token });
    expect(foreign.status).toBe(404);
    await age(h.app, order.id, 16);
    const r = await h.call<{ status: string; penalty: string }>(
      'POST',
      'lh/deposit/order/cancel',
      { id: order.id },
      { token: u.token },
    );
    expect(r.body.data).toMatchObject({ status: 'completed', penalty: '0' });
    expect(await trustBalance(h.app, u.user.id)).toEqual({ available: '1060', frozen: '0' });
    expect(await clean()).toEqual([]);
  });
});

describe('parallel purchases', () => {
  it('25 parallel purchases against a balance for 10: exactly 10 pass, none overdraws', async () => {
    const u = await trustUser(h, '1000');
    const rs = await Promise.all(Array.from({ length: 25 }, () => buy(h, u.token, { amount: '100' })));
    expect(rs.filter((r) => r.status === 200)).toHaveLength(10);
    expect(
      rs.filter((r) => r.status !== 200).every((r) => r.body.message.startsWith('You have insufficient')),
    ).toBe(true);
    expect(await trustBalance(h.app, u.user.id)).toEqual({ available: '0', frozen: '1000' });
    expect(await clean()).toEqual([]);
  });

  it('24 parallel purchases against a capacity for 6: exactly 6 pass, the product never oversells', async () => {
    await h.app.ctx.db.query(
      `INSERT INTO trust_products (id, name, currency_id, term_days, min_amount, daily_rate, capacity, penalty_rate)
       VALUES (90, '{"en":"Small"}', 3, 10, 100, 0.001, 600, 1.5)`,
    );
    const users = await Promise.all(Array.from({ length: 4 }, () => trustUser(h, '1000')));
    const rs = await Promise.all(
      Array.from({ length: 24 }, (_, i) => buy(h, users[i % 4]!.token, { product_id: '90', amount: '100' })),
    );
    expect(rs.filter((r) => r.status === 200)).toHaveLength(6);
    const refused = rs.filter((r) => r.status !== 200);
    expect(
      refused.every((r) => r.status === 409 && r.body.message === 'This product has only 0 USDT left'),
    ).toBe(true);
    const [p] = await h.app.ctx.db.query<{ sold: string }>(
      'SELECT sold::text FROM trust_products WHERE id = 90',
    );
    expect(Number(p!.sold)).toBe(600);
    expect(await clean()).toEqual([]);
  });
});

describe('visitors', () => {
  it('are asked to log in for buying, orders and the report', async () => {
    for (const [m, p] of [
      ['POST', 'lh/deposit'],
      ['GET', 'lh/deposit/order'],
      ['GET', 'lh/deposit/report'],
      ['POST', 'lh/deposit/order/cancel'],
    ] as const) {
      const r = await h.call(m, p);
      expect(r.status).toBe(401);
    }
  });
});
