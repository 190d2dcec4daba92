// Deposit and withdrawal review through the operator API, with the wallet module's endpoints
// on the user side: every review moves money through the ledger and is audited with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { type AuditRow, auditRows, operatorLogin, uploadPng } from './testing.ts';

let h: Harness;
let reviewer: { id: number; token: string };
let admin: { id: number; token: string };
beforeAll(async () => {
  h = await startHarness();
  reviewer = await operatorLogin(h, 'reviewer');
  admin = await operatorLogin(h, 'admin');
});
afterAll(() => h.close());

const BANK = '9999';
const USDT = '3';

interface Deposit {
  id: number;
  user_id: number;
  user_account: string;
  symbol: string;
  amount: string;
  status: string;
  image: string;
  reject_reason: string | null;
  reviewed_by: number | null;
}
interface Withdrawal extends Deposit {
  fee: string;
  tx_ref: string | null;
  bank_card_id: number | null;
}
interface Balance {
  type: string;
  currency_id: number;
  symbol: string;
  available: string;
  frozen: string;
  total: string;
}

async function deposit(token: string, currencyId: string, amount: string, chain?: string): Promise<number> {
  const image = await uploadPng(h, token);
  const res = await h.call<{ id: number }>(
    'POST',
    'wallet/charge_req',
    { currency_id: currencyId, amount, image, ...(chain ? { chain } : {}) },
    { token },
  );
  if (res.body.type !== 'ok') throw new Error(`charge_req failed: ${res.body.message}`);
  return res.body.data.id;
}

const review = <T>(path: string, body: Record<string, string>, token = reviewer.token) =>
  h.call<T>('POST', `admin/${path}`, body, { token });

async function spot(userId: number, currencyId: number): Promise<Balance | undefined> {
  const res = await h.call<Balance[]>(
    'GET',
    'admin/balances',
    { user_id: String(userId) },
    { token: reviewer.token },
  );
  return res.body.data.find((b) => b.type === 'spot' && b.currency_id === currencyId);
}

async function expectLedgerClean() {
  const r = await verifyLedger(h.app.ctx.db);
  expect(r.problems).toEqual([]);
}

function expectAudit(row: AuditRow | undefined, action: string, before: string, after: string) {
  expect(row).toMatchObject({
    operator_id: reviewer.id,
    action,
    before: { status: before },
    after: { status: after },
  });
}

describe('deposit review', () => {
  it('approve credits the spot account through the ledger, audited with before and after', async () => {
    const u = await registerByEmail(h);
    const id = await deposit(u.token, BANK, '500');

    const queue = await h.call<{ items: Deposit[] }>(
      'GET',
      'admin/deposits',
      { limit: '100' },
      { token: reviewer.token },
    );
    const item = queue.body.data.items.find((d) => d.id === id)!;
    expect(item).toMatchObject({
      user_id: u.user.id,
      user_account: u.email,
      symbol: 'Bank',
      amount: '500',
      status: 'pending',
    });
    // the voucher opens for operators
    const pic = await h.inject({
      method: 'GET',
      url: item.image,
      headers: { authorization: reviewer.token },
    });
    expect(pic.statusCode).toBe(200);
    expect(pic.headers['content-type']).toBe('image/png');

    const res = await review<Deposit>('deposits/approve', { id: String(id) });
    expect(res.body).toMatchObject({
      type: 'ok',
      message: 'Approved',
      data: { id, status: 'approved', reviewed_by: reviewer.id, amount: '500' },
    });
    expect(await spot(u.user.id, 9999)).toMatchObject({ available: '500', frozen: '0', total: '500' });

    const rows = await auditRows(h, 'deposit', id);
    expect(rows).toHaveLength(1);
    expectAudit(rows[0], 'deposit.approve', 'pending', 'approved');

    const ledger = await h.call<{
      items: {
        reason: string;
        ref_type: string;
        ref_id: string;
        operator_id: number;
        delta_available: string;
      }[];
    }>('GET', 'admin/ledger', { user_id: String(u.user.id) }, { token: reviewer.token });
    expect(ledger.body.data.items[0]).toMatchObject({
      reason: 'deposit',
      ref_type: 'deposit',
      ref_id: String(id),
      operator_id: reviewer.id,
      delta_available: '500',
    });
    await expectLedgerClean();
  });

  it('a second review of the same deposit is refused and changes nothing', async () => {
    const u = await registerByEmail(h);
    const id = await deposit(u.token, BANK, '200');
    expect((await review('deposits/approve', { id: String(id) })).body.type).toBe('ok');
    const again = await review('deposits/approve', { id: String(id) });
    expect(again.body).toMatchObject({ type: 'error', code: 3030 });
    const late = await review('deposits/reject', { id: String(id), reason: 'late' });
    expect(late.body.code).toBe(3030);
    expect(await spot(u.user.id, 9999)).toMatchObject({ available: '200' });
    expect(await auditRows(h, 'deposit', id)).toHaveLength(1);
    await expectLedgerClean();
  });

  it('two operators approving at once credit exactly once', async () => {
    const u = await registerByEmail(h);
    const id = await deposit(u.token, USDT, '25', 'TRC20');
    const results = await Promise.all([
      review('deposits/approve', { id: String(id) }),
      review('deposits/approve', { id: String(id) }, admin.token),
    ]);
    expect(results.map((r) => r.body.type).sort()).toEqual(['error', 'ok']);
    expect(await spot(u.user.id, 3)).toMatchObject({ available: '25' });
    expect(await auditRows(h, 'deposit', id)).toHaveLength(1);
    await expectLedgerClean();
  });

  it('reject needs a reason, records it, credits nothing', async () => {
    const u = await registerByEmail(h);
    const id = await deposit(u.token, BANK, '300');
    const noReason = await review('deposits/reject', { id: String(id) });
    expect(noReason.body).toMatchObject({
      type: 'error',
      message: 'Please enter the reason for rejecting',
      field: 'reason',
    });
    const res = await review<Deposit>('deposits/reject', {
      id: String(id),
      reason: 'The voucher is unreadable',
    });
    expect(res.body.data).toMatchObject({ status: 'rejected', reject_reason: 'The voucher is unreadable' });
    expect(await spot(u.user.id, 9999)).toBeUndefined();
    expectAudit((await auditRows(h, 'deposit', id))[0], 'deposit.reject', 'pending', 'rejected');
    const rejected = await h.call<{ items: Deposit[] }>(
      'GET',
      'admin/deposits',
      { status: 'rejected' },
      { token: reviewer.token },
    );
    expect(rejected.body.data.items.map((d) => d.id)).toContain(id);
    expect(rejected.body.data.items.every((d) => d.status === 'rejected')).toBe(true);
  });

  it('unknown and missing ids', async () => {
    expect((await review('deposits/approve', { id: '999999' })).status).toBe(404);
    expect((await review('deposits/approve', {})).body).toMatchObject({
      message: 'Please choose the request',
      field: 'id',
    });
  });
});

