import type { SpotOrder } from '@verdant/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { accountId } from '../../ledger/ledger.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import {
  BTC,
  cancel,
  ETH,
  fund,
  houseFees,
  ledgerClean,
  list,
  place,
  request,
  spotBalance,
  USDT,
} from './test-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(async () => {
  // every scenario leaves the ledger provably whole and the BTC/USDT book empty
  expect(await ledgerClean(h)).toEqual([]);
  expect(h.app.spot.depthOf(1)).toEqual({ bids: [], asks: [] });
});

async function trader(usdt?: string, btc?: string) {
  const u = await registerByEmail(h);
  if (usdt) await fund(h.app, u.user.id, USDT, usdt);
  if (btc) await fund(h.app, u.user.id, BTC, btc);
  return { id: u.user.id, token: u.token };
}

const ok = (r: { status: number; body: { type: string; message: string; data: SpotOrder } }) => {
  expect(
    r.body.message === 'Order placed' || r.body.message === 'Order cancelled' ? r.status : r.body.message,
  ).toBe(200);
  return r.body.data;
};

describe('POST coin/trade: freeze, settle, fees, release', () => {
  it('freezes a limit buy, settles a crossing sell at the maker price with both fees, and releases on cancel', async () => {
    const b = await trader('1000');
    const s = await trader(undefined, '1');
    const feesUsdt = await houseFees(h.app, USDT);
    const feesBtc = await houseFees(h.app, BTC);

    const bid = ok(await place(h.app, b.token, { side: 'buy', type: 'limit', price: '60000', qty: '0.01' }));
    expect(bid).toMatchObject({
      status: 'waiting',
      price: '60000',
      qty: '0.01',
      filled_qty: '0',
      fee_currency: 'BTC',
    });
    expect(await spotBalance(h.app, b.id, USDT)).toEqual({ available: '400', frozen: '600' });

    const ask = ok(
      await place(h.app, s.token, { side: 'sell', type: 'limit', price: '59000', qty: '0.004' }),
    );
    expect(ask).toMatchObject({
      status: 'completed',
      filled_qty: '0.004',
      filled_amount: '240',
      avg_price: '60000',
      fee: '0.24',
      fee_currency: 'USDT',
    });
    expect(ask.fills).toHaveLength(1);
    expect(ask.fills[0]).toMatchObject({
      price: '60000',
      qty: '0.004',
      amount: '240',
      fee: '0.24',
      role: 'taker',
    });
    expect(await spotBalance(h.app, s.id, USDT)).toEqual({ available: '239.76', frozen: '0' });
    expect(await spotBalance(h.app, s.id, BTC)).toEqual({ available: '0.996', frozen: '0' });
    expect(await spotBalance(h.app, b.id, BTC)).toEqual({ available: '0.003996', frozen: '0' });
    expect(await spotBalance(h.app, b.id, USDT)).toEqual({ available: '400', frozen: '360' });
    expect(Number(await houseFees(h.app, USDT)) - Number(feesUsdt)).toBeCloseTo(0.24, 10);
    expect(Number(await houseFees(h.app, BTC)) - Number(feesBtc)).toBeCloseTo(0.000004, 12);

    const done = ok(await cancel(h.app, b.token, bid.id));
    expect(done).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'user',
      filled_qty: '0.004',
      fee: '0.000004',
    });
    expect(await spotBalance(h.app, b.id, USDT)).toEqual({ available: '760', frozen: '0' });

    const again = await cancel(h.app, b.token, bid.id);
    expect([again.status, again.body.message]).toEqual([409, 'This order is already completed or cancelled']);

    const page = (await list(h.app, b.token, { status: 'cancelled' })).body.data;
    expect(page.total).toBe(1);
    expect(page.list[0]).toMatchObject({ id: bid.id, status: 'cancelled', fee: '0.000004' });
    expect(page.list[0]!.fills).toEqual([
      expect.objectContaining({
        price: '60000',
        qty: '0.004',
        fee: '0.000004',
        fee_currency: 'BTC',
        role: 'maker',
      }),
    ]);
    const trades = await h.app.ctx.db.query<{ maker_fee: string; taker_fee: string; maker_user_id: number }>(
      'SELECT maker_fee::text, taker_fee::text, maker_user_id FROM trades WHERE taker_order_id = $1',
      [ask.id],
    );
    expect(trades.map((t) => [Number(t.maker_fee), Number(t.taker_fee), t.maker_user_id])).toEqual([
      [0.000004, 0.24, b.id],
    ]);
  });

  it('a buy that trades below its limit gets the difference back when it finishes', async () => {
    const s = await trader(undefined, '0.01');
    const b = await trader('600');
    ok(await place(h.app, s.token, { side: 'sell', price: '59000', qty: '0.01' }));
    const o = ok(await place(h.app, b.token, { side: 'buy', price: '60000', qty: '0.01' }));
    expect(o).toMatchObject({ status: 'completed', filled_amount: '590', fee: '0.00001' });
    expect(await spotBalance(h.app, b.id, USDT)).toEqual({ available: '10', frozen: '0' });
    expect(await spotBalance(h.app, b.id, BTC)).toEqual({ available: '0.00999', frozen: '0' });
    expect(await spotBalance(h.app, s.id, USDT)).toEqual({ available: '589.41', frozen: '0' });
    expect(await spotBalance(h.app, s.id, BTC)).toEqual({ available: '0', frozen: '0' });
  });

  it('market buy by amount: whole lots only, the dust released', async () => {
    const s = await trader(undefined, '0.004');
    const b = await trader('150');
    ok(await place(h.app, s.token, { side: 'sell', price: '50000', qty: '0.002' }));
    const rest = ok(await place(h.app, s.token, { side: 'sell', price: '50001', qty: '0.002' }));
    const o = ok(await place(h.app, b.token, { side: 'buy', type: 'market', amount: '150' }));
    // 0.002 at 50000 = 100; 50 buys 99 lots at 50001 = 49.50099; 0.49901 comes back
    expect(o).toMatchObject({ status: 'completed', qty: null, amount: '150', filled_qty: '0.00299' });
    expect(o.fills.map((f) => [f.price, f.qty, f.fee])).toEqual([
      ['50000', '0.002', '0.000002'],
      ['50001', '0.00099', '0.00000099'],
    ]);
    expect(await spotBalance(h.app, b.id, USDT)).toEqual({ available: '0.49901', frozen: '0' });
    expect(await spotBalance(h.app, b.id, BTC)).toEqual({ available: '0.00298701', frozen: '0' });
    ok(await cancel(h.app, s.token, rest.id));
    expect(await spotBalance(h.app, s.id, BTC)).toEqual({ available: '0.00101', frozen: '0' });
  });

  it('market sell takes what the bids offer; the rest is released and the order completed', async () => {
    const b = await trader('40');
    const s = await trader(undefined, '0.002');
    ok(await place(h.app, b.token, { side: 'buy', price: '40000', qty: '0.001' }));
    const o = ok(await place(h.app, s.token, { side: 'sell', type: 'market', qty: '0.002' }));
    expect(o).toMatchObject({ status: 'completed', filled_qty: '0.001', filled_amount: '40', fee: '0.04' });
    expect(await spotBalance(h.app, s.id, BTC)).toEqual({ available: '0.001', frozen: '0' });
    expect(await spotBalance(h.app, s.id, USDT)).toEqual({ available: '39.96', frozen: '0' });
  });

  it('market buy by quantity freezes what the book costs; into an empty book it is cancelled unfilled', async () => {
    const s = await trader(undefined, '0.001');
    const b = await trader('45');
    ok(await place(h.app, s.token, { side: 'sell', price: '45000', qty: '0.001' }));
    const o = ok(await place(h.app, b.token, { side: 'buy', type: 'market', qty: '0.001' }));
    expect(o).toMatchObject({ status: 'completed', filled_qty: '0.001', filled_amount: '45' });
    expect(await spotBalance(h.app, b.id, USDT)).toEqual({ available: '0', frozen: '0' });
    const none = ok(await place(h.app, b.token, { side: 'buy', type: 'market', qty: '0.001' }));
    expect(none).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled', filled_qty: '0' });
  });

  it('self-trade: the resting order of the same user is cancelled, the new one rests', async () => {
    const u = await trader('100', '0.001');
    const sell = ok(await place(h.app, u.token, { side: 'sell', price: '61000', qty: '0.001' }));
    const buy = ok(await place(h.app, u.token, { side: 'buy', price: '61000', qty: '0.001' }));
    expect(buy.status).toBe('waiting');
    const [gone] = (await list(h.app, u.token, { status: 'cancelled' })).body.data.list;
    expect(gone).toMatchObject({ id: sell.id, cancel_reason: 'self_trade' });
    expect(await spotBalance(h.app, u.id, BTC)).toEqual({ available: '0.001', frozen: '0' });
    ok(await cancel(h.app, u.token, buy.id));
    expect(await spotBalance(h.app, u.id, USDT)).toEqual({ available: '100', frozen: '0' });
  });
});

