import type { OptionSeconds, PayableCurrency } from '@verdant/api';
import { fromScaled, toScaled } from '@verdant/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, startHarness } from '../../test/harness.ts';
import { house, optionBalance, optionTrader, orders, submit, tick } from './test-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

/** API times are ISO text; the tests do their arithmetic in milliseconds. */
const ms = (iso: string) => Date.parse(iso);
const at = (t: number) => new Date(t).toISOString();
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const clean = async () => (await verifyLedger(h.app.ctx.db)).problems;

// Each test that settles uses a market of its own: its ticks in the future stay out of the others.
const SYMBOLS = [
  '',
  'btcusdt',
  'ethusdt',
  'bnbusdt',
  'solusdt',
  'xrpusdt',
  'dogeusdt',
  'adausdt',
  'trxusdt',
  'ltcusdt',
  'dotusdt',
];

/** Buys on market `m` at a fresh tick of `price`; answers the order. */
async function buy(m: number, token: string, price: string, body: Record<string, string> = {}) {
  await tick(h.app, price, Date.now() - 1, m);
  const r = await submit(h, token, { symbol: SYMBOLS[m]!, ...body });
  expect(r.body.message).toBe('Purchase successful');
  return r.body.data;
}

describe('delivery times and payable currencies', () => {
  it('lists each market’s delivery times with profit ratio, fee and stake range, as data', async () => {
    const r = await h.call<OptionSeconds[]>('GET', 'microtrade/seconds', { symbol: 'btcusdt' });
    expect(
      r.body.data.map((s) => [s.seconds, s.profit_ratio, s.fee_rate, s.min_amount, s.max_amount]),
    ).toEqual([
      [30, '0.8', '0.02', '10', '5000'],
      [60, '0.85', '0.02', '10', '10000'],
      [120, '0.9', '0.02', '50', '20000'],
      [300, '0.95', '0.02', '100', '50000'],
    ]);
    const all = await h.call<OptionSeconds[]>('GET', 'microtrade/seconds');
    expect(new Set(all.body.data.map((s) => s.symbol)).size).toBe(10);
    const unknown = await h.call('GET', 'microtrade/seconds', { symbol: 'nopeusdt' });
    expect(unknown.status).toBe(404);
  });

  it('lists the payable currencies, with the option balance once logged in', async () => {
    const anon = await h.call<PayableCurrency[]>('GET', 'microtrade/payable_currencies');
    expect(anon.body.data).toEqual([{ currency_id: 3, symbol: 'USDT', decimals: 6, available: null }]);
    const u = await optionTrader(h, '250.5');
    const mine = await h.call<PayableCurrency[]>('GET', 'microtrade/payable_currencies', undefined, {
      token: u.token,
    });
    expect(mine.body.data[0]!.available).toBe('250.5');
  });
});