describe('withdrawal review', () => {
  /** A verified user with 1000 on the bank account, a fund password and a bound card. */
  async function fundedUser() {
    const u = await registerByEmail(h);
    await review('deposits/approve', { id: String(await deposit(u.token, BANK, '1000')) });
    await h.call(
      'POST',
      'user/real_name',
      { country: 'TH', name: 'Somchai Jaidee', id_number: `X${u.user.id}99887766` },
      { token: u.token },
    );
    const [v] = await h.app.ctx.db.query<{ id: number }>('SELECT id FROM verifications WHERE user_id = $1', [
      u.user.id,
    ]);
    await review('verifications/approve', { id: String(v!.id) });
    await h.call(
      'POST',
      'safe/update_password',
      { password: '135790', re_password: '135790' },
      { token: u.token },
    );
    const card = await h.call<{ id: number }>(
      'POST',
      'user/cash_save',
      {
        name: 'Somchai',
        card_number: '123456789012',
        bank_name: 'Bangkok Bank',
        swift: 'BKKBTHBK',
        holder_name: 'SOMCHAI JAIDEE',
      },
      { token: u.token },
    );
    return { ...u, cardId: card.body.data.id };
  }

  async function withdraw(u: { token: string; cardId: number }, amount: string): Promise<number> {
    const res = await h.call<{ id: number }>(
      'POST',
      'wallet/out',
      { currency_id: BANK, bank_card_id: String(u.cardId), amount, fund_password: '135790' },
      { token: u.token },
    );
    if (res.body.type !== 'ok') throw new Error(`wallet/out failed: ${res.body.message}`);
    return res.body.data.id;
  }

  it('reject unfreezes the amount; approve pays it out with the reference; both audited', async () => {
    const u = await fundedUser();
    const first = await withdraw(u, '200');
    expect(await spot(u.user.id, 9999)).toMatchObject({ available: '800', frozen: '200' });

    const queue = await h.call<{ items: Withdrawal[] }>(
      'GET',
      'admin/withdrawals',
      {},
      { token: reviewer.token },
    );
    expect(queue.body.data.items.find((w) => w.id === first)).toMatchObject({
      status: 'pending',
      amount: '200',
      bank_card_id: u.cardId,
      user_account: u.email,
    });

    const rejected = await review<Withdrawal>('withdrawals/reject', {
      id: String(first),
      reason: 'Name mismatch',
    });
    expect(rejected.body.data).toMatchObject({ status: 'rejected', reject_reason: 'Name mismatch' });
    expect(await spot(u.user.id, 9999)).toMatchObject({ available: '1000', frozen: '0' });
    expectAudit((await auditRows(h, 'withdrawal', first))[0], 'withdrawal.reject', 'pending', 'rejected');

    const second = await withdraw(u, '150');
    const noRef = await review('withdrawals/approve', { id: String(second) });
    expect(noRef.body).toMatchObject({
      type: 'error',
      message: 'Please enter the payout reference',
      field: 'tx_ref',
    });
    const approved = await review<Withdrawal>('withdrawals/approve', {
      id: String(second),
      tx_ref: 'BBL-20240101-0001',
    });
    expect(approved.body.data).toMatchObject({ status: 'approved', tx_ref: 'BBL-20240101-0001' });
    expect(await spot(u.user.id, 9999)).toMatchObject({ available: '850', frozen: '0' });
    const rows = await auditRows(h, 'withdrawal', second);
    expect(rows).toHaveLength(1);
    expectAudit(rows[0], 'withdrawal.approve', 'pending', 'approved');
    expect(rows[0]?.after).toMatchObject({ tx_ref: 'BBL-20240101-0001' });
    expect(rows[0]?.before).toMatchObject({ tx_ref: null });

    const again = await review('withdrawals/approve', { id: String(second), tx_ref: 'again' });
    expect(again.body.code).toBe(3030);
    expect(await auditRows(h, 'withdrawal', second)).toHaveLength(1);
    await expectLedgerClean();

    // the admin sees all of it in the audit log
    const log = await h.call<{ items: { action: string; target_id: string }[] }>(
      'GET',
      'admin/audit',
      { target_type: 'withdrawal', target_id: String(second) },
      { token: admin.token },
    );
    expect(log.body.data.items.map((i) => i.action)).toEqual(['withdrawal.approve']);
  });
});