describe('POST coin/trade: the rules of spec §8', () => {
  const cases: [string, Record<string, string>, number, string][] = [
    ['buy without quantity', { side: 'buy', price: '100' }, 400, 'Please enter purchase quantity'],
    ['sell without quantity', { side: 'sell', price: '100' }, 400, 'Please enter the sold quantity'],
    ['market buy with nothing', { side: 'buy', type: 'market' }, 400, 'Please enter purchase quantity'],
    ['limit without price', { side: 'buy', qty: '1' }, 400, 'Please enter the price'],
    [
      'price off the tick grid',
      { side: 'buy', price: '100.001', qty: '1' },
      400,
      'The price must be a multiple of 0.01',
    ],
    [
      'qty off the lot grid',
      { side: 'sell', price: '100', qty: '0.000001' },
      400,
      'The quantity must be a multiple of 0.00001',
    ],
    [
      'below the minimum',
      { side: 'buy', price: '100', qty: '0.01' },
      400,
      'The order is below the minimum amount of 5 USDT',
    ],
    [
      'market buy below the minimum',
      { side: 'buy', type: 'market', amount: '4' },
      400,
      'The order is below the minimum amount of 5 USDT',
    ],
    [
      'both qty and amount',
      { side: 'buy', type: 'market', qty: '1', amount: '10' },
      400,
      'Enter a quantity or an amount, not both',
    ],
    ['not a number', { side: 'buy', price: 'abc', qty: '1' }, 400, 'The price must be a number above zero'],
    [
      'negative qty',
      { side: 'sell', price: '100', qty: '-1' },
      400,
      'The quantity must be a number above zero',
    ],
    ['bad side', { side: 'hold', price: '100', qty: '1' }, 400, 'Please choose buy or sell'],
    [
      'bad type',
      { side: 'buy', type: 'stop', price: '100', qty: '1' },
      400,
      'The order type must be limit or market',
    ],
    [
      'unknown market',
      { symbol: 'foousdt', side: 'buy', price: '100', qty: '1' },
      404,
      'This market does not exist: foousdt',
    ],
    ['insufficient balance', { side: 'buy', price: '100', qty: '1' }, 400, 'Insufficient balance'],
    [
      'insufficient sellable balance',
      { side: 'sell', price: '100', qty: '1' },
      400,
      'Insufficient sellable balance',
    ],
  ];
  it.each(cases)('%s: a clear error, nothing changed', async (_name, body, status, message) => {
    const u = await trader();
    const r = await place(h.app, u.token, body);
    expect([r.status, r.body.type, r.body.message]).toEqual([status, 'error', message]);
    expect(await spotBalance(h.app, u.id, USDT)).toEqual({ available: '0', frozen: '0' });
    const [n] = await h.app.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM spot_orders WHERE user_id = $1',
      [u.id],
    );
    expect(n!.n).toBe(0);
  });

  it('speaks the user’s language', async () => {
    const u = await trader();
    const r = await place(h.app, u.token, { side: 'buy', price: '100' }, 'zh');
    expect(r.body.message).toBe('请输入买入数量');
    const th = await place(h.app, u.token, { side: 'sell', price: '100', qty: '1' }, 'th');
    expect(th.body.message).toBe('ยอดที่ขายได้ไม่เพียงพอ');
  });

  it('asks to log in (999) on every spot path', async () => {
    for (const [method, path] of [
      ['POST', 'coin/trade'],
      ['PUT', 'coin/trade'],
      ['GET', 'coin/list'],
    ] as const) {
      const r = await request(h.app, method, path, { id: '1', side: 'buy' });
      expect([r.status, r.body.type, r.body.code]).toEqual([401, '999', 999]);
    }
  });

  it("cannot cancel someone else's order, nor an unknown id", async () => {
    const a = await trader('100');
    const b = await trader();
    const o = ok(await place(h.app, a.token, { side: 'buy', price: '1000', qty: '0.01' }));
    for (const id of [o.id, '99999999']) {
      const r = await cancel(h.app, b.token, id);
      expect([r.status, r.body.message]).toEqual([404, 'This order does not exist']);
    }
    const bad = await cancel(h.app, b.token, 'x1');
    expect([bad.status, bad.body.message]).toEqual([400, 'The order id is not valid']);
    ok(await cancel(h.app, a.token, o.id));
    expect(await spotBalance(h.app, a.id, USDT)).toEqual({ available: '100', frozen: '0' });
  });
});