describe('buying: the rules of spec §5 and §6, in order', () => {
  it('asks for a delivery time first, then a direction, then an amount inside the range', async () => {
    const u = await optionTrader(h);
    await tick(h.app, '67000', Date.now() - 1);
    const cases: [Record<string, string>, string, string][] = [
      [{ seconds: '' }, 'seconds', 'Please choose an option time first'],
      [{ seconds: '45' }, 'seconds', 'This option time is not offered for this market'],
      [{ direction: 'sideways' }, 'direction', 'Please choose bullish or bearish'],
      [{ currency: 'BTC' }, 'currency', 'Options cannot be paid in BTC'],
      [{ amount: '' }, 'amount', 'Please enter the amount'],
      [{ amount: '1e3' }, 'amount', 'Enter the amount as a number with at most 6 decimals'],
      [{ amount: '10.0000001' }, 'amount', 'Enter the amount as a number with at most 6 decimals'],
      [{ amount: '9.99' }, 'amount', 'The amount must be between 10 and 5000 USDT'],
      [{ amount: '5000.01' }, 'amount', 'The amount must be between 10 and 5000 USDT'],
      [{ seconds: '300', amount: '99' }, 'amount', 'The amount must be between 100 and 50000 USDT'],
    ];
    for (const [body, field, message] of cases) {
      const r = await submit(h, u.token, body);
      expect([r.status, r.body.field, r.body.message]).toEqual([400, field, message]);
    }
    expect((await submit(h, u.token, { seconds: '' }, 'th')).body.message).toBe('กรุณาเลือกเวลาออปชันก่อน');
    expect(await optionBalance(h.app, u.user.id)).toEqual({ available: '1000', frozen: '0' });
    expect((await orders(h, u.token)).body.data.total).toBe(0);
  });

  it('asks an unverified account to verify, and changes nothing', async () => {
    const u = await optionTrader(h, '1000', false);
    await tick(h.app, '67000', Date.now() - 1);
    const r = await submit(h, u.token, {});
    expect([r.status, r.body.code, r.body.message]).toEqual([
      400,
      3020,
      'Account not verified, proceed to verification?',
    ]);
    expect(await optionBalance(h.app, u.user.id)).toEqual({ available: '1000', frozen: '0' });
  });

  it('refuses a stake above the option balance, with the recharge message, and keeps nothing', async () => {
    const u = await optionTrader(h, '50');
    await tick(h.app, '67000', Date.now() - 1);
    const r = await submit(h, u.token, { amount: '50.000001' });
    expect([r.status, r.body.code, r.body.field, r.body.message]).toEqual([
      400,
      3001,
      'amount',
      'You have insufficient balance, so please recharge',
    ]);
    expect(await optionBalance(h.app, u.user.id)).toEqual({ available: '50', frozen: '0' });
    expect((await orders(h, u.token)).body.data.total).toBe(0);
  });

  it('needs a login', async () => {
    const r = await h.call('POST', 'microtrade/submit', { seconds: '30' });
    expect([r.status, r.body.code]).toEqual([401, 999]);
  });

  it('refuses to buy when the index has no recent tick (a stalled feed prices nothing)', async () => {
    const u = await optionTrader(h);
    // LTC has had no tick in this file yet; then one 11 s old
    const none = await submit(h, u.token, { symbol: 'ltcusdt' });
    expect([none.status, none.body.message]).toEqual([
      503,
      'No index price at the moment. Please try again shortly',
    ]);
    await tick(h.app, '80', Date.now() - 11_000, 9);
    const r = await submit(h, u.token, { symbol: 'ltcusdt' });
    expect(r.status).toBe(503);
    expect(await optionBalance(h.app, u.user.id)).toEqual({ available: '1000', frozen: '0' });
  });
});

describe('a purchase', () => {
  it('is priced by the latest recorded tick at or before it, and freezes the stake', async () => {
    const u = await optionTrader(h);
    const before = await tick(h.app, '66999.5', Date.now() - 2);
    // recorded with a later time than the purchase: not the purchase price
    await tick(h.app, '70000', Date.now() + 60_000);
    const r = await submit(h, u.token, { amount: '100.5' });
    const o = r.body.data;
    expect(o).toMatchObject({
      symbol: 'btcusdt',
      name: 'BTC/USDT',
      currency: 'USDT',
      direction: 'bullish',
      seconds: 30,
      amount: '100.5',
      profit_ratio: '0.8',
      fee_rate: '0.02',
      // 100.5 × 0.8 = 80.4, less 2 % of it
      expected_profit: '78.792',
      status: 'waiting',
      purchase: { id: before, price: '66999.5' },
      delivery: null,
      result: null,
    });
    // times are ISO text in UTC, like every record of the API
    for (const t of [o.purchase_time, o.deliver_at, o.purchase.time]) expect(t).toMatch(ISO);
    expect(o.settled_at).toBeNull();
    expect(ms(o.deliver_at) - ms(o.purchase_time)).toBe(30_000);
    expect(ms(o.purchase.time)).toBeLessThanOrEqual(ms(o.purchase_time));
    expect(await optionBalance(h.app, u.user.id)).toEqual({ available: '899.5', frozen: '100.5' });
    const list = await orders(h, u.token, { status: 'waiting' });
    expect(list.body.data.list.map((x) => x.id)).toEqual([o.id]);
    expect((await orders(h, u.token, { status: 'delivered' })).body.data.total).toBe(0);
    expect(await clean()).toEqual([]);
    await h.app.ctx.db.query('DELETE FROM index_ticks WHERE created_at > now()');
  });
});

