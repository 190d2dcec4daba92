import type { ContractCloseResult, ContractDeal, ContractPosition, ContractPositionPage } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.ts';
import { balanceOf, post } from '../../ledger/ledger.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { createContractService } from './service.ts';

const USDT = 3;
const BTC_MARKET = 1;
const c = (v: string) => (v.includes('.') ? v.replace(/0+$/, '').replace(/\.$/, '') : v);

let h: Harness;
let app: FastifyInstance;
/** Tick times move forward from here, one second a tick. */
let clock = Date.now() - 3_600_000;

beforeAll(async () => {
  h = await startHarness();
  app = h.app;
  await tick('60000');
});
afterAll(() => h.close());

/** Records an index tick of BTC/USDT (as the feed does) and returns its id; triggers run with `run`. */
async function record(price: string, marketId = BTC_MARKET): Promise<string> {
  clock += 1000;
  const [r] = await app.ctx.db.query<{ id: string }>(
    `INSERT INTO index_ticks (market_id, price, source, created_at) VALUES ($1, $2, 'test', $3) RETURNING id::text`,
    [marketId, price, new Date(clock).toISOString()],
  );
  return r!.id;
}

async function tick(price: string): Promise<string> {
  const id = await record(price);
  await app.contract.advanceAll();
  return id;
}

async function user(funds = '1000') {
  const u = await registerByEmail(h);
  if (funds !== '0')
    await app.ctx.db.tx((q) =>
      post(q, {
        reason: 'deposit',
        legs: [
          { account: { userId: u.user.id, type: 'contract', currencyId: USDT }, available: funds },
          { account: { house: 'deposits', currencyId: USDT }, available: `-${funds}` },
        ],
      }),
    );
  return u;
}

async function balance(userId: number) {
  const b = await balanceOf(app.ctx.db, { userId, type: 'contract', currencyId: USDT });
  return { available: c(b.available), frozen: c(b.frozen) };
}

const house = async (h2: 'fees' | 'contract_pool') =>
  c((await balanceOf(app.ctx.db, { house: h2, currencyId: USDT })).available);