describe('concurrency', () => {
  it('two orders at once against funds for one: exactly one is accepted', async () => {
    const u = await trader('600');
    const body = { side: 'buy', price: '30000', qty: '0.02' };
    const [x, y] = await Promise.all([place(h.app, u.token, body), place(h.app, u.token, body)]);
    const statuses = [x.status, y.status].sort();
    expect(statuses).toEqual([200, 400]);
    expect([x, y].find((r) => r.status === 400)!.body.message).toBe('Insufficient balance');
    expect(await spotBalance(h.app, u.id, USDT)).toEqual({ available: '0', frozen: '600' });
    const id = [x, y].find((r) => r.status === 200)!.body.data.id;
    // double cancel at once: one cancels, the other is told the order is finished
    const [c1, c2] = await Promise.all([cancel(h.app, u.token, id), cancel(h.app, u.token, id)]);
    expect([c1.status, c2.status].sort()).toEqual([200, 409]);
    expect(await spotBalance(h.app, u.id, USDT)).toEqual({ available: '600', frozen: '0' });
  });

  it('many users trading at once: every unit accounted for', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => trader('10000', '1')));
    const orders = users.flatMap((u, i) =>
      Array.from({ length: 10 }, (_, k) =>
        place(h.app, u.token, {
          side: (i + k) % 2 === 0 ? 'buy' : 'sell',
          price: String(50000 + ((i * 7 + k * 3) % 11) * 10),
          qty: '0.001',
        }),
      ),
    );
    const results = await Promise.all(orders);
    expect(results.every((r) => r.status === 200)).toBe(true);
    for (const u of users) {
      const open = (await list(h.app, u.token, { status: 'waiting', limit: '100' })).body.data.list;
      for (const o of open) ok(await cancel(h.app, u.token, o.id));
      const usdt = await spotBalance(h.app, u.id, USDT);
      const btc = await spotBalance(h.app, u.id, BTC);
      expect([usdt.frozen, btc.frozen]).toEqual(['0', '0']);
    }
    const [sum] = await h.app.ctx.db.query<{ n: string }>(
      `SELECT sum(available + frozen)::text AS n FROM ledger_accounts WHERE currency_id = $1`,
      [BTC],
    );
    expect(Number(sum!.n)).toBe(0);
  });
  it('an order arriving behind a burst is answered, not held back waiting for company', async () => {
    const u = await trader('1000');
    const body = { side: 'buy', price: '30000', qty: '0.001' };
    await list(h.app, u.token); // the session is looked up once; placing needs no more reads
    // The burst's batch waits behind this transaction, so the lone order queues behind it, and
    // after a batch of 20 the queue would rather gather more (group commit) than run one order.
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const held = h.app.ctx.db.tx(async (q) => {
      await q.query(`SELECT 1 FROM ledger_accounts WHERE user_id = $1 FOR UPDATE`, [u.id]);
      await gate;
    });
    const pause = () => new Promise((r) => setTimeout(r, 30));
    const burst = Array.from({ length: 20 }, () => place(h.app, u.token, body));
    await pause();
    const lone = place(h.app, u.token, body);
    await pause();
    release();
    await held;
    const answers = await Promise.all([...burst, lone]);
    expect(answers.map((r) => r.status)).toEqual(Array(21).fill(200));
    expect((await lone).body.data.status).toBe('waiting');
    expect(await spotBalance(h.app, u.id, USDT)).toEqual({ available: '370', frozen: '630' });
    for (const r of answers) ok(await cancel(h.app, u.token, r.body.data.id));
  });

  it('two markets settling against each other’s buyers at once: neither batch fails', async () => {
    // A rests an ETH ask and B a BTC ask; then, at the same moment, A buys B's BTC and B buys
    // A's ETH. Each market's batch freezes its buyer's USDT, then pays the seller, whose USDT the
    // other batch has just frozen: two transactions waiting on each other, unless the writer
    // prevents it. Several pairs, so the two batches really overlap.
    const pairs = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const a = await trader('10000', '1');
        const b = await trader('10000', '1');
        await fund(h.app, a.id, ETH, '1');
        await fund(h.app, b.id, ETH, '1');
        return { a, b };
      }),
    );
    for (const { a, b } of pairs) {
      ok(await place(h.app, a.token, { symbol: 'ethusdt', side: 'sell', price: '3000', qty: '0.01' }));
      ok(await place(h.app, b.token, { symbol: 'btcusdt', side: 'sell', price: '50000', qty: '0.001' }));
    }
    const results = await Promise.all(
      pairs.flatMap(({ a, b }) => [
        place(h.app, a.token, { symbol: 'btcusdt', side: 'buy', price: '50000', qty: '0.001' }),
        place(h.app, b.token, { symbol: 'ethusdt', side: 'buy', price: '3000', qty: '0.01' }),
      ]),
    );
    expect(results.map((r) => (r.status === 200 ? r.body.data.status : r.body.message))).toEqual(
      Array(8).fill('completed'),
    );
    expect(h.app.spot.depthOf(2)).toEqual({ bids: [], asks: [] });
  });

  it('a deadlock with another writer of the ledger runs the batch again: the order still goes through', async ({
    skip,
  }) => {
    // PGlite is one connection: transactions never overlap there.
    if (h.app.ctx.db.kind !== 'postgres') skip();
    const s = await trader(undefined, '1');
    const a = await trader('1000');
    ok(await place(h.app, s.token, { side: 'sell', price: '50000', qty: '0.001' }));
    const fees = await accountId(h.app.ctx.db, { house: 'fees', currencyId: USDT });
    const buyer = await accountId(h.app.ctx.db, { userId: a.id, type: 'spot', currencyId: USDT });
    // Another transaction holds the fee account the batch will settle into, then waits for the
    // buyer's account the batch has frozen: each waits for the other.
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const other = h.app.ctx.db
      .tx(async (q) => {
        await q.query('SELECT 1 FROM ledger_accounts WHERE id = $1 FOR UPDATE', [fees]);
        release();
        await new Promise((r) => setTimeout(r, 300));
        await q.query('SELECT 1 FROM ledger_accounts WHERE id = $1 FOR UPDATE', [buyer]);
      })
      .catch((e: { code?: string }) => e.code);
    await held;
    const bought = ok(await place(h.app, a.token, { side: 'buy', price: '50000', qty: '0.001' }));
    expect(bought.status).toBe('completed');
    // PostgreSQL broke the cycle by failing one side; if it was the other, so be it
    expect([undefined, '40P01']).toContain(await other);
    expect(await spotBalance(h.app, a.id, USDT)).toEqual({ available: '950', frozen: '0' });
  });

  it('a batch whose commit fails with the next batch already waiting on it: the next one runs again on the book as committed', async ({
    skip,
  }) => {
    // PGlite is one connection: a batch never waits on another there.
    if (h.app.ctx.db.kind !== 'postgres') skip();
    const db = h.app.ctx.db;
    const s = await trader(undefined, '1');
    const a = await trader('1000');
    const z = await trader('1000');
    const ask = ok(await place(h.app, s.token, { side: 'sell', price: '12345', qty: '0.001' }));
    // a's trade is refused at COMMIT, after every write of its batch has gone out.
    await db.query(
      `CREATE FUNCTION refuse_test_trade() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'test: trade refused at commit'; END $$`,
    );
    await db.query(
      `CREATE CONSTRAINT TRIGGER refuse_test_trade AFTER INSERT ON trades DEFERRABLE INITIALLY DEFERRED
       FOR EACH ROW WHEN (NEW.taker_user_id = ${Number(a.id)}) EXECUTE FUNCTION refuse_test_trade()`,
    );
    try {
      // Hold the seller's user row: the trade's foreign key check waits on it, so a's batch
      // stays in flight (its writes sent, its locks held) while z's batch starts behind it.
      let release!: () => void;
      const gate = new Promise<void>((r) => {
        release = r;
      });
      let holder = 0;
      const held = db.tx(async (q) => {
        [{ pid: holder }] = (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [
          { pid: number },
        ];
        await q.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [s.id]);
        await gate;
      });
      const blockedBy = async (pid: number) => {
        for (let i = 0; i < 250; i++) {
          const [row] = await db.query<{ pid: number }>(
            'SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
            [pid],
          );
          if (row) return row.pid;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error(`nothing waited on ${pid}`);
      };
      while (holder === 0) await new Promise((r) => setTimeout(r, 5));
      const aBuy = place(h.app, a.token, { side: 'buy', price: '12345', qty: '0.001' });
      const first = await blockedBy(holder);
      const zBuy = place(h.app, z.token, { side: 'buy', price: '12345', qty: '0.001' });
      await blockedBy(first); // z's batch waits for the accounts a's batch holds
      release();
      await held;
      const refused = await aBuy;
      expect([refused.status, refused.body.message]).toEqual([
        409,
        'The order could not be processed and nothing was changed. Please try again',
      ]);
      // z's batch stepped back and ran again once a's had ended and the book was read back: the
      // ask a's batch could not keep is z's.
      expect(ok(await zBuy)).toMatchObject({ status: 'completed', filled_qty: '0.001' });
      const sold = (await list(h.app, s.token, { status: 'completed' })).body.data.list;
      expect(sold.map((o) => o.id)).toEqual([ask.id]);
      expect(await spotBalance(h.app, a.id, USDT)).toEqual({ available: '1000', frozen: '0' });
      expect(await spotBalance(h.app, z.id, USDT)).toEqual({ available: '987.655', frozen: '0' });
      expect(await spotBalance(h.app, s.id, BTC)).toEqual({ available: '0.999', frozen: '0' });
    } finally {
      await db.query('DROP TRIGGER IF EXISTS refuse_test_trade ON trades');
      await db.query('DROP FUNCTION IF EXISTS refuse_test_trade()');
    }
  });
});

