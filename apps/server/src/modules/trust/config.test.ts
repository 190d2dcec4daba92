import type { ConfigTrustProduct, TrustConfig, TrustOrderPage } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin } from '../admin/testing.ts';
import { buy, trustUser } from './test-helpers.ts';

// Operators create and edit deposit products (issue 23): validated field by field in the
// operator's language, audited before/after, admins only; orders keep the terms they were bought
// with, the capacity never drops below what is sold, the currency is fixed once there are orders.

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await operatorLogin(h, 'admin')).token;
});
afterAll(() => h.close());

const SAVE = 'admin/trust/products/save';
const form = (over: Record<string, string> = {}) => ({
  name_en: 'USDT 10-day hosting',
  name_th: 'ฝากประจำ USDT 10 วัน',
  currency: 'USDT',
  term_days: '10',
  min_amount: '50',
  daily_rate: '0.003',
  state: 'ongoing',
  capacity: '1000',
  penalty_rule: 'daily_interest',
  penalty_rate: '1.5',
  ...over,
});
const save = (body: Record<string, string>, token = admin, lang: 'en' | 'th' = 'en') =>
  h.call<ConfigTrustProduct>('POST', SAVE, body, { token, lang });
const products = async (lang: 'en' | 'th' | 'ja' = 'en') =>
  (await h.call<TrustConfig>('GET', 'lh/deposit/config', undefined, { lang })).body.data.products;

describe('admin/trust/products', () => {
  it('creates a product users see at once in their language, audited with no before', async () => {
    const res = await save(form());
    expect(res.body).toMatchObject({ type: 'ok', message: 'Saved' });
    const p = res.body.data;
    expect(p).toMatchObject({
      currency: 'USDT',
      term_days: 10,
      daily_rate: '0.003',
      capacity: '1000',
      sold: '0',
    });
    expect((await products('th')).find((x) => x.id === p.id)).toMatchObject({
      name: 'ฝากประจำ USDT 10 วัน',
      total_rate: '0.03',
      min_amount: '50',
    });
    // no Japanese name given: English
    expect((await products('ja')).find((x) => x.id === p.id)?.name).toBe('USDT 10-day hosting');
    const [audit] = await auditRows(h, 'trust_product', p.id);
    expect(audit).toMatchObject({ action: 'trust.product.create', before: null });
    expect(audit!.after).toMatchObject({ capacity: '1000' });
  });

  it('edits: an order bought keeps its rate and term, capacity stays above what is sold, the currency is fixed', async () => {
    const p = (await save(form({ name_en: 'Edit me' }))).body.data;
    const u = await trustUser(h, '1000');
    const bought = await buy(h, u.token, { product_id: String(p.id), amount: '400' });
    expect(bought.status).toBe(200);

    const edited = await save(
      form({ id: String(p.id), daily_rate: '0.01', term_days: '20', capacity: '400' }),
    );
    expect(edited.status).toBe(200);
    expect(edited.body.data).toMatchObject({ daily_rate: '0.01', term_days: 20, sold: '400', orders: 1 });
    const mine = await h.call<TrustOrderPage>('GET', 'lh/deposit/order', undefined, { token: u.token });
    expect(mine.body.data.list[0]).toMatchObject({
      daily_rate: '0.003',
      term_days: 10,
      daily_interest: '1.2',
    });

    const below = await save(form({ id: String(p.id), capacity: '399.99' }));
    expect({ status: below.status, field: below.body.field, message: below.body.message }).toEqual({
      status: 400,
      field: 'capacity',
      message: 'Capacity may not be below what is already taken (400)',
    });
    const moved = await save(form({ id: String(p.id), currency: 'BTC', capacity: '500' }), admin, 'th');
    expect(moved.status).toBe(400);
    expect(moved.body.field).toBe('currency');
    expect(moved.body.message).toBe('สกุลเงิน เปลี่ยนไม่ได้เมื่อมีคำสั่งแล้ว เพราะคำสั่งทำไว้ตามค่านี้');
    // refused edits changed nothing and wrote no audit entry
    expect((await products()).find((x) => x.id === p.id)).toMatchObject({
      currency: 'USDT',
      capacity: '400',
    });
    const audits = await auditRows(h, 'trust_product', p.id);
    expect(audits.map((a) => a.action)).toEqual(['trust.product.create', 'trust.product.edit']);
    expect(audits[1]!.before).toMatchObject({ daily_rate: '0.003', capacity: '1000' });
    expect(audits[1]!.after).toMatchObject({ daily_rate: '0.01', capacity: '400' });
  });

  it('names the wrong field in the operator language and writes nothing', async () => {
    const before = (await products()).length;
    for (const [over, field] of [
      [{ name_en: '' }, 'name_en'],
      [{ currency: 'NOPE' }, 'currency'],
      [{ daily_rate: '1' }, 'daily_rate'],
      [{ min_amount: '0.0000001' }, 'min_amount'],
      [{ state: 'closed' }, 'state'],
      [{ penalty_rule: 'none' }, 'penalty_rule'],
      [{ id: '99999' }, 'id'],
    ] as const) {
      const res = await save(form(over), admin, 'th');
      expect(res.status, JSON.stringify(over)).toBeGreaterThanOrEqual(400);
      expect(res.body.field, JSON.stringify(over)).toBe(field);
    }
    expect((await save(form({ term_days: '0' }), admin, 'th')).body.message).toBe(
      'ระยะเวลา (วัน)ต้องเป็นจำนวนเต็มตั้งแต่ 1 ถึง 3650',
    );
    expect(await products()).toHaveLength(before);
  });

  it('is for admins: a user token is answered 999, a reviewer 403, and nothing is written', async () => {
    const user = await registerByEmail(h);
    const asUser = await save(form({ name_en: 'Intruder' }), user.token);
    expect({ status: asUser.status, code: asUser.body.code }).toEqual({ status: 401, code: 999 });
    const reviewer = (await operatorLogin(h, 'reviewer')).token;
    for (const [method, path, body] of [
      ['POST', SAVE, form({ name_en: 'Intruder' })],
      ['GET', 'admin/trust/products', {}],
    ] as const)
      expect((await h.call(method, path, body, { token: reviewer })).status).toBe(403);
    expect((await products()).some((p) => p.name === 'Intruder')).toBe(false);
  });

  it('12 parallel creations each get their own product', async () => {
    const all = await Promise.all(
      Array.from({ length: 12 }, (_, i) => save(form({ name_en: `Parallel ${i}` }))),
    );
    expect(all.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(new Set(all.map((r) => r.body.data.id)).size).toBe(12);
  });
});
