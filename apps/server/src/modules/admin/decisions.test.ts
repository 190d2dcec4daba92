// A double click on a review decides once: 20 identical decisions sent at once through the
// operator API pass one and refuse the rest, for each queue (run on PostgreSQL as on PGlite).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../ledger/ledger.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { ledgerBalance, readyToWithdraw, requestDeposit, USDT } from '../wallet/test-helpers.ts';
import { auditRows, operatorLogin } from './testing.ts';

let h: Harness;
let reviewer: { id: number; token: string };
beforeAll(async () => {
  h = await startHarness();
  reviewer = await operatorLogin(h, 'reviewer');
});
afterAll(() => h.close());

const TIMES = 20;
const decide = (path: string, body: Record<string, string>) =>
  h.call('POST', `admin/${path}`, body, { token: reviewer.token });

/** Sends the same decision TIMES at once; answers how many passed and the codes of the others. */
async function twenty(path: string, body: Record<string, string>) {
  const results = await Promise.all(Array.from({ length: TIMES }, () => decide(path, body)));
  const passed = results.filter((r) => r.body.type === 'ok').length;
  const refused = results.filter((r) => r.body.type !== 'ok').map((r) => r.body.code);
  return { passed, refused };
}

async function ledgerClean() {
  expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
}

describe('20 identical decisions at once decide once', () => {
  it('a deposit is credited once, with the amount the operator saw arrive', async () => {
    const u = await registerByEmail(h);
    const id = await requestDeposit(h, u, '500');
    const r = await twenty('deposits/approve', { id: String(id), amount: '480.5' });
    expect(r).toEqual({ passed: 1, refused: Array(TIMES - 1).fill(3030) });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '480.5', frozen: '0' });
    const audit = await auditRows(h, 'deposit', id);
    expect(audit.map((a) => a.action)).toEqual(['deposit.approve']);
    expect(audit[0]).toMatchObject({
      before: { amount: '500', status: 'pending' },
      after: { status: 'approved' },
    });
    expect(Number((audit[0]!.after as { amount: string }).amount)).toBe(480.5);
    await ledgerClean();
  });

  it('a credited amount is checked against the currency before anything moves', async () => {
    const u = await registerByEmail(h);
    const id = await requestDeposit(h, u, '100');
    for (const amount of ['-5', '0', 'abc', '1.1234567890123']) {
      const res = await decide('deposits/approve', { id: String(id), amount });
      expect(res.body, amount).toMatchObject({ type: 'error', field: 'amount' });
    }
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '0', frozen: '0' });
    expect(await auditRows(h, 'deposit', id)).toEqual([]);
  });

  it('a withdrawal is paid out once; twenty rejections unfreeze once', async () => {
    const { u, addressId } = await readyToWithdraw(h, '1000');
    const out = async () => {
      const res = await h.call<{ id: number }>(
        'POST',
        'wallet/out',
        { currency_id: USDT, address_id: String(addressId), amount: '200', fund_password: '246810' },
        { token: u.token },
      );
      if (res.body.type !== 'ok') throw new Error(res.body.message);
      return res.body.data.id;
    };
    const first = await out();
    const before = await ledgerBalance(h, { userId: u.user.id });
    expect((await twenty('withdrawals/approve', { id: String(first), tx_ref: 'TX-1' })).passed).toBe(1);
    const paid = await ledgerBalance(h, { userId: u.user.id });
    expect(paid.available).toBe(before.available);
    const second = await out();
    const r = await twenty('withdrawals/reject', { id: String(second), reason: 'Address check failed' });
    expect(r).toEqual({ passed: 1, refused: Array(TIMES - 1).fill(3030) });
    expect((await ledgerBalance(h, { userId: u.user.id })).available).toBe(paid.available);
    expect((await auditRows(h, 'withdrawal', second)).map((a) => a.action)).toEqual(['withdrawal.reject']);
    await ledgerClean();
  });

  it('an identity verification is passed once', async () => {
    const u = await registerByEmail(h);
    await h.call(
      'POST',
      'user/real_name',
      { country: 'TH', name: 'Somchai Jaidee', id_number: `Z${u.user.id}7788` },
      { token: u.token },
    );
    const [v] = await h.app.ctx.db.query<{ id: number }>('SELECT id FROM verifications WHERE user_id = $1', [
      u.user.id,
    ]);
    const r = await twenty('verifications/approve', { id: String(v!.id) });
    expect(r).toEqual({ passed: 1, refused: Array(TIMES - 1).fill(3030) });
    expect((await auditRows(h, 'verification', v!.id)).map((a) => a.action)).toEqual([
      'verification.approve',
    ]);
  });

  it('a new-coin subscription is allotted once', async () => {
    const u = await registerByEmail(h);
    await h.app.ctx.db.tx((q) =>
      post(q, {
        reason: 'deposit',
        legs: [
          { account: { userId: u.user.id, type: 'spot', currencyId: Number(USDT) }, available: '1000' },
          { account: { house: 'deposits', currencyId: Number(USDT) }, available: '-1000' },
        ],
      }),
    );
    const order = await h.call<{ id: string }>(
      'POST',
      'lh/send/order',
      { project_id: '1', amount: '100' },
      { token: u.token },
    );
    expect(order.body.type, order.body.message).toBe('ok');
    const id = order.body.data.id;
    const r = await twenty('launchpad/pass', { id });
    expect(r.passed).toBe(1);
    expect(r.refused).toHaveLength(TIMES - 1);
    expect((await auditRows(h, 'launchpad_order', id)).map((a) => a.action)).toEqual(['launchpad.pass']);
    expect(await ledgerBalance(h, { userId: u.user.id })).toMatchObject({ available: '900' });
    await ledgerClean();
  });
});