describe('replace (the market maker’s requote)', () => {
  it('cancels and places in one go; what cannot be done is refused alone', async () => {
    const u = await trader('1000');
    const other = await trader('1000');
    const mine = ok(await place(h.app, u.token, { side: 'buy', price: '40000', qty: '0.001' }));
    const theirs = ok(await place(h.app, other.token, { side: 'buy', price: '40000', qty: '0.001' }));
    const answers = await h.app.spot.replace(
      u.id,
      [Number(mine.id), Number(theirs.id)],
      [
        { symbol: 'btcusdt', side: 'buy', type: 'limit', price: '41000', qty: '0.001' },
        { symbol: 'btcusdt', side: 'buy', type: 'limit', price: '41000.001', qty: '0.001' },
      ],
    );
    expect(
      answers.map((a) =>
        a.status === 'fulfilled' ? a.value.status : (a.reason as { messageKey: string }).messageKey,
      ),
    ).toEqual(['cancelled', 'spot.orderFinished', 'waiting', 'spot.priceOffGrid']);
    expect(await spotBalance(h.app, u.id, USDT)).toEqual({ available: '959', frozen: '41' });
    for (const t of [u, other]) {
      const open = (await list(h.app, t.token, { status: 'waiting' })).body.data.list;
      for (const o of open) ok(await cancel(h.app, t.token, o.id));
    }
  });
});

