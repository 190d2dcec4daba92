import type { ConfigContract, ConfigMarketMaker } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin } from '../admin/testing.ts';
import { MarketMaker } from '../spot/maker.ts';

// Operators edit contract markets and the house market maker (issue 23): validated, audited,
// admins only, and the running services take the new values without a restart.

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await operatorLogin(h, 'admin')).token;
});
afterAll(() => h.close());

const btcForm = (over: Record<string, string> = {}) => ({
  id: '1',
  lot_value: '0.01',
  multiples: '5,10,20,50,100',
  open_fee_rate: '0.0005',
  close_fee_rate: '0.0005',
  maintenance_rate: '0.005',
  ...over,
});
const save = (body: Record<string, string>, token = admin) =>
  h.call<ConfigContract>('POST', 'admin/config/contracts/save', body, { token });
interface Deal {
  list: { symbol: string; multiples: number[]; maintenance_rate: string; open_fee_rate: string }[];
}
const btcDeal = async () =>
  (await h.call<Deal>('GET', 'lever/deal', { symbol: 'btcusdt' })).body.data.list.find(
    (c) => c.symbol === 'btcusdt',
  )!;

describe('admin/config/contracts', () => {
  it('new multiples, fees and maintenance reach the running contract service at once; audited', async () => {
    expect((await btcDeal()).multiples).toEqual([5, 10, 20, 50, 100]);
    const res = await save(
      btcForm({ multiples: '3, 10,25', maintenance_rate: '0.02', open_fee_rate: '0.001' }),
    );
    expect(res.body.data).toMatchObject({ multiples: [3, 10, 25], maintenance_rate: '0.02' });
    expect(await btcDeal()).toMatchObject({
      multiples: [3, 10, 25],
      maintenance_rate: '0.02',
      open_fee_rate: '0.001',
    });
    const [audit] = (await auditRows(h, 'contract_market', 1)).slice(-1);
    expect(audit).toMatchObject({
      action: 'config.contract.save',
      before: { multiples: [5, 10, 20, 50, 100], maintenance_rate: '0.005' },
      after: { multiples: [3, 10, 25], maintenance_rate: '0.02' },
    });
  });

  it('keeps the maintenance rate below the initial margin of the largest multiple, and names each bad field', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [
        { multiples: '5,10,100', maintenance_rate: '0.01' },
        'maintenance_rate',
        'Maintenance margin rate must be below the initial margin of the largest multiple (100×: below 0.01)',
      ],
      [
        { multiples: '5,abc' },
        'multiples',
        'Leverage multiples: whole numbers from 1 to 200, at most 12, separated by commas',
      ],
      [
        { multiples: '0,5' },
        'multiples',
        'Leverage multiples: whole numbers from 1 to 200, at most 12, separated by commas',
      ],
      [{ lot_value: '0' }, 'lot_value', 'Lot value must be above 0 and at most 1000000'],
      [{ close_fee_rate: '0.2' }, 'close_fee_rate', 'Closing fee rate must be between 0 and 0.1'],
      [{ id: '77' }, 'id', 'Item: no such item'],
    ];
    const before = await btcDeal();
    for (const [over, field, message] of cases) {
      const res = await save(btcForm(over));
      expect({ status: res.status, field: res.body.field, message: res.body.message }).toEqual({
        status: 400,
        field,
        message,
      });
    }
    expect(await btcDeal()).toEqual(before);
  });

  it('is for admins only', async () => {
    const user = await registerByEmail(h);
    expect((await save(btcForm(), user.token)).body.code).toBe(999);
    const support = (await operatorLogin(h, 'support')).token;
    expect((await save(btcForm(), support)).status).toBe(403);
    expect((await h.call('GET', 'admin/config/contracts', {}, { token: support })).status).toBe(403);
  });
});

describe('admin/config/market_maker', () => {
  it('starts from the environment; a saved spread and size are what the maker quotes with next', async () => {
    const get = await h.call<ConfigMarketMaker>('GET', 'admin/config/market_maker', {}, { token: admin });
    expect(get.body.data).toMatchObject({
      spread_bps: h.config.marketMaker.spreadBps,
      size_quote: h.config.marketMaker.sizeQuote,
      from_environment: true,
    });
    const maker = new MarketMaker(0, h.app.spot, h.app.market, h.config.marketMaker, h.app.log);
    const btc = (await h.app.market.allMarkets()).find((m) => m.symbol === 'btcusdt')!;
    const res = await h.call<ConfigMarketMaker>(
      'POST',
      'admin/config/market_maker/save',
      { spread_bps: '50', size_quote: '600' },
      { token: admin },
    );
    expect(res.body.data).toMatchObject({ spread_bps: 50, size_quote: '600', from_environment: false });
    await maker.useSettings(h.app.ctx.db);
    const [bid, ask] = maker.ladder(btc, '60000');
    // 0.5 % from the index, each worth about 600 USDT
    expect(bid).toMatchObject({ side: 'buy', price: '59700', qty: '0.01005' });
    expect(ask).toMatchObject({ side: 'sell', price: '60300', qty: '0.00995' });
    const [audit] = await auditRows(h, 'market_maker', 'house');
    expect(audit).toMatchObject({
      before: { from_environment: true },
      after: { spread_bps: 50, size_quote: '600' },
    });
  });

  it('refuses a spread out of range and a size that is not a positive amount', async () => {
    for (const [body, field] of [
      [{ spread_bps: '0', size_quote: '600' }, 'spread_bps'],
      [{ spread_bps: '10', size_quote: '-1' }, 'size_quote'],
    ] as const) {
      const res = await h.call('POST', 'admin/config/market_maker/save', body, { token: admin });
      expect({ status: res.status, field: res.body.field }).toEqual({ status: 400, field });
    }
  });
});
