import { dec } from '@verdant/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { seedTraders } from './load.ts';
import { BTC, cancel, ledgerClean, place, spotBalance, USDT } from './test-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const traders = (n: number) => h.app.ctx.db.tx((q) => seedTraders(q, n, { usdt: '100000', btc: '10' }));
const refusal = (r: { status: number; body: { message: string } }) => [r.status, r.body.message];

describe('order limits of a market', () => {
  it('a huge quantity, amount or price is refused naming the maximum, not the grid', async () => {
    const [u] = await traders(1);
    const huge = '99999999999999';
    const maxQty = 'The quantity must not be more than 1000 BTC';
    const maxValue = 'The order value must not be more than 10000000 USDT';
    expect(refusal(await place(h.app, u!.token, { side: 'sell', price: '50000', qty: huge }))).toEqual([
      400,
      maxQty,
    ]);
    expect(refusal(await place(h.app, u!.token, { side: 'buy', price: '50000', qty: huge }))).toEqual([
      400,
      maxQty,
    ]);
    expect(refusal(await place(h.app, u!.token, { side: 'sell', type: 'market', qty: huge }))).toEqual([
      400,
      maxQty,
    ]);
    expect(refusal(await place(h.app, u!.token, { side: 'buy', type: 'market', amount: huge }))).toEqual([
      400,
      'The amount must not be more than 10000000 USDT',
    ]);
    expect(refusal(await place(h.app, u!.token, { side: 'buy', price: '50000', qty: '300' }))).toEqual([
      400,
      maxValue,
    ]);
    expect(refusal(await place(h.app, u!.token, { side: 'buy', price: huge, qty: '0.001' }))).toEqual([
      400,
      maxValue,
    ]);
    const ja = await place(h.app, u!.token, { side: 'sell', price: '50000', qty: huge }, 'ja');
    expect(ja.body.message).toBe('数量は 1000 BTC 以下にしてください');
    // the maximum itself is fine
    const most = await place(h.app, u!.token, { side: 'sell', type: 'market', qty: '10' });
    expect(most.status).toBe(200);
    expect(await spotBalance(h.app, u!.id, USDT)).toEqual({ available: '100000', frozen: '0' });
  });

  it('at most max_open_orders resting orders per user and market, even with 30 placed at once', async () => {
    const db = h.app.ctx.db;
    await db.query("UPDATE markets SET max_open_orders = 5 WHERE symbol = 'btcusdt'");
    h.app.market.reload();
    try {
      const [a, b] = await traders(2);
      const body = { side: 'buy', price: '1000', qty: '0.01' };
      const answers = await Promise.all([
        ...Array.from({ length: 30 }, () => place(h.app, a!.token, body)),
        ...Array.from({ length: 5 }, () => place(h.app, b!.token, body)),
      ]);
      const mine = answers.slice(0, 30);
      const accepted = mine.filter((r) => r.status === 200);
      expect(accepted).toHaveLength(5);
      const message =
        'You already have 5 open orders in BTC/USDT, the most allowed. Cancel one to place another';
      expect(mine.filter((r) => r.status !== 200).map(refusal)).toEqual(Array(25).fill([409, message]));
      // another user has a limit of their own
      expect(answers.slice(30).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      // refused orders froze nothing and were never written
      expect(await spotBalance(h.app, a!.id, USDT)).toEqual({ available: '99950', frozen: '50' });
      const [n] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM spot_orders WHERE user_id = $1',
        [a!.id],
      );
      expect(n!.n).toBe(5);
      // the limit does not apply to another market, nor to market orders (they never rest)
      expect((await place(h.app, a!.token, { symbol: 'ethusdt', ...body })).status).toBe(200);
      const unfilled = await place(h.app, a!.token, { side: 'buy', type: 'market', amount: '10' });
      expect(unfilled.body.data).toMatchObject({ status: 'cancelled', cancel_reason: 'unfilled' });
      // one cancelled: one more may be placed, and no more
      expect((await cancel(h.app, a!.token, accepted[0]!.body.data.id)).status).toBe(200);
      expect((await place(h.app, a!.token, body)).status).toBe(200);
      expect(refusal(await place(h.app, a!.token, body))).toEqual([409, message]);
      expect(await ledgerClean(h)).toEqual([]);
    } finally {
      await db.query("UPDATE markets SET max_open_orders = 200 WHERE symbol = 'btcusdt'");
      h.app.market.reload();
    }
  });

  it('a limit order priced outside the band around the index is refused with the range allowed', async () => {
    const [u] = await traders(1);
    const index = (await h.app.market.feed.tick(Date.now() - 1000)).get(1)!;
    const tick = dec('0.01');
    const lo = dec(index).times('0.8').div(tick).ceil().times(tick).toFixed();
    const hi = dec(index).times('1.2').div(tick).floor().times(tick).toFixed();
    const message = `The price must be between ${lo} and ${hi} (within 20% of the index price)`;
    const above = dec(hi).plus(tick).toFixed();
    const below = dec(lo).minus(tick).toFixed();
    expect(refusal(await place(h.app, u!.token, { side: 'buy', price: above, qty: '0.001' }))).toEqual([
      400,
      message,
    ]);
    expect(refusal(await place(h.app, u!.token, { side: 'sell', price: below, qty: '0.001' }))).toEqual([
      400,
      message,
    ]);
    const zh = await place(h.app, u!.token, { side: 'sell', price: below, qty: '0.001' }, 'zh');
    expect(zh.body.message).toBe(`价格必须在 ${lo} 至 ${hi} 之间（指数价格的 ±20% 以内）`);
    // both ends are inside
    for (const [side, price] of [
      ['buy', hi],
      ['sell', lo],
    ] as const) {
      const r = await place(h.app, u!.token, { side, price, qty: '0.001' });
      expect(r.status).toBe(200);
      expect(r.body.data.status).toBe('waiting');
      expect((await cancel(h.app, u!.token, r.body.data.id)).status).toBe(200);
    }
    // a wider band is data
    await h.app.ctx.db.query("UPDATE markets SET price_band = 0.5 WHERE symbol = 'btcusdt'");
    h.app.market.reload();
    expect((await place(h.app, u!.token, { side: 'sell', price: below, qty: '0.001' })).status).toBe(200);
    expect(await spotBalance(h.app, u!.id, BTC)).toMatchObject({ frozen: '0.001' });
    expect(await ledgerClean(h)).toEqual([]);
  });
});
