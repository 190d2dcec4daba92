import type { ConfigOptionSeconds, OptionSeconds } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin } from '../admin/testing.ts';
import { optionTrader, submit, tick } from './test-helpers.ts';

// Operators edit option delivery times (issue 23): validated field by field, audited, admins
// only, and the H5 (microtrade/seconds, microtrade/submit) follows at once.

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await operatorLogin(h, 'admin')).token;
});
afterAll(() => h.close());

const SAVE = 'admin/config/option_seconds/save';
const form = (over: Record<string, string> = {}) => ({
  symbol: 'btcusdt',
  seconds: '60',
  profit_ratio: '0.85',
  fee_rate: '0.02',
  min_amount: '10',
  max_amount: '10000',
  enabled: '1',
  ...over,
});
const save = (body: Record<string, string>, token = admin, lang: 'en' | 'th' = 'en') =>
  h.call<ConfigOptionSeconds>('POST', SAVE, body, { token, lang });
const h5Seconds = async () =>
  (await h.call<OptionSeconds[]>('GET', 'microtrade/seconds', { symbol: 'btcusdt' })).body.data;

describe('admin/config/option_seconds', () => {
  it('changes a delivery time: the H5 shows the new ratio and range on its next request, audited before/after', async () => {
    const res = await save(form({ profit_ratio: '0.9', min_amount: '20', max_amount: '8000' }));
    expect(res.body).toMatchObject({ type: 'ok', message: 'Saved' });
    expect(res.body.data).toMatchObject({
      symbol: 'btcusdt',
      seconds: 60,
      profit_ratio: '0.9',
      enabled: true,
    });
    const sixty = (await h5Seconds()).find((s) => s.seconds === 60);
    expect(sixty).toMatchObject({ profit_ratio: '0.9', min_amount: '20', max_amount: '8000' });

    const [audit] = (await auditRows(h, 'option_seconds', 'btcusdt:60')).slice(-1);
    expect(audit).toMatchObject({
      action: 'config.option_seconds.save',
      before: { profit_ratio: '0.85', min_amount: '10', max_amount: '10000' },
      after: { profit_ratio: '0.9', min_amount: '20', max_amount: '8000' },
    });
  });

  it('adds a delivery time, and taking it off sale hides it from the H5 and refuses purchases of it', async () => {
    expect((await save(form({ seconds: '45', profit_ratio: '0.82' }))).body.type).toBe('ok');
    expect((await h5Seconds()).map((s) => s.seconds)).toContain(45);
    expect((await auditRows(h, 'option_seconds', 'btcusdt:45'))[0]).toMatchObject({ before: null });

    expect((await save(form({ seconds: '45', profit_ratio: '0.82', enabled: '0' }))).body.type).toBe('ok');
    expect((await h5Seconds()).map((s) => s.seconds)).not.toContain(45);
    const u = await optionTrader(h);
    await tick(h.app, '65000');
    const bought = await submit(h, u.token, { seconds: '45' });
    expect(bought.body).toMatchObject({ type: 'error', field: 'seconds' });
    // the operators' list still has it, off sale
    const list = await h.call<ConfigOptionSeconds[]>(
      'GET',
      'admin/config/option_seconds',
      {},
      { token: admin },
    );
    expect(list.body.data.find((s) => s.symbol === 'btcusdt' && s.seconds === 45)).toMatchObject({
      enabled: false,
    });
  });

  it('never changes an order already bought: it keeps the ratio it was bought with', async () => {
    const u = await optionTrader(h);
    await tick(h.app, '65000');
    const bought = await submit(h, u.token, { seconds: '120', amount: '100' });
    expect(bought.body.type).toBe('ok');
    expect((await save(form({ seconds: '120', profit_ratio: '0.5', min_amount: '50' }))).body.type).toBe(
      'ok',
    );
    const [row] = await h.app.ctx.db.query<{ profit_ratio: string }>(
      'SELECT profit_ratio::text FROM option_orders WHERE id = $1',
      [bought.body.data.id],
    );
    expect(Number(row!.profit_ratio)).toBe(0.9);
  });

  it('refuses each bad field with an error naming it, in the operator language, and changes nothing', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ symbol: '' }, 'symbol', 'Market is required'],
      [{ symbol: 'nosuch' }, 'symbol', 'Market: no such item'],
      [{ seconds: '3' }, 'seconds', 'Delivery time (seconds) must be a whole number from 5 to 86400'],
      [{ seconds: 'abc' }, 'seconds', 'Delivery time (seconds) must be a whole number from 5 to 86400'],
      [{ profit_ratio: '0' }, 'profit_ratio', 'Profit ratio must be above 0 and at most 10'],
      [{ profit_ratio: '1e3' }, 'profit_ratio', 'Profit ratio must be a number'],
      [{ fee_rate: '1' }, 'fee_rate', 'Fee rate must be between 0 and 0.99999999'],
      [{ min_amount: '-1' }, 'min_amount', 'Minimum amount must be above 0 and at most 1000000000'],
      [{ max_amount: '5' }, 'max_amount', 'Maximum amount must be at least the minimum (10)'],
      [{ min_amount: '0.123456789' }, 'min_amount', 'Minimum amount may have at most 8 decimal places'],
      [{ enabled: 'maybe' }, 'enabled', 'On sale must be on or off'],
    ];
    const before = await h5Seconds();
    for (const [over, field, message] of cases) {
      const res = await save(form({ seconds: '300', ...over }));
      expect({ field: res.body.field, message: res.body.message, status: res.status }).toEqual({
        field,
        message,
        status: 400,
      });
    }
    const th = await save(form({ profit_ratio: '' }), admin, 'th');
    expect(th.body.message).toBe('กรุณากรอกอัตรากำไร');
    expect(await h5Seconds()).toEqual(before);
  });

  it('25 saves at once of one delivery time: each audit entry starts where the one before ended', async () => {
    const ratios = Array.from({ length: 25 }, (_, i) => `0.${(60 + i).toString()}`);
    const answers = await Promise.all(ratios.map((r) => save(form({ seconds: '300', profit_ratio: r }))));
    expect(answers.every((a) => a.body.type === 'ok')).toBe(true);
    const trail = (await auditRows(h, 'option_seconds', 'btcusdt:300')).slice(-25);
    expect(trail).toHaveLength(25);
    for (let i = 1; i < trail.length; i++)
      expect(trail[i]!.before?.profit_ratio).toBe(trail[i - 1]!.after?.profit_ratio);
    const last = trail[trail.length - 1]!.after?.profit_ratio;
    expect((await h5Seconds()).find((s) => s.seconds === 300)?.profit_ratio).toBe(last);
    expect(new Set(trail.map((r) => r.after?.profit_ratio))).toEqual(
      new Set(ratios.map((r) => r.replace(/0+$/, ''))),
    );
  });

  it('25 adds at once of one new delivery time: one is the add (before: none), the others change it in turn', async () => {
    const ratios = Array.from({ length: 25 }, (_, i) => `0.${(30 + i).toString()}`);
    const answers = await Promise.all(ratios.map((r) => save(form({ seconds: '900', profit_ratio: r }))));
    expect(answers.every((a) => a.body.type === 'ok')).toBe(true);
    const trail = await auditRows(h, 'option_seconds', 'btcusdt:900');
    expect(trail).toHaveLength(25);
    expect(trail.filter((r) => r.before === null)).toHaveLength(1);
    for (let i = 1; i < trail.length; i++)
      expect(trail[i]!.before?.profit_ratio).toBe(trail[i - 1]!.after?.profit_ratio);
  });

  it('is for admins: a user token is answered 999, a reviewer 403, and nothing is written', async () => {
    const user = await registerByEmail(h);
    const asUser = await save(form({ profit_ratio: '3' }), user.token);
    expect({ status: asUser.status, code: asUser.body.code }).toEqual({ status: 401, code: 999 });
    const reviewer = (await operatorLogin(h, 'reviewer')).token;
    for (const [method, path, body] of [
      ['POST', SAVE, form({ profit_ratio: '3' })],
      ['GET', 'admin/config/option_seconds', {}],
    ] as const) {
      const res = await h.call(method, path, body, { token: reviewer });
      expect(res.status).toBe(403);
    }
    expect((await h5Seconds()).find((s) => s.seconds === 60)?.profit_ratio).not.toBe('3');
  });
});
