import type { AdminAdjustment } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { fund, ledgerBalance, USDT } from '../wallet/test-helpers.ts';
import { auditRows, operatorLogin } from './testing.ts';

// Manual balance adjustments (issue 23): asked by one operator, decided by another admin, posted once.
let h: Harness;
let alice: { id: number; token: string };
let bob: { id: number; token: string };
let reviewer: { id: number; token: string };
let support: { id: number; token: string };
beforeAll(async () => {
  h = await startHarness();
  alice = await operatorLogin(h, 'admin');
  bob = await operatorLogin(h, 'admin');
  reviewer = await operatorLogin(h, 'reviewer');
  support = await operatorLogin(h, 'support');
});
afterAll(() => h.close());

const ask = (body: Record<string, string>, token = alice.token, lang: 'en' | 'th' = 'en') =>
  h.call<AdminAdjustment>('POST', 'admin/adjustments/request', body, { token, lang });
const decide = (decision: 'approve' | 'reject', id: number, token: string, note = '') =>
  h.call<AdminAdjustment>('POST', `admin/adjustments/${decision}`, { id: String(id), note }, { token });

describe('balance adjustments', () => {
  it('a request moves nothing; another admin approves and the ledger posts it once, audited', async () => {
    const u = await registerByEmail(h);
    const asked = await ask({
      user_id: String(u.user.id),
      account_type: 'spot',
      currency_id: USDT,
      amount: '125.5',
      reason: 'compensation for ticket 42',
    });
    expect(asked.body.type).toBe('ok');
    expect(asked.body.data).toMatchObject({
      status: 'pending',
      amount: '125.5',
      symbol: 'USDT',
      user_account: u.email,
    });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '0', frozen: '0' });

    const own = await decide('approve', asked.body.data.id, alice.token);
    expect(own.status).toBe(403);
    expect(own.body.message).toBe('Another operator must review your own request');
    const ok = await decide('approve', asked.body.data.id, bob.token);
    expect(ok.body.data).toMatchObject({ status: 'approved', reviewed_by: bob.id });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '125.5', frozen: '0' });
    expect(await ledgerBalance(h, { house: 'adjustments' })).toMatchObject({ available: '-125.5' });
    const [journal] = await h.app.ctx.db.query<{ reason: string; operator_id: number }>(
      "SELECT reason, operator_id FROM ledger_journals WHERE ref_type = 'adjustment' AND ref_id = $1",
      [String(asked.body.data.id)],
    );
    expect(journal).toEqual({ reason: 'adjustment', operator_id: bob.id });
    const again = await decide('approve', asked.body.data.id, bob.token);
    expect(again.body.message).toBe('This request has already been reviewed');
    const audit = await auditRows(h, 'adjustment', asked.body.data.id);
    expect(audit.map((a) => [a.action, a.operator_id])).toEqual([
      ['adjustment.request', alice.id],
      ['adjustment.approve', bob.id],
    ]);
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });

  it('a reviewer may ask but not decide; a rejection needs a note and posts nothing', async () => {
    const u = await registerByEmail(h);
    const asked = await ask(
      { user_id: String(u.user.id), account_type: 'option', currency_id: USDT, amount: '5', reason: 'promo' },
      reviewer.token,
    );
    expect(asked.body.type).toBe('ok');
    expect((await decide('approve', asked.body.data.id, reviewer.token)).status).toBe(403);
    expect((await decide('reject', asked.body.data.id, bob.token)).body.message).toBe(
      'Please enter the reason for rejecting',
    );
    const rejected = await decide('reject', asked.body.data.id, bob.token, 'not agreed');
    expect(rejected.body.data).toMatchObject({ status: 'rejected', review_note: 'not agreed' });
    expect(await ledgerBalance(h, { userId: u.user.id, type: 'option' })).toEqual({
      available: '0',
      frozen: '0',
    });
    expect((await auditRows(h, 'adjustment', asked.body.data.id)).map((a) => a.action)).toEqual([
      'adjustment.request',
      'adjustment.reject',
    ]);
  });

  it('a debit beyond the available balance is refused and stays pending', async () => {
    const u = await registerByEmail(h);
    await fund(h, u, '10');
    const asked = await ask({
      user_id: String(u.user.id),
      account_type: 'spot',
      currency_id: USDT,
      amount: '-30',
      reason: 'reverse a double credit',
    });
    const refused = await decide('approve', asked.body.data.id, bob.token);
    expect(refused.body.message).toBe("The user's available balance is lower than this debit");
    const list = await h.call<{ items: AdminAdjustment[] }>(
      'GET',
      'admin/adjustments',
      {},
      { token: bob.token },
    );
    expect(list.body.data.items.find((a) => a.id === asked.body.data.id)?.status).toBe('pending');
    const small = await ask({
      user_id: String(u.user.id),
      account_type: 'spot',
      currency_id: USDT,
      amount: '-4',
      reason: 'fee refund reversed',
    });
    await decide('approve', small.body.data.id, bob.token);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '6', frozen: '0' });
  });

  it('checks every field in the operator language', async () => {
    const u = await registerByEmail(h);
    const base = {
      user_id: String(u.user.id),
      account_type: 'spot',
      currency_id: USDT,
      amount: '1',
      reason: 'r',
    };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, amount: '0' }, 'Enter a signed amount other than zero, with at most 6 decimals'],
      [{ ...base, amount: 'abc' }, 'Enter a signed amount other than zero, with at most 6 decimals'],
      [{ ...base, reason: '' }, 'Please enter the reason for the adjustment'],
      [{ ...base, user_id: '99999999' }, 'This user does not exist'],
      [{ ...base, account_type: 'savings' }, 'Please choose an account'],
    ];
    for (const [body, message] of cases) {
      const res = await ask(body);
      expect(res.body.type, JSON.stringify(body)).toBe('error');
      expect(res.body.message).toBe(message);
    }
    const th = await ask({ ...base, reason: '' }, alice.token, 'th');
    expect(th.body.message).toBe('กรุณากรอกเหตุผลของการปรับยอด');
  });

  it('20 approvals at once by different admins post once', async () => {
    const u = await registerByEmail(h);
    const asked = await ask({
      user_id: String(u.user.id),
      account_type: 'spot',
      currency_id: USDT,
      amount: '7',
      reason: 'race',
    });
    const admins = await Promise.all(Array.from({ length: 4 }, () => operatorLogin(h, 'admin')));
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => decide('approve', asked.body.data.id, admins[i % 4]!.token)),
    );
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(1);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '7', frozen: '0' });
    const [n] = await h.app.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_journals WHERE ref_type = 'adjustment' AND ref_id = $1",
      [String(asked.body.data.id)],
    );
    expect(n!.n).toBe(1);
    expect((await auditRows(h, 'adjustment', asked.body.data.id)).length).toBe(2);
  });

  it('roles: a user token gets 999, support gets 403', async () => {
    const u = await registerByEmail(h);
    for (const [method, path] of [
      ['GET', 'admin/adjustments'],
      ['POST', 'admin/adjustments/request'],
      ['POST', 'admin/adjustments/approve'],
      ['POST', 'admin/adjustments/reject'],
    ] as const) {
      expect((await h.call(method, path, {}, { token: u.token })).body.code, path).toBe(999);
      expect((await h.call(method, path, {}, { token: support.token })).status, path).toBe(403);
    }
  });
});