describe('GET coin/list', () => {
  it('pages, filters by status and market, and refuses an unknown status', async () => {
    const u = await trader('100');
    const a = ok(await place(h.app, u.token, { side: 'buy', price: '1000', qty: '0.01' }));
    const b = ok(await place(h.app, u.token, { side: 'buy', price: '1001', qty: '0.01' }));
    ok(await cancel(h.app, u.token, a.id));
    const waiting = (await list(h.app, u.token, { status: 'waiting', symbol: 'BTC/USDT' })).body.data;
    expect(waiting.list.map((o) => o.id)).toEqual([b.id]);
    const both = (await list(h.app, u.token, { status: 'waiting,cancelled', limit: '1' })).body.data;
    expect([both.total, both.list.length, both.list[0]!.id]).toEqual([2, 1, b.id]);
    const bad = await list(h.app, u.token, { status: 'open' });
    expect([bad.status, bad.body.message]).toEqual([
      400,
      'The status must be waiting, completed or cancelled',
    ]);
    ok(await cancel(h.app, u.token, b.id));
  });

  it('currency/deal shows the real book', async () => {
    const u = await trader('100');
    const o = ok(await place(h.app, u.token, { side: 'buy', price: '1234.56', qty: '0.01' }));
    const deal = await request<{ depth: { bids: { price: string; qty: string }[] } }>(
      h.app,
      'GET',
      'currency/deal',
      {
        symbol: 'btcusdt',
      },
    );
    expect(deal.body.data.depth.bids).toEqual([{ price: '1234.56', qty: '0.01' }]);
    ok(await cancel(h.app, u.token, o.id));
  });
});