const submit = (token: string, body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<ContractPosition>(
    'POST',
    'lever/submit',
    { symbol: 'btcusdt', multiple: '10', ...body },
    { token, lang },
  );

const mine = (token: string, status = 'holding') =>
  h.call<ContractPositionPage>('POST', 'lever/my_trade', { status }, { token });

const closeOne = (token: string, id: string) =>
  h.call<ContractCloseResult>('POST', 'lever/close', { id }, { token });

async function position(token: string, id: string, status: string): Promise<ContractPosition> {
  const page = await mine(token, status);
  const p = page.body.data.list.find((x) => x.id === id);
  if (!p) throw new Error(`position ${id} not ${status}`);
  return p;
}

const mine_ = async (token: string) => (await mine(token)).body.data.list;

async function clean() {
  expect((await verifyLedger(app.ctx.db)).problems).toEqual([]);
}

describe('lever/deal', () => {
  it('shows every contract with its lot value, multiples, fees and the current tick; the balance when logged in', async () => {
    const visitor = await h.call<ContractDeal>('POST', 'lever/deal', {});
    expect(visitor.status).toBe(200);
    expect(visitor.body.data.balance).toBeNull();
    expect(visitor.body.data.current).toMatchObject({
      symbol: 'btcusdt',
      name: 'BTC/USDT',
      currency: 'USDT',
      lot_value: '0.01',
      multiples: [5, 10, 20, 50, 100],
      open_fee_rate: '0.0005',
      close_fee_rate: '0.0005',
      maintenance_rate: '0.005',
      max_lots_per_order: 500,
      price: { price: '60000', source: 'test' },
    });
    expect(visitor.body.data.list.map((x) => x.symbol)).toContain('ethusdt');
    const u = await user('250');
    const mineDeal = await h.call<ContractDeal>(
      'GET',
      'lever/deal',
      { symbol: 'btcusdt' },
      { token: u.token },
    );
    expect(mineDeal.body.data.balance).toEqual({ available: '250', frozen: '0' });
  });
});

describe('opening and closing at recorded ticks', () => {
  it('a 10× long of 3 lots at 60,000 holds 180 margin, pays 0.9 fee, and closed at 61,000 returns 209.085', async () => {
    await tick('60000');
    const u = await user('1000');
    const fees0 = await house('fees');
    const pool0 = await house('contract_pool');
    const open = await submit(u.token, { direction: 'long', lots: '3' });
    expect(open.body).toMatchObject({ type: 'ok', message: 'Order submitted' });
    const p = open.body.data;
    expect(p).toMatchObject({
      status: 'holding',
      direction: 'long',
      type: 'market',
      price: '60000',
      open_price: '60000',
      lots: 3,
      multiple: 10,
      market_value: '1800',
      margin: '180',
      fee: '0.9',
      liquidation_price: '54300',
      open_tick: { price: '60000', source: 'test' },
    });
    // a record's moments are ISO text, like every record of the API
    expect(p.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(p.open_tick!.time).toBe(new Date(clock).toISOString());
    expect(await balance(u.user.id)).toEqual({ available: '819.1', frozen: '180' });
    expect(c(String(Number(await house('fees')) - Number(fees0)))).toBe('0.9');

    await tick('61000');
    const held = await position(u.token, p.id, 'holding');
    expect(held).toMatchObject({ current_price: '61000', pnl: '30' });

    const closed = await closeOne(u.token, p.id);
    expect(closed.body).toMatchObject({ type: 'ok', message: 'Position closed' });
    expect(closed.body.data.list[0]).toMatchObject({
      status: 'closed',
      close_reason: 'user',
      current_price: '61000',
      pnl: '30',
      close_fee: '0.915',
      fee: '1.815',
      payout: '209.085',
      close_tick: { price: '61000', source: 'test' },
    });
    expect(closed.body.data.list[0]!.history.map((e) => [e.kind, e.tick?.price])).toEqual([
      ['open', '60000'],
      ['close', '61000'],
    ]);
    expect(await balance(u.user.id)).toEqual({ available: '1028.185', frozen: '0' });
    // the pool paid the profit
    expect(Number(await house('contract_pool')) - Number(pool0)).toBe(-30);
    await clean();
  });

  it('a short loses to the pool when the index rises; the closed list shows it', async () => {
    await tick('60000');
    const u = await user('1000');
    const p = (await submit(u.token, { direction: 'short', lots: '3' })).body.data;
    expect(p.liquidation_price).toBe('65700');
    await tick('61000');
    expect((await position(u.token, p.id, 'holding')).pnl).toBe('-30');
    await closeOne(u.token, p.id);
    expect(await balance(u.user.id)).toEqual({ available: '968.185', frozen: '0' });
    const page = await mine(u.token, 'closed');
    expect(page.body.data).toMatchObject({ total: 1, page: 1 });
    expect(page.body.data.list[0]).toMatchObject({ pnl: '-30', payout: '149.085' });
    await clean();
  });

  it('closes all holding positions at once', async () => {
    await tick('60000');
    const u = await user('1000');
    await submit(u.token, { direction: 'long', lots: '1' });
    await submit(u.token, { direction: 'short', lots: '2', multiple: '20' });
    const all = await h.call<ContractCloseResult>('POST', 'lever/close', { all: '1' }, { token: u.token });
    expect(all.body.data.list).toHaveLength(2);
    expect((await mine(u.token)).body.data.total).toBe(0);
    expect((await balance(u.user.id)).frozen).toBe('0');
    await clean();
  });
});

describe('triggers', () => {
  it('take-profit fires at the first tick at or above it and settles at that tick', async () => {
    await tick('60000');
    const u = await user('1000');
    const p = (
      await submit(u.token, { direction: 'long', lots: '1', take_profit: '61000', stop_loss: '59000' })
    ).body.data;
    expect(p).toMatchObject({ take_profit: '61000', stop_loss: '59000' });
    await tick('60900');
    expect((await position(u.token, p.id, 'holding')).status).toBe('holding');
    await tick('61000.5');
    const done = await position(u.token, p.id, 'closed');
    expect(done).toMatchObject({ close_reason: 'take_profit', current_price: '61000.5', pnl: '10.005' });
    expect(done.history.at(-1)).toMatchObject({ kind: 'take_profit', tick: { price: '61000.5' } });
    await clean();
  });

  it('fires in tick order: the stop-loss crossed first wins over a take-profit crossed later', async () => {
    await tick('60000');
    const u = await user('1000');
    const p = (
      await submit(u.token, { direction: 'long', lots: '1', take_profit: '61000', stop_loss: '59000' })
    ).body.data;
    // both ticks are recorded before the triggers run
    await record('58900');
    await record('61500');
    await app.contract.advanceAll();
    const done = await position(u.token, p.id, 'closed');
    expect(done).toMatchObject({ close_reason: 'stop_loss', current_price: '58900', pnl: '-11' });
    await clean();
  });

  it('liquidates a 100× long when equity falls to the maintenance margin; what is left goes back to the user', async () => {
    await tick('60000');
    const u = await user('100');
    const pool0 = await house('contract_pool');
    const p = (await submit(u.token, { direction: 'long', lots: '1', multiple: '100' })).body.data;
    // margin 6, maintenance 3: liquidated at or below 59,700
    expect(p).toMatchObject({ margin: '6', fee: '0.3', liquidation_price: '59700' });
    await tick('59700.01');
    expect((await position(u.token, p.id, 'holding')).status).toBe('holding');
    await tick('59650');
    const done = await position(u.token, p.id, 'closed');
    // pnl −3.5, closing fee 0.29825, equity 2.5 → 2.20175 back
    expect(done).toMatchObject({
      close_reason: 'liquidation',
      pnl: '-3.5',
      close_fee: '0.29825',
      payout: '2.20175',
    });
    expect(Number(await house('contract_pool')) - Number(pool0)).toBeCloseTo(3.5, 10);
    expect(await balance(u.user.id)).toEqual({ available: '95.90175', frozen: '0' });
    await clean();
  });

  it('a gap through the liquidation price never takes more than the margin', async () => {
    await tick('60000');
    const u = await user('100');
    const p = (await submit(u.token, { direction: 'short', lots: '1', multiple: '100' })).body.data;
    await tick('70000');
    const done = await position(u.token, p.id, 'closed');
    expect(done).toMatchObject({ close_reason: 'liquidation', pnl: '-100', payout: '0', close_fee: '0' });
    expect(await balance(u.user.id)).toEqual({ available: '93.7', frozen: '0' });
    await clean();
  });

  it('a limit order holds margin and fee, opens at its price when the index crosses it, and can be cancelled', async () => {
    await tick('60000');
    const u = await user('1000');
    const order = (await submit(u.token, { direction: 'long', type: 'limit', price: '59000', lots: '2' }))
      .body.data;
    expect(order).toMatchObject({
      status: 'pending',
      price: '59000',
      open_price: null,
      margin: '118',
      fee: '0.59',
    });
    expect(await balance(u.user.id)).toEqual({ available: '881.41', frozen: '118.59' });
    await clean();
    await tick('59500');
    expect((await mine(u.token, 'pending')).body.data.total).toBe(1);
    await tick('58990');
    const opened = await position(u.token, order.id, 'holding');
    expect(opened).toMatchObject({
      open_price: '59000',
      open_tick: { price: '58990' },
      current_price: '58990',
    });
    expect(opened.history.map((e) => e.kind)).toEqual(['order', 'open']);
    expect(await balance(u.user.id)).toEqual({ available: '881.41', frozen: '118' });
    await clean();

    const other = (await submit(u.token, { direction: 'short', type: 'limit', price: '60000', lots: '1' }))
      .body.data;
    const cancelled = await h.call<ContractPosition>(
      'POST',
      'lever/cancel',
      { id: other.id },
      { token: u.token },
    );
    expect(cancelled.body).toMatchObject({ message: 'Order cancelled', data: { status: 'cancelled' } });
    expect(await balance(u.user.id)).toEqual({ available: '881.41', frozen: '118' });
    const again = await h.call('POST', 'lever/cancel', { id: other.id }, { token: u.token });
    expect(again).toMatchObject({ status: 409, body: { message: 'This order is no longer pending' } });
    await clean();
  });

  it('setstop sets both prices on the right side of the current price, and they trigger', async () => {
    await tick('60000');
    const u = await user('1000');
    const p = (await submit(u.token, { direction: 'short', lots: '1' })).body.data;
    await tick('60500');
    const set = (body: Record<string, string>) =>
      h.call<ContractPosition>('POST', 'lever/setstop', { id: p.id, ...body }, { token: u.token });
    expect((await set({ take_profit: '59000' })).body).toMatchObject({
      message: 'Take-profit and stop-loss prices are required',
      field: 'stop_loss',
    });
    expect((await set({ take_profit: '61000', stop_loss: '62000' })).body).toMatchObject({
      message: 'The take-profit price must be above 60500 for a long and below it for a short',
    });
    expect((await set({ take_profit: '59000', stop_loss: '60000' })).body.message).toBe(
      'The stop-loss price must be below 60500 for a long and above it for a short',
    );
    const ok = await set({ take_profit: '59000', stop_loss: '61000' });
    expect(ok.body).toMatchObject({
      message: 'Take-profit and stop-loss saved',
      data: { take_profit: '59000' },
    });
    await tick('61000');
    const done = await position(u.token, p.id, 'closed');
    expect(done).toMatchObject({ close_reason: 'stop_loss', pnl: '-10' });
    expect(done.history.map((e) => e.kind)).toEqual(['open', 'set_stops', 'stop_loss']);
    await clean();
  });
});

describe('rules and messages', () => {
  it('refuses bad input with a clear message and changes nothing', async () => {
    await tick('60000');
    const u = await user('100');
    const cases: [Record<string, string>, string, string][] = [
      [{ direction: 'long', lots: '0' }, 'Lots must be a positive integer, at least 1', 'lots'],
      [{ direction: 'long', lots: '1.5' }, 'Lots must be a positive integer, at least 1', 'lots'],
      [{ direction: 'long', lots: '' }, 'Lots must be a positive integer, at least 1', 'lots'],
      [{ direction: 'long', lots: '501' }, 'At most 500 lots per order', 'lots'],
      [{ direction: 'up', lots: '1' }, 'Please choose long or short', 'direction'],
      [{ direction: 'long', lots: '1', type: 'stop' }, 'The order type must be market or limit', 'type'],
      [
        { direction: 'long', lots: '1', multiple: '7' },
        'Please choose a multiple: 5, 10, 20, 50, 100',
        'multiple',
      ],
      [
        { direction: 'long', lots: '1', take_profit: '61000' },
        'Take-profit and stop-loss prices are required',
        'take_profit',
      ],
      [
        { direction: 'long', lots: '1', take_profit: '59000', stop_loss: '58000' },
        'The take-profit price must be above 60000 for a long and below it for a short',
        'take_profit',
      ],
      [
        { direction: 'long', lots: '1', take_profit: '61000', stop_loss: '60500' },
        'The stop-loss price must be below 60000 for a long and above it for a short',
        'stop_loss',
      ],
      [
        { direction: 'long', lots: '1', take_profit: '61000.001', stop_loss: '59000' },
        'The price must be a number above zero and a multiple of 0.01',
        'take_profit',
      ],
      [{ direction: 'long', lots: '1', type: 'limit' }, 'Please enter the price', 'price'],
      [
        { direction: 'long', lots: '1', type: 'limit', price: '61000' },
        'A long limit price must be below, and a short one above, the current price 60000',
        'price',
      ],
      [
        { direction: 'long', lots: '2', multiple: '5' },
        'Insufficient contract balance: 240.6 USDT needed. Please transfer funds in',
        'lots',
      ],
      [{ direction: 'long', lots: '1', symbol: 'nope' }, 'This contract does not exist: nope', 'symbol'],
    ];
    for (const [body, message, field] of cases) {
      const res = await submit(u.token, body);
      expect(res.body, message).toMatchObject({ type: 'error', message, field });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    expect(await balance(u.user.id)).toEqual({ available: '100', frozen: '0' });
    const th = await submit(u.token, { direction: 'long', lots: '0' }, 'th');
    expect(th.body.message).toBe('จำนวนล็อตต้องเป็นจำนวนเต็มบวก อย่างน้อย 1');
    const visitor = await h.call('POST', 'lever/submit', { symbol: 'btcusdt', direction: 'long', lots: '1' });
    expect(visitor).toMatchObject({ status: 401, body: { code: 999 } });
    // someone else's position is "not found"
    const other = await user('100');
    const p = (await submit(other.token, { direction: 'long', lots: '1' })).body.data;
    expect(await closeOne(u.token, p.id)).toMatchObject({
      status: 404,
      body: { message: 'This position does not exist' },
    });
    expect(await closeOne(u.token, 'x')).toMatchObject({
      status: 400,
      body: { message: 'The position id is not valid' },
    });
    expect((await mine(u.token, 'open')).body.message).toBe(
      'The status must be holding, pending, closed or cancelled',
    );
  });

  it('limits open positions and lots per user', async () => {
    await tick('60000');
    const u = await user('10000');
    const [btc] = await app.contract.contracts();
    const saved = { ...btc!.spec };
    btc!.spec = { ...btc!.spec, maxOpenPositions: 2, maxLotsPerUser: 5 };
    try {
      expect((await submit(u.token, { direction: 'long', lots: '3' })).body.type).toBe('ok');
      expect((await submit(u.token, { direction: 'long', lots: '3' })).body.message).toBe(
        'You can hold at most 5 lots in this contract (now 3)',
      );
      expect((await submit(u.token, { direction: 'short', lots: '2' })).body.type).toBe('ok');
      expect((await submit(u.token, { direction: 'short', lots: '0' })).body.field).toBe('lots');
      const third = await submit(u.token, { direction: 'short', lots: '1' });
      expect(third).toMatchObject({
        status: 409,
        body: { message: 'You can have at most 2 open positions and orders in this contract' },
      });
    } finally {
      btc!.spec = saved;
    }
  });

  it('ledger:verify proves the margin held equals the open positions’ margin', async () => {
    await tick('60000');
    const u = await user('1000');
    const p = (await submit(u.token, { direction: 'long', lots: '1' })).body.data;
    await clean();
    await app.ctx.db.query('UPDATE contract_positions SET margin = margin + 1 WHERE id = $1', [p.id]);
    try {
      expect((await verifyLedger(app.ctx.db)).problems).toEqual([
        `user ${u.user.id} contract USDT: frozen 60, but open orders and pending withdrawals hold 61`,
      ]);
    } finally {
      await app.ctx.db.query('UPDATE contract_positions SET margin = margin - 1 WHERE id = $1', [p.id]);
    }
    await closeOne(u.token, p.id);
    await clean();
  });

  it('a settled position cannot be changed, not even by an operator in SQL', async () => {
    await tick('60000');
    const u = await user('100');
    const p = (await submit(u.token, { direction: 'long', lots: '1' })).body.data;
    await closeOne(u.token, p.id);
    await expect(
      app.ctx.db.query(`UPDATE contract_positions SET payout = 1000 WHERE id = $1`, [p.id]),
    ).rejects.toThrow(/settled and cannot change/);
    await expect(app.ctx.db.query(`DELETE FROM contract_positions WHERE id = $1`, [p.id])).rejects.toThrow(
      /never deleted/,
    );
  });
});

describe('concurrency and restarts', () => {
  it('25 parallel closes of one position pay once', async () => {
    await tick('60000');
    const u = await user('1000');
    const p = (await submit(u.token, { direction: 'long', lots: '3' })).body.data;
    await tick('61000');
    const results = await Promise.all(Array.from({ length: 25 }, () => closeOne(u.token, p.id)));
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(1);
    for (const r of results.filter((x) => x.body.type !== 'ok'))
      expect(r).toMatchObject({ status: 409, body: { message: 'This position is already closed' } });
    expect(await balance(u.user.id)).toEqual({ available: '1028.185', frozen: '0' });
    await clean();
  });

  it('holds the per-user limit under parallel orders sent to two processes', async () => {
    await tick('60000');
    const u = await user('10000');
    const other = createContractService(app.ctx, app.market, app.io, app.log, {
      manualTriggers: true,
      waitMs: 5000,
    });
    const [mine] = await app.contract.contracts();
    const [theirs] = await other.contracts();
    const saved = { ...mine!.spec };
    mine!.spec = { ...mine!.spec, maxOpenPositions: 3 };
    theirs!.spec = { ...theirs!.spec, maxOpenPositions: 3 };
    try {
      const body = { symbol: 'btcusdt', direction: 'long', lots: '1', multiple: '10' };
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, (_, i) => (i % 2 ? other : app.contract).submit(u.user.id, body)),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
      for (const r of results)
        if (r.status === 'rejected')
          expect(r.reason).toMatchObject({ messageKey: 'contract.tooManyPositions' });
      expect((await mine_(u.token)).length).toBe(3);
      await clean();
    } finally {
      mine!.spec = saved;
    }
  });

  it('a process without the trigger job waits for it, and the job takes in the positions opened there', async () => {
    await tick('60000');
    const u = await user('1000');
    // two processes of a cluster on one database: the job runs on `owner` (no timer: driven
    // by hand), `other` never starts it
    await app.contract.stop();
    const owner = createContractService(app.ctx, app.market, app.io, app.log, { manualTriggers: true });
    const other = createContractService(app.ctx, app.market, app.io, app.log, {
      manualTriggers: true,
      waitMs: 0,
    });
    try {
      await owner.start();
      const p = await other.submit(u.user.id, {
        symbol: 'btcusdt',
        direction: 'long',
        lots: '1',
        multiple: '10',
        take_profit: '60100',
        stop_loss: '59000',
      });
      expect(p.status).toBe('holding');
      // a tick the job has not reached: the other process does not act on it by itself
      await record('60050');
      await expect(other.close(u.user.id, { id: p.id })).rejects.toMatchObject({ statusCode: 503 });
      await owner.advanceAll();
      // the job learnt of the position from its history, and fires its take-profit
      await record('60150');
      await owner.advanceAll();
      const done = await position(u.token, p.id, 'closed');
      expect(done).toMatchObject({ close_reason: 'take_profit', current_price: '60150' });
      await clean();
    } finally {
      await owner.stop();
      await app.contract.start();
    }
  });

  it('a new job owner fires what a position opened elsewhere missed before the old owner saw it', async () => {
    await tick('60000');
    const u = await user('1000');
    await app.contract.stop();
    const other = createContractService(app.ctx, app.market, app.io, app.log, {
      manualTriggers: true,
      waitMs: 0,
    });
    const p = await other.submit(u.user.id, {
      symbol: 'btcusdt',
      direction: 'long',
      lots: '1',
      multiple: '10',
      take_profit: '60100',
      stop_loss: '59000',
    });
    const crossing = await record('60120');
    await record('60000');
    // the old owner's last round passed both ticks before it looked at the new position
    await app.ctx.db.query(
      `UPDATE contract_cursors SET tick_id = (SELECT max(id) FROM index_ticks WHERE market_id = 1) WHERE contract_id = 1`,
    );
    const owner = createContractService(app.ctx, app.market, app.io, app.log, { manualTriggers: true });
    try {
      expect(await owner.start()).toBe(1);
      const done = await position(u.token, p.id, 'closed');
      expect(done).toMatchObject({
        close_reason: 'take_profit',
        close_tick: { id: crossing, price: '60120' },
      });
      await clean();
    } finally {
      await owner.stop();
      await app.contract.start();
    }
  });

  it('a new job owner fires what a position opened elsewhere long before its cursor missed (no time window)', async () => {
    await tick('60000');
    const u = await user('1000');
    await app.contract.stop();
    const other = createContractService(app.ctx, app.market, app.io, app.log, {
      manualTriggers: true,
      waitMs: 0,
    });
    const p = await other.submit(u.user.id, {
      symbol: 'btcusdt',
      direction: 'long',
      lots: '1',
      multiple: '10',
      take_profit: '60100',
      stop_loss: '59000',
    });
    // a limit order opened there too: it fills, then its stop-loss is crossed, both unseen
    const order = await other.submit(u.user.id, {
      symbol: 'btcusdt',
      direction: 'long',
      type: 'limit',
      price: '59500',
      lots: '1',
      multiple: '10',
      take_profit: '61000',
      stop_loss: '59200',
    });
    expect(order.status).toBe('pending');
    clock += 10 * 60_000; // ten minutes pass before the crossings
    const crossing = await record('60120');
    const filled = await record('59450');
    const stopped = await record('59100');
    clock += 10 * 60_000;
    await record('60000');
    // the old owner's cursor passed every tick, and it never saw either position
    await app.ctx.db.query(
      `UPDATE contract_cursors SET tick_id = (SELECT max(id) FROM index_ticks WHERE market_id = 1) WHERE contract_id = 1`,
    );
    const owner = createContractService(app.ctx, app.market, app.io, app.log, { manualTriggers: true });
    try {
      expect(await owner.start()).toBe(3);
      expect(await position(u.token, p.id, 'closed')).toMatchObject({
        close_reason: 'take_profit',
        close_tick: { id: crossing, price: '60120' },
      });
      expect(await position(u.token, order.id, 'closed')).toMatchObject({
        close_reason: 'stop_loss',
        open_tick: { id: filled },
        open_price: '59500',
        close_tick: { id: stopped, price: '59100' },
      });
      // nothing fires twice when the owner goes on
      expect(await owner.advanceAll()).toBe(0);
      await clean();
    } finally {
      await owner.stop();
      await app.contract.start();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'the job sees a change elsewhere that commits after a higher-numbered one it has read (PostgreSQL)',
    async () => {
      await tick('60000');
      const u = await user('1000');
      const v = await user('1000');
      await app.contract.stop();
      const owner = createContractService(app.ctx, app.market, app.io, app.log, { manualTriggers: true });
      // `other`'s first transaction stops before its COMMIT (its history row's id drawn) until released
      const db = app.ctx.db;
      let drawn!: () => void;
      const paused = new Promise<void>((r) => {
        drawn = r;
      });
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      const gated: Db = {
        kind: db.kind,
        query: <T>(sql: string, params?: readonly unknown[]) => db.query<T>(sql, params),
        tx: (fn) =>
          db.tx(async (q) => {
            const out = await fn(q);
            drawn();
            await gate;
            return out;
          }),
        close: () => db.close(),
      };
      const other = createContractService({ ...app.ctx, db: gated }, app.market, app.io, app.log, {
        manualTriggers: true,
        waitMs: 0,
      });
      const third = createContractService(app.ctx, app.market, app.io, app.log, {
        manualTriggers: true,
        waitMs: 0,
      });
      let looked = false;
      try {
        await owner.start();
        const stops = { take_profit: '70000', stop_loss: '59000' };
        const body = { symbol: 'btcusdt', direction: 'long', lots: '1', multiple: '10', ...stops };
        const p = await owner.submit(u.user.id, body);
        // the take-profit moves near on `other`: its history row is written, not yet committed
        const moving = other.setStop(u.user.id, { id: p.id, take_profit: '60100', stop_loss: '59000' });
        await paused;
        // meanwhile a later change on a third process commits, with a higher id
        const later = await third.submit(v.user.id, body);
        const looking = owner.advanceAll().finally(() => {
          looked = true;
        });
        // the owner's look waits for the uncommitted writer (before the fix it read past it)
        const waiting = async () =>
          (
            await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM pg_locks
                WHERE locktype = 'advisory' AND NOT granted AND objsubid = 2 AND objid = 1
                  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                  AND classid::bigint = (hashtext('verdant.contract.events:' || coalesce(current_schema(), ''))::bigint & 4294967295)`,
            )
          )[0]!.n > 0;
        while (!looked && !(await waiting())) await new Promise((r) => setTimeout(r, 10));
        release();
        await moving;
        await looking;
        // the owner knows the new take-profit: the next tick above it closes the position
        const crossing = await record('60150');
        await owner.advanceAll();
        expect(await position(u.token, p.id, 'closed')).toMatchObject({
          close_reason: 'take_profit',
          close_tick: { id: crossing, price: '60150' },
        });
        // closed: its stops must not fire in the tests after this one
        await owner.close(v.user.id, { id: later.id });
        await clean();
      } finally {
        release();
        await owner.stop();
        await app.contract.start();
      }
    },
  );

  it('fires at start-up, in order, the triggers of ticks recorded while the job was stopped', async () => {
    await tick('60000');
    const u = await user('1000');
    const a = (
      await submit(u.token, { direction: 'long', lots: '1', take_profit: '60500', stop_loss: '59500' })
    ).body.data;
    const b = (
      await submit(u.token, { direction: 'short', lots: '1', take_profit: '59000', stop_loss: '60400' })
    ).body.data;
    await app.contract.stop();
    const first = await record('60450'); // b's stop-loss
    await record('60600'); // a's take-profit
    await record('59000'); // would have been b's take-profit: b is already closed
    const restarted = createContractService(app.ctx, app.market, app.io, app.log, { manualTriggers: true });
    try {
      expect(await restarted.start()).toBe(2);
      const pa = await position(u.token, a.id, 'closed');
      const pb = await position(u.token, b.id, 'closed');
      expect(pb).toMatchObject({ close_reason: 'stop_loss', close_tick: { id: first, price: '60450' } });
      expect(pa).toMatchObject({ close_reason: 'take_profit', current_price: '60600' });
      expect(pb.closed_at! <= pa.closed_at!).toBe(true);
      await clean();
    } finally {
      await restarted.stop();
      await app.contract.start();
    }
  });
});
