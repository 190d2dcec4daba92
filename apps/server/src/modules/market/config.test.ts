import type { ConfigMarket, SpotOrder } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin } from '../admin/testing.ts';
import { createSpotService } from '../spot/service.ts';
import { BTC, fund, houseFees, ledgerClean, place, spotBalance, USDT } from '../spot/test-helpers.ts';

// Operators edit spot markets (issue 23): fees apply to the next fill, a finer tick or lot to
// new orders while resting orders keep their price and quantity, and nothing is corrupted.

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  await h.app.spot.start();
  admin = (await operatorLogin(h, 'admin')).token;
});
afterAll(() => h.close());

const SAVE = 'admin/config/markets/save';
const BNB = 4;
const BNB_MARKET = 3;
async function current(id: number): Promise<Record<string, string>> {
  const list = await h.call<ConfigMarket[]>('GET', 'admin/config/markets', {}, { token: admin });
  const m = list.body.data.find((x) => x.id === id)!;
  return {
    id: String(id),
    tick_size: m.tick_size,
    lot_size: m.lot_size,
    min_amount: m.min_amount,
    maker_fee: m.maker_fee,
    taker_fee: m.taker_fee,
  };
}
const save = async (id: number, over: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<ConfigMarket>('POST', SAVE, { ...(await current(id)), ...over }, { token: admin, lang });

async function trader(usdt?: string, base?: { id: number; amount: string }) {
  const u = await registerByEmail(h);
  if (usdt) await fund(h.app, u.user.id, USDT, usdt);
  if (base) await fund(h.app, u.user.id, base.id, base.amount);
  return { id: u.user.id, token: u.token };
}
const order = (r: { body: { type: string; message: string; data: SpotOrder } }) => {
  expect(r.body.type === 'ok' ? 'ok' : r.body.message).toBe('ok');
  return r.body.data;
};

describe('admin/config/markets', () => {
  it('new fees apply to the next fill, and the change is audited with the row before and after', async () => {
    const res = await save(BTC, { taker_fee: '0.002', maker_fee: '0.0005' });
    expect(res.body.data).toMatchObject({ taker_fee: '0.002', maker_fee: '0.0005' });
    const [audit] = (await auditRows(h, 'market', BTC)).slice(-1);
    expect(audit).toMatchObject({
      action: 'config.market.save',
      before: { taker_fee: '0.001', maker_fee: '0.001' },
      after: { taker_fee: '0.002', maker_fee: '0.0005' },
    });
    const feesBefore = await houseFees(h.app, USDT);
    const maker = await trader('10000');
    const taker = await trader(undefined, { id: BTC, amount: '1' });
    order(await place(h.app, maker.token, { side: 'buy', type: 'limit', price: '60000', qty: '0.1' }));
    order(await place(h.app, taker.token, { side: 'sell', type: 'limit', price: '60000', qty: '0.1' }));
    // the seller (taker) pays 0.2 % of 6000 USDT in USDT
    expect(Number(await houseFees(h.app, USDT)) - Number(feesBefore)).toBeCloseTo(12, 8);
    expect(await spotBalance(h.app, taker.id, USDT)).toEqual({ available: '5988', frozen: '0' });
    expect(await ledgerClean(h)).toEqual([]);
  });

  it('a finer lot applies to new orders; an order resting on the old lot keeps its quantity and fills whole', async () => {
    const seller = await trader(undefined, { id: BTC, amount: '1' });
    const rest = order(
      await place(h.app, seller.token, { side: 'sell', type: 'limit', price: '61000', qty: '0.01' }),
    );
    // the old lot (0.00001) refuses 0.000005; the new one takes it
    const buyer = await trader('10000');
    const early = await place(h.app, buyer.token, {
      side: 'buy',
      type: 'limit',
      price: '61000',
      qty: '0.000005',
    });
    expect(early.body).toMatchObject({ type: 'error', field: 'qty' });
    expect((await save(BTC, { lot_size: '0.000005', min_amount: '0' })).body.type).toBe('ok');
    const fill = order(
      await place(h.app, buyer.token, { side: 'buy', type: 'limit', price: '61000', qty: '0.000005' }),
    );
    expect(fill).toMatchObject({ status: 'completed', filled_qty: '0.000005' });
    // the rest of the resting order is still there, and the next buyer takes all of it
    const all = order(
      await place(h.app, buyer.token, { side: 'buy', type: 'limit', price: '61000', qty: '0.009995' }),
    );
    expect(all).toMatchObject({ status: 'completed', filled_qty: '0.009995' });
    expect(h.app.spot.depthOf(BTC)).toEqual({ bids: [], asks: [] });
    const [row] = await h.app.ctx.db.query<{ status: string; filled_qty: string }>(
      'SELECT status, filled_qty::text FROM spot_orders WHERE id = $1',
      [rest.id],
    );
    expect({ status: row!.status, filled: Number(row!.filled_qty) }).toEqual({
      status: 'completed',
      filled: 0.01,
    });
    expect(await ledgerClean(h)).toEqual([]);
  });

  it('a finer tick (on a market not following the index) lets new orders use it; resting orders keep their price', async () => {
    // BNB/USDT made a market priced by its own trades, as a launched coin's is
    await h.app.ctx.db.query('UPDATE markets SET simulated = false WHERE id = $1', [BNB_MARKET]);
    h.app.market.reload();
    const seller = await trader(undefined, { id: BNB, amount: '10' });
    const sell = (price: string) =>
      place(h.app, seller.token, { symbol: 'bnbusdt', side: 'sell', type: 'limit', price, qty: '1' });
    order(await sell('590'));
    expect((await sell('590.005')).body).toMatchObject({ type: 'error', field: 'price' });
    expect((await save(BNB_MARKET, { tick_size: '0.005' })).body.type).toBe('ok');
    expect(order(await sell('590.005')).status).toBe('waiting');
    const depth = h.app.spot.depthOf(BNB_MARKET);
    expect(depth.asks.map((l) => l.price)).toEqual(['590', '590.005']);
    // the books read back from the database (as at a restart) hold the same orders
    const again = createSpotService(h.app.ctx, h.app.market, h.app.io, h.app.log);
    await again.start();
    expect(again.depthOf(BNB_MARKET)).toEqual(depth);
    h.app.market.setDepthProvider((m, levels) => h.app.spot.depthOf(m.id, levels));
    // a buyer crossing both takes the old-tick order first, at its own price
    const buyer = await trader('5000');
    const fill = order(
      await place(h.app, buyer.token, {
        symbol: 'bnbusdt',
        side: 'buy',
        type: 'limit',
        price: '590.005',
        qty: '2',
      }),
    );
    expect(fill).toMatchObject({ status: 'completed', filled_qty: '2', filled_amount: '1180.005' });
    expect(await ledgerClean(h)).toEqual([]);
  });

  it('refuses a coarser step, a tick change on an index market, and bad fees, each naming its field', async () => {
    const cases: [number, Record<string, string>, string, string][] = [
      [
        BTC,
        { lot_size: '0.001' },
        'lot_size',
        'Lot size may only become finer: the current step 0.000005 must be a whole multiple of the new one, so resting orders stay valid',
      ],
      [
        BTC,
        { tick_size: '0.001' },
        'tick_size',
        'Tick size of a market that follows the index feed is fixed: contracts and charts count its prices in it',
      ],
      [BTC, { taker_fee: '0.5' }, 'taker_fee', 'Taker fee must be between 0 and 0.1'],
      [BTC, { maker_fee: 'x' }, 'maker_fee', 'Maker fee must be a number'],
      [BTC, { tick_size: '0' }, 'tick_size', 'Tick size must be above 0 and at most 1000000'],
      [BTC, { min_amount: '' }, 'min_amount', 'Minimum amount is required'],
      [999, {}, 'id', 'Item: no such item'],
    ];
    for (const [id, over, field, message] of cases) {
      const body =
        id === 999 ? { ...(await current(BTC)), id: '999', ...over } : { ...(await current(id)), ...over };
      const res = await h.call('POST', SAVE, body, { token: admin });
      expect({ field: res.body.field, message: res.body.message }).toEqual({ field, message });
    }
  });

  it('is for admins only', async () => {
    const user = await registerByEmail(h);
    expect((await h.call('POST', SAVE, await current(BTC), { token: user.token })).body.code).toBe(999);
    const support = (await operatorLogin(h, 'support')).token;
    expect((await h.call('GET', 'admin/config/markets', {}, { token: support })).status).toBe(403);
  });
});
