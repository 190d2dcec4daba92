import type { ConfigLaunchpadProject, LaunchpadConfig, LaunchpadOrder } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../ledger/ledger.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin } from '../admin/testing.ts';

// Operators create and edit new-coin projects (issue 23): validated field by field in the
// operator's language, audited before/after, admins only; nothing users hold changes: with
// subscriptions the coin, payment currency, issue price, start and lock-up are fixed, the supply
// stays above what is subscribed, and the launch time is fixed once one is passed.

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await operatorLogin(h, 'admin')).token;
  await h.app.ctx.db.query(
    `INSERT INTO currencies (id, symbol, name, decimals, chains, is_fiat, min_deposit, min_withdraw, withdraw_fee, can_deposit, can_withdraw, sort)
     VALUES (81, 'CFGA', 'Config A', 6, '{}', false, 0, 0, 0, false, false, 81),
            (82, 'CFGB', 'Config B', 6, '{}', false, 0, 0, 0, false, false, 82)`,
  );
});
afterAll(() => h.close());

const SAVE = 'admin/launchpad/projects/save';
const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
const form = (over: Record<string, string> = {}) => ({
  name_en: 'Config A launch',
  intro_en: 'A coin for the tests',
  intro_th: 'เหรียญสำหรับการทดสอบ',
  coin: 'CFGA',
  pay_currency: 'USDT',
  issue_price: '0.5',
  total_supply: '1000',
  user_min: '10',
  user_max: '300',
  starts_at: at(-1),
  ends_at: at(24),
  launch_at: at(48),
  lockup_days: '3',
  expected_return: '0.2',
  recommend: '0',
  tick_size: '0.001',
  lot_size: '0.1',
  ...over,
});
const save = (body: Record<string, string>, token = admin, lang: 'en' | 'th' = 'en') =>
  h.call<ConfigLaunchpadProject>('POST', SAVE, body, { token, lang });
const projects = async (lang: 'en' | 'th' = 'en') =>
  (await h.call<LaunchpadConfig>('GET', 'lh/send/config', undefined, { lang })).body.data.projects;

describe('admin/launchpad/projects', () => {
  let created: ConfigLaunchpadProject;

  it('creates a project users can subscribe to at once, in their language, audited with no before', async () => {
    const res = await save(form());
    expect(res.body).toMatchObject({ type: 'ok', message: 'Saved' });
    created = res.body.data;
    expect(created).toMatchObject({ coin: 'CFGA', issue_price: '0.5', orders: 0, listed: false });
    expect((await projects('th')).find((p) => p.id === created.id)).toMatchObject({
      state: 'subscribing',
      capacity: '500',
      intro: 'เหรียญสำหรับการทดสอบ',
    });
    const [audit] = await auditRows(h, 'launchpad_project', created.id);
    expect(audit).toMatchObject({ action: 'launchpad.project.create', before: null });
    // a coin offers once
    const again = await save(form({ name_en: 'Twice' }));
    expect({ status: again.status, field: again.body.field }).toEqual({ status: 400, field: 'coin' });
  });

  it('with subscriptions, keeps what users hold: fixed fields refused, supply above subscribed, edits audited', async () => {
    const u = await registerByEmail(h);
    await h.app.ctx.db.tx((q) =>
      post(q, {
        reason: 'deposit',
        legs: [
          { account: { userId: u.user.id, type: 'spot', currencyId: 3 }, available: '300' },
          { account: { house: 'deposits', currencyId: 3 }, available: '-300' },
        ],
      }),
    );
    const sub = await h.call<LaunchpadOrder>(
      'POST',
      'lh/send/order',
      { project_id: String(created.id), amount: '200' },
      { token: u.token },
    );
    expect(sub.status).toBe(200);
    const id = String(created.id);
    const base = {
      ...form(),
      id,
      starts_at: created.starts_at,
      ends_at: created.ends_at,
      launch_at: created.launch_at,
    };
    for (const [over, field] of [
      [{ issue_price: '0.4' }, 'issue_price'],
      [{ coin: 'CFGB' }, 'coin'],
      [{ pay_currency: 'BTC' }, 'pay_currency'],
      [{ lockup_days: '1' }, 'lockup_days'],
      [{ starts_at: at(-2) }, 'starts_at'],
      [{ total_supply: '399' }, 'total_supply'],
    ] as const) {
      const res = await save({ ...base, ...over });
      expect({ status: res.status, field: res.body.field }, JSON.stringify(over)).toEqual({
        status: 400,
        field,
      });
    }
    expect((await save({ ...base, total_supply: '399' })).body.message).toBe(
      'Total supply may not be below what is already taken (200)',
    );
    // what does not touch holdings may change: the close time, limits, texts, and the supply above 200 USDT
    const ok = await save({
      ...base,
      total_supply: '400',
      user_max: '250',
      ends_at: at(30),
      name_en: 'Renamed',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ total_supply: '400', subscribed: '200', orders: 1 });
    const audits = await auditRows(h, 'launchpad_project', created.id);
    expect(audits.map((a) => a.action)).toEqual(['launchpad.project.create', 'launchpad.project.edit']);
    expect(audits[1]!.before).toMatchObject({ total_supply: '1000' });
    expect(audits[1]!.after).toMatchObject({ total_supply: '400' });

    // once passed, the launch time is fixed (the allotted coins' unlock time is set from it)
    await h.call('POST', 'admin/launchpad/pass', { id: sub.body.data.id, amount: '200' }, { token: admin });
    const later = await save({
      ...base,
      total_supply: '400',
      user_max: '250',
      ends_at: ok.body.data.ends_at,
      launch_at: at(72),
    });
    expect({ status: later.status, field: later.body.field }).toEqual({ status: 400, field: 'launch_at' });
  });

  it('checks times and limits in the operator language and writes nothing', async () => {
    const before = (await projects()).length;
    const bad = await save(form({ coin: 'CFGB', ends_at: at(-2) }), admin, 'th');
    expect(bad.body.field).toBe('ends_at');
    expect(bad.body.message).toMatch(/^เวลาปิด ต้องอยู่หลัง /);
    for (const [over, field] of [
      [{ launch_at: at(1) }, 'launch_at'],
      [{ starts_at: 'tomorrow' }, 'starts_at'],
      [{ user_max: '5' }, 'user_max'],
      [{ pay_currency: 'CFGB' }, 'pay_currency'],
      [{ intro_en: '' }, 'intro_en'],
    ] as const) {
      const res = await save(form({ coin: 'CFGB', ...over }));
      expect(res.body.field, JSON.stringify(over)).toBe(field);
    }
    expect(await projects()).toHaveLength(before);
  });

  it('is for admins: a user token is answered 999, a reviewer 403, and nothing is written', async () => {
    const user = await registerByEmail(h);
    const asUser = await save(form({ coin: 'CFGB' }), user.token);
    expect({ status: asUser.status, code: asUser.body.code }).toEqual({ status: 401, code: 999 });
    const reviewer = (await operatorLogin(h, 'reviewer')).token;
    for (const [method, path, body] of [
      ['POST', SAVE, form({ coin: 'CFGB' })],
      ['GET', 'admin/launchpad/projects', {}],
    ] as const)
      expect((await h.call(method, path, body, { token: reviewer })).status).toBe(403);
    expect((await projects()).some((p) => p.coin === 'CFGB')).toBe(false);
  });
});