describe('delivery', () => {
  it('a bullish win pays stake + stake × ratio − fee; the pool pays, the fee goes to the house', async () => {
    const u = await optionTrader(h);
    const [pool0, fees0] = [await house(h.app, 'option_pool'), await house(h.app, 'fees')];
    const o = await buy(2, u.token, '100', { amount: '100' });
    const delivered = await tick(h.app, '100.01', ms(o.deliver_at) + 400, 2);
    await h.app.option.settleDue(ms(o.deliver_at) + 1000);
    const [d] = (await orders(h, u.token, { status: 'delivered' })).body.data.list;
    expect(d).toMatchObject({
      id: o.id,
      status: 'delivered',
      result: 'win',
      payout: '178.4',
      pnl: '78.4',
      fee: '1.6',
      purchase: { price: '100' },
      delivery: { id: delivered, price: '100.01', time: at(ms(o.deliver_at) + 400) },
    });
    expect(await optionBalance(h.app, u.user.id)).toEqual({ available: '1078.4', frozen: '0' });
    expect(Number(await house(h.app, 'option_pool')) - Number(pool0)).toBe(-80);
    expect(Number(await house(h.app, 'fees')) - Number(fees0)).toBeCloseTo(1.6, 9);
    expect(await clean()).toEqual([]);
  });

  it('the same price is flat and refunds the stake; bearish wins on a fall', async () => {
    const u = await optionTrader(h);
    const pool0 = Number(await house(h.app, 'option_pool'));
    const flat = await buy(3, u.token, '200', { direction: 'bullish', amount: '50' });
    const win = await buy(3, u.token, '200', { direction: 'bearish', amount: '10', seconds: '60' });
    await tick(h.app, '200', ms(flat.deliver_at), 3);
    await tick(h.app, '150', ms(win.deliver_at), 3);
    expect(await h.app.option.settleDue(ms(win.deliver_at))).toBe(2);
    const list = (await orders(h, u.token, { status: 'delivered' })).body.data.list;
    const by = new Map(list.map((o) => [o.id, o]));
    expect(by.get(flat.id)).toMatchObject({ result: 'flat', payout: '50', pnl: '0', fee: '0' });
    // 10 × 0.85 = 8.5, less 2 % of it (0.17)
    expect(by.get(win.id)).toMatchObject({ result: 'win', payout: '18.33', pnl: '8.33', fee: '0.17' });
    expect(await optionBalance(h.app, u.user.id)).toEqual({ available: '1008.33', frozen: '0' });
    expect(Number(await house(h.app, 'option_pool')) - pool0).toBeCloseTo(-8.5, 9);
    expect(await clean()).toEqual([]);
  });

  it('a loss: the stake goes to the pool and the user gets nothing back', async () => {
    const u = await optionTrader(h, '100');
    const pool0 = Number(await house(h.app, 'option_pool'));
    const o = await buy(4, u.token, '300', { direction: 'bullish', amount: '100' });
    await tick(h.app, '299.99', ms(o.deliver_at), 4);
    await h.app.option.settleDue(ms(o.deliver_at));
    const [d] = (await orders(h, u.token, { status: 'delivered' })).body.data.list;
    expect(d).toMatchObject({ result: 'loss', payout: '0', pnl: '-100', fee: '0' });
    expect(await optionBalance(h.app, u.user.id)).toEqual({ available: '0', frozen: '0' });
    expect(Number(await house(h.app, 'option_pool')) - pool0).toBe(100);
  });

  it('settles on the first tick at or after the delivery time, and waits while there is none', async () => {
    const u = await optionTrader(h);
    const o = await buy(5, u.token, '500');
    // a rise just before the delivery time does not count
    await tick(h.app, '600', ms(o.deliver_at) - 1, 5);
    expect(await h.app.option.settleDue(ms(o.deliver_at) + 5_000)).toBe(0);
    expect((await orders(h, u.token)).body.data.list[0]!.status).toBe('waiting');
    // the feed was down: the first tick after the gap settles it, later ones do not matter
    await tick(h.app, '499', ms(o.deliver_at) + 4_000, 5);
    await tick(h.app, '700', ms(o.deliver_at) + 5_000, 5);
    // not yet due at this `now`: nothing happens
    expect(await h.app.option.settleDue(ms(o.deliver_at) - 1)).toBe(0);
    expect(await h.app.option.settleDue(ms(o.deliver_at) + 6_000)).toBe(1);
    const [d] = (await orders(h, u.token, { status: 'delivered' })).body.data.list;
    expect(d).toMatchObject({
      result: 'loss',
      delivery: { price: '499', time: at(ms(o.deliver_at) + 4_000) },
    });
  });

  it('gives each order of one pass its own delivery tick: the first at or after its own delivery time', async () => {
    const u = await optionTrader(h);
    const a = await buy(9, u.token, '80', { amount: '10' });
    await new Promise((r) => setTimeout(r, 20));
    const b = await buy(9, u.token, '80', { amount: '10', direction: 'bearish' });
    const ta = await tick(h.app, '81', ms(a.deliver_at) + 5, 9);
    const tb = await tick(h.app, '79', ms(b.deliver_at), 9);
    expect(await h.app.option.settleDue(ms(b.deliver_at))).toBe(2);
    const by = new Map(
      (await orders(h, u.token, { status: 'delivered' })).body.data.list.map((o) => [o.id, o]),
    );
    // b was bought at least 20 ms after a: a's tick, 5 ms after its delivery time, is before b's
    expect(by.get(a.id)).toMatchObject({ result: 'win', delivery: { id: ta, price: '81' } });
    expect(by.get(b.id)).toMatchObject({ result: 'win', delivery: { id: tb, price: '79' } });
  });

  it('settles each order exactly once, however many settlements run at the same time', async () => {
    const traders = await Promise.all(Array.from({ length: 5 }, () => optionTrader(h, '1000')));
    const bought = [];
    for (const t of traders)
      for (let k = 0; k < 5; k++) bought.push(await buy(7, t.token, '800', { amount: '20' }));
    const last = Math.max(...bought.map((o) => ms(o.deliver_at)));
    await tick(h.app, '801', last, 7);
    const runs = await Promise.all(Array.from({ length: 25 }, () => h.app.option.settleDue(last)));
    expect(runs.reduce((a, b) => a + b, 0)).toBe(25);
    // every order names the one journal that paid it: the orders a pass takes together share one
    // (options_delivered), an order taken alone has its own (option_win). Concurrent passes
    // may split the 25 between them (SKIP LOCKED), so the split is not fixed.
    const journals = await h.app.ctx.db.query<{ reason: string; orders: number }>(
      `SELECT j.reason, count(o.id)::int AS orders
         FROM ledger_journals j JOIN option_orders o ON o.delivery_journal_id = j.id
        WHERE o.id = ANY ($1::bigint[]) GROUP BY j.id, j.reason`,
      [bought.map((o) => o.id)],
    );
    expect(journals.reduce((n, j) => n + j.orders, 0)).toBe(25);
    for (const j of journals) expect(j.reason).toBe(j.orders > 1 ? 'options_delivered' : 'option_win');
    for (const t of traders)
      expect(await optionBalance(h.app, t.user.id)).toEqual({ available: '1078.4', frozen: '0' });
    expect(await clean()).toEqual([]);
  });

  it('takes parallel purchases of one account up to its balance, exactly', async () => {
    const u = await optionTrader(h, '200');
    await tick(h.app, '900', Date.now() - 1, 8);
    const rs = await Promise.all(
      Array.from({ length: 25 }, () => submit(h, u.token, { symbol: 'trxusdt', amount: '20' })),
    );
    expect(rs.filter((r) => r.status === 200).length).toBe(10);
    expect(rs.filter((r) => r.status !== 200).every((r) => r.body.code === 3001)).toBe(true);
    expect(await optionBalance(h.app, u.user.id)).toEqual({ available: '0', frozen: '200' });
    expect((await orders(h, u.token)).body.data.total).toBe(10);
    expect(await clean()).toEqual([]);
  });

  it('ledger:verify reports a stake in flight that no waiting order explains', async () => {
    const u = await optionTrader(h);
    const o = await buy(10, u.token, '1000', { amount: '30' });
    expect(await clean()).toEqual([]);
    await h.app.ctx.db.query(`UPDATE option_orders SET amount = 20 WHERE id = $1`, [o.id]);
    expect(await clean()).toContain(
      `user ${u.user.id} option USDT: frozen 30, but open orders and pending withdrawals hold 20`,
    );
    await h.app.ctx.db.query(`UPDATE option_orders SET amount = 30 WHERE id = $1`, [o.id]);
    expect(await clean()).toEqual([]);
  });

  it('ledger:verify proves each delivery price is the first recorded tick at or after the delivery time', async () => {
    const u = await optionTrader(h);
    const o = await buy(10, u.token, '1000', { amount: '30' });
    const due = Date.parse(o.deliver_at);
    await tick(h.app, '1001', due + 500, 10);
    expect(await h.app.option.settleDue(due + 1000)).toBeGreaterThanOrEqual(1);
    expect(await clean()).toEqual([]);
    const problem = `option order ${o.id}: its delivery price is not the first recorded tick at or after its delivery time`;
    // a price that is not the tick's
    await h.app.ctx.db.query('UPDATE option_orders SET delivery_price = 1002 WHERE id = $1', [o.id]);
    expect(await clean()).toContain(problem);
    await h.app.ctx.db.query('UPDATE option_orders SET delivery_price = 1001 WHERE id = $1', [o.id]);
    expect(await clean()).toEqual([]);
    // an earlier tick at or after the delivery time that the settlement passed over
    const skipped = await tick(h.app, '999', due + 100, 10);
    expect(await clean()).toContain(problem);
    await h.app.ctx.db.query('DELETE FROM index_ticks WHERE id = $1', [skipped]);
    // a tick that does not exist
    await h.app.ctx.db.query(
      'UPDATE option_orders SET delivery_tick_id = delivery_tick_id + 1000000 WHERE id = $1',
      [o.id],
    );
    expect(await clean()).toContain(problem);
    await h.app.ctx.db.query(
      'UPDATE option_orders SET delivery_tick_id = delivery_tick_id - 1000000 WHERE id = $1',
      [o.id],
    );
    expect(await clean()).toEqual([]);
  });

  it("options delivered in one pass: one line in each owner's funds record, and ledger:verify proves it pays each exactly what their orders say", async () => {
    // market 10 again, after the test above: delivered in 60 s, after its order's delivery
    // tick (30 s + 0.5 s), so neither test's ticks fall in the other's delivery window
    const u = await optionTrader(h, '100');
    const win = await buy(10, u.token, '2000', { amount: '10', seconds: '60' });
    const loss = await buy(10, u.token, '2000', { amount: '20', direction: 'bearish', seconds: '60' });
    const flat = await buy(10, u.token, '2001', { amount: '30', seconds: '60' });
    // another user's option in the same pass: their own line, of their own order
    const v = await optionTrader(h, '100');
    const other = await buy(10, v.token, '2001', { amount: '40', direction: 'bearish', seconds: '60' });
    const due = Math.max(...[win, loss, flat, other].map((o) => ms(o.deliver_at)));
    await tick(h.app, '2001', due, 10);
    expect(await h.app.option.settleDue(due)).toBe(4);
    // the win's stake, profit less fee; nothing for the loss; the flat's stake back (exact)
    const { list } = (await orders(h, u.token, { status: 'delivered' })).body.data;
    expect(list.map((o) => o.result).sort()).toEqual(['flat', 'loss', 'win']);
    const paid = fromScaled(
      list.reduce((s, o) => s + toScaled(o.payout!, 18)!, 0n),
      18,
    );
    const flows = await h.call<{
      list: { reason: string; reason_text: string; delta_available: string; delta_frozen: string }[];
    }>('POST', 'wallet/legal_log', { type: 'option' }, { token: u.token });
    expect(flows.body.data.list[0]).toEqual(
      expect.objectContaining({
        reason: 'options_delivered',
        reason_text: 'Options delivered',
        delta_frozen: '-60',
        delta_available: paid,
      }),
    );
    // three stakes before it, nothing else
    expect(flows.body.data.list.map((f) => f.reason)).toEqual([
      'options_delivered',
      'option_stake',
      'option_stake',
      'option_stake',
      'deposit',
    ]);
    const theirs = await h.call<{
      list: { reason: string; delta_available: string; delta_frozen: string }[];
    }>('POST', 'wallet/legal_log', { type: 'option', limit: '1' }, { token: v.token });
    // flat: the 40 staked comes back
    expect(theirs.body.data.list[0]).toEqual(
      expect.objectContaining({ reason: 'options_delivered', delta_frozen: '-40', delta_available: '40' }),
    );
    expect(await clean()).toEqual([]);
    const [{ journal }] = (await h.app.ctx.db.query<{ journal: string }>(
      'SELECT delivery_journal_id::text AS journal FROM option_orders WHERE id = $1',
      [win.id],
    )) as [{ journal: string }];
    const ids = [win.id, loss.id, flat.id].sort((a, b) => Number(a) - Number(b)).join(', ');
    // an order that says it paid more than its journal did
    await h.app.ctx.db.query('UPDATE option_orders SET payout = payout + 1 WHERE id = $1', [win.id]);
    expect(await clean()).toContain(
      `option orders ${ids}: journal ${journal} does not pay user ${u.user.id} their stakes and payouts`,
    );
    await h.app.ctx.db.query('UPDATE option_orders SET payout = payout - 1 WHERE id = $1', [win.id]);
    // an order delivered without naming its journal
    await h.app.ctx.db.query('UPDATE option_orders SET delivery_journal_id = NULL WHERE id = $1', [loss.id]);
    expect(await clean()).toContain(`option orders ${loss.id}: delivered without a journal`);
    await h.app.ctx.db.query('UPDATE option_orders SET delivery_journal_id = $2 WHERE id = $1', [
      loss.id,
      journal,
    ]);
    expect(await clean()).toEqual([]);
  });

  it('pages the history newest first and refuses an unknown status', async () => {
    const u = await optionTrader(h);
    const a = await buy(6, u.token, '2000', { amount: '10' });
    const b = await buy(6, u.token, '2000', { amount: '11' });
    await tick(h.app, '2001', ms(b.deliver_at), 6);
    await h.app.option.settleDue(ms(b.deliver_at));
    const p1 = await orders(h, u.token, { status: 'delivered', limit: '1' });
    expect([p1.body.data.total, p1.body.data.list[0]!.id]).toEqual([2, b.id]);
    const p2 = await orders(h, u.token, { status: 'delivered', limit: '1', page: '2' });
    expect(p2.body.data.list[0]!.id).toBe(a.id);
    const bad = await orders(h, u.token, { status: 'open' });
    expect([bad.status, bad.body.field]).toEqual([400, 'status']);
  });
});
