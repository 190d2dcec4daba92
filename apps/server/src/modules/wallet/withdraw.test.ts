import type { WithdrawAddress, WithdrawalPage, WithdrawalRecord, WithdrawInfo } from '@verdant/api';
import { addDecimal, compareDecimal, mulDecimal, subDecimal } from '@verdant/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { approveWithdrawal, rejectWithdrawal } from './service.ts';
import {
  ADDRESSES,
  addAddress,
  addressCode,
  BANK,
  ETH,
  FUND_PASSWORD,
  fund,
  ledgerBalance,
  markVerified,
  OPERATOR,
  readyToWithdraw,
  setFundPassword,
  USDT,
  type User,
} from './test-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const out = (token: string, body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<WithdrawalRecord>('POST', 'wallet/out', body, { token, lang });
const log3 = (token: string, query: Record<string, string> = {}) =>
  h.call<WithdrawalPage>('GET', 'charge_mention/log3', query, { token });
const addaddress = (u: User, body: Record<string, string>) =>
  h.call<WithdrawAddress>('POST', 'wallet/addaddress', body, { token: u.token });
const failures = async (u: User) =>
  (
    await h.app.ctx.db.query<{ n: number }>('SELECT fund_password_failures AS n FROM users WHERE id = $1', [
      u.user.id,
    ])
  )[0]!.n;

describe('withdraw addresses', () => {
  it('adds an address with the fund password and an e-mailed code, lists it, deletes it', async () => {
    const u = await registerByEmail(h);
    await setFundPassword(h, u);
    const code = await addressCode(h, u);
    const res = await addaddress(u, {
      currency_id: USDT,
      chain: 'ERC20',
      address: ADDRESSES.ERC20.toLowerCase(),
      remark: 'My ledger',
      fund_password: FUND_PASSWORD,
      code,
      code_type: 'email',
    });
    expect(res.body).toMatchObject({
      type: 'ok',
      message: 'Address added',
      // kept in its checksummed form
      data: { currency_id: 3, symbol: 'USDT', chain: 'ERC20', address: ADDRESSES.ERC20, remark: 'My ledger' },
    });
    // the code is used up
    const again = await addaddress(u, {
      currency_id: USDT,
      chain: 'TRC20',
      address: ADDRESSES.TRC20,
      fund_password: FUND_PASSWORD,
      code,
    });
    expect(again.body).toMatchObject({
      type: 'error',
      message: 'The verification code is incorrect',
      field: 'code',
    });
    const trc = await addAddress(h, u, 'TRC20');
    const btc = await addAddress(h, u, 'BTC', '1');
    const all = await h.call<WithdrawAddress[]>('POST', 'wallet/get_address', {}, { token: u.token });
    expect(all.body.data.map((a) => [a.id, a.symbol, a.chain])).toEqual([
      [btc, 'BTC', 'BTC'],
      [trc, 'USDT', 'TRC20'],
      [res.body.data.id, 'USDT', 'ERC20'],
    ]);
    const usdt = await h.call<WithdrawAddress[]>(
      'POST',
      'wallet/get_address',
      { currency_id: USDT },
      { token: u.token },
    );
    expect(usdt.body.data).toHaveLength(2);

    // only the owner can delete
    const stranger = await registerByEmail(h);
    const theirs = await h.call('POST', 'wallet/deladdress', { id: String(trc) }, { token: stranger.token });
    expect(theirs.status).toBe(404);
    expect(theirs.body).toMatchObject({ type: 'error', message: 'Not found' });
    expect((await h.call('POST', 'wallet/deladdress', { id: 'x' }, { token: u.token })).status).toBe(404);
    const del = await h.call('POST', 'wallet/deladdress', { id: String(trc) }, { token: u.token });
    expect(del.body).toMatchObject({ type: 'ok', message: 'Address deleted', data: null });
    const left = await h.call<WithdrawAddress[]>('POST', 'wallet/get_address', {}, { token: u.token });
    expect(left.body.data.map((a) => a.id)).toEqual([btc, res.body.data.id]);
  });

  it('checks every rule with its message, in order, and saves nothing on failure', async () => {
    const u = await registerByEmail(h);
    await setFundPassword(h, u);
    const base = {
      currency_id: USDT,
      chain: 'TRC20',
      address: ADDRESSES.TRC20,
      fund_password: FUND_PASSWORD,
      code: '123456',
      code_type: 'email',
    };
    const cases: [Record<string, string>, string, string, number][] = [
      [{ ...base, currency_id: '' }, 'Please choose a currency', 'currency_id', 1400],
      [{ ...base, currency_id: BANK }, 'Bank withdrawals are paid to a bound bank card', 'currency_id', 1400],
      [{ ...base, chain: '' }, 'Please choose a chain', 'chain', 1400],
      [{ ...base, currency_id: ETH, chain: 'TRC20' }, 'ETH cannot be sent on the TRC20 chain', 'chain', 1400],
      [{ ...base, address: '  ' }, 'Please enter the address', 'address', 1400],
      [{ ...base, address: ADDRESSES.ERC20 }, 'The address is not valid for TRC20', 'address', 3012],
      [
        { ...base, address: 'TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HD' },
        'The address is not valid for TRC20',
        'address',
        3012,
      ],
      [
        { ...base, chain: 'ERC20', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' },
        'The address is not valid for ERC20',
        'address',
        3012,
      ],
      [
        { ...base, chain: 'OMNI', address: ADDRESSES.TRC20 },
        'The address is not valid for OMNI',
        'address',
        3012,
      ],
      [{ ...base, remark: 'x'.repeat(51) }, 'The remark must be at most 50 characters', 'remark', 1400],
      [{ ...base, fund_password: '' }, 'Please enter the fund password', 'fund_password', 1400],
      [
        { ...base, fund_password: '12345' },
        'The fund password must be exactly 6 digits',
        'fund_password',
        1400,
      ],
      [
        { ...base, fund_password: 'abcdef' },
        'The fund password must be exactly 6 digits',
        'fund_password',
        1400,
      ],
      [{ ...base, code: '' }, 'Please enter the verification code', 'code', 1400],
      [{ ...base, code_type: 'fax' }, 'Please choose phone or e-mail', 'code_type', 1400],
    ];
    for (const [body, message, field, code] of cases) {
      const res = await addaddress(u, body);
      expect(res.status, message).toBe(400);
      expect(res.body, message).toMatchObject({ type: 'error', code, message, field });
    }
    // none of those counted as a wrong fund password
    expect(await failures(u)).toBe(0);
    // a wrong fund password is counted
    const wrong = await addaddress(u, { ...base, fund_password: '000000' });
    expect(wrong.body).toMatchObject({
      code: 2202,
      message: 'The fund password is incorrect. 4 attempts left',
      field: 'fund_password',
    });
    expect(await failures(u)).toBe(1);
    // a wrong code, with the right fund password
    await addressCode(h, u);
    const badCode = await addaddress(u, { ...base, code: '000000' === base.code ? '111111' : '000000' });
    expect(badCode.body).toMatchObject({ code: 2001, message: 'The verification code is incorrect' });
    expect(await failures(u)).toBe(0);
    const list = await h.call<WithdrawAddress[]>('POST', 'wallet/get_address', {}, { token: u.token });
    expect(list.body.data).toEqual([]);
    // the same address twice
    await addAddress(h, u, 'TRC20');
    const dup = await addaddress(u, { ...base, code: await addressCode(h, u) });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ type: 'error', message: 'This address is already in your list' });
  });

  it('without a fund password: "Set a fund password first"', async () => {
    const u = await registerByEmail(h);
    const res = await addaddress(u, {
      currency_id: USDT,
      chain: 'TRC20',
      address: ADDRESSES.TRC20,
      fund_password: '123456',
      code: '123456',
    });
    expect(res.body).toMatchObject({ type: 'error', code: 2201, message: 'Set a fund password first' });
  });
});

describe('wallet/get_info', () => {
  it('tells the withdraw screen the balance, minimum, fee, requests left and checks', async () => {
    const u = await registerByEmail(h);
    const before = await h.call<WithdrawInfo>(
      'POST',
      'wallet/get_info',
      { currency_id: USDT },
      { token: u.token },
    );
    expect(before.body.data).toEqual({
      currency_id: 3,
      symbol: 'USDT',
      decimals: 6,
      is_fiat: false,
      chains: ['TRC20', 'OMNI', 'ERC20'],
      can_withdraw: true,
      available: '0',
      min_withdraw: '105',
      withdraw_fee: '1',
      daily_limit: 3,
      withdrawals_today: 0,
      withdrawals_left: 3,
      has_fund_password: false,
      verification: 'none',
      verified: false,
      address_count: 0,
      arrival_key: 'wallet.arrival',
      arrival_text: 'Credited within 12 hours',
    });
    await markVerified(h, u);
    await setFundPassword(h, u);
    await fund(h, u, '500');
    const addressId = await addAddress(h, u);
    await out(u.token, {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '200',
      fund_password: FUND_PASSWORD,
    });
    const after = await h.call<WithdrawInfo>(
      'POST',
      'wallet/get_info',
      { currency_id: USDT },
      { token: u.token, lang: 'th' },
    );
    expect(after.body.data).toMatchObject({
      available: '299',
      withdrawals_today: 1,
      withdrawals_left: 2,
      has_fund_password: true,
      verification: 'verified',
      verified: true,
      address_count: 1,
      arrival_text: 'ได้รับเงินภายใน 12 ชั่วโมง',
    });
    const missing = await h.call('POST', 'wallet/get_info', {}, { token: u.token });
    expect(missing.body).toMatchObject({ type: 'error', message: 'Please choose a currency' });
  });
});

describe('wallet/out', () => {
  it('freezes amount + fee in one posting and records a pending request', async () => {
    const { u, addressId } = await readyToWithdraw(h, '1000');
    const res = await out(u.token, {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '200.5',
      fund_password: FUND_PASSWORD,
      remark: 'rent',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'ok',
      message: 'Submitted. Credited within 12 hours after review',
      data: {
        currency_id: 3,
        symbol: 'USDT',
        chain: 'TRC20',
        address: ADDRESSES.TRC20,
        bank_card_id: null,
        amount: '200.5',
        fee: '1',
        total: '201.5',
        remark: 'rent',
        status: 'pending',
        status_code: 'under_review',
        status_text: 'Under review',
        tx_ref: null,
        reject_reason: null,
        reviewed_at: null,
      },
    });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '798.5', frozen: '201.5' });
    const [j] = await h.app.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_journals WHERE reason = 'withdraw_freeze' AND ref_id = $1",
      [String(res.body.data.id)],
    );
    expect(j!.n).toBe(1);
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });

  it("log3?id= finds one withdrawal of the user, and never someone else's", async () => {
    const { u, addressId } = await readyToWithdraw(h, '1000');
    const body = { currency_id: USDT, address_id: String(addressId), fund_password: FUND_PASSWORD };
    const first = (await out(u.token, { ...body, amount: '110' })).body.data;
    await out(u.token, { ...body, amount: '120' });
    const one = (await log3(u.token, { id: String(first.id) })).body.data;
    expect(one).toMatchObject({ total: 1, list: [{ id: first.id, amount: '110' }] });
    const other = await readyToWithdraw(h, '1000');
    expect((await log3(other.u.token, { id: String(first.id) })).body.data).toMatchObject({
      total: 0,
      list: [],
    });
    expect((await log3(u.token, { id: 'x1' })).body.data).toMatchObject({ total: 0, list: [] });
    expect((await log3(u.token)).body.data.total).toBe(2);
  });

  it('applies the rules of spec §5, §8, §9 in order, each with its message', async () => {
    // nothing set up: the withdraw address comes first
    const u = await registerByEmail(h);
    const first = await out(u.token, { currency_id: USDT, amount: '200', fund_password: FUND_PASSWORD });
    expect(first.body).toMatchObject({
      type: 'error',
      code: 3010,
      message: 'Please set the withdraw address first',
      field: 'address_id',
    });
    await setFundPassword(h, u);
    await fund(h, u, '1000');
    const addressId = String(await addAddress(h, u));
    const base = { currency_id: USDT, address_id: addressId, amount: '200', fund_password: FUND_PASSWORD };
    const stranger = await registerByEmail(h);
    await setFundPassword(h, stranger);
    const theirAddress = String(await addAddress(h, stranger));

    const expectError = async (
      body: Record<string, string>,
      message: string,
      code: number,
      field?: string,
    ) => {
      const res = await out(u.token, body);
      expect(res.body, message).toMatchObject({ type: 'error', code, message, ...(field ? { field } : {}) });
      return res;
    };
    await expectError({ ...base, address_id: '' }, 'Please choose a withdraw address', 3010, 'address_id');
    await expectError(
      { ...base, address_id: theirAddress },
      'Please choose a withdraw address',
      3010,
      'address_id',
    );
    await expectError({ ...base, amount: '' }, 'Please enter the amount', 1400, 'amount');
    await expectError(
      { ...base, amount: '1.0000001' },
      'Please enter a valid amount (at most 6 decimal places)',
      1400,
      'amount',
    );
    await expectError(
      { ...base, fund_password: '' },
      'Please enter the fund password',
      1400,
      'fund_password',
    );
    // real-name verification before the fund password is even checked
    const unverified = await expectError(
      { ...base, fund_password: '000000' },
      'Please complete the identity verification',
      3020,
    );
    expect(unverified.status).toBe(400);
    expect(await failures(u)).toBe(0);
    await markVerified(h, u);
    // a wrong fund password is counted, and locks after five
    await expectError(
      { ...base, fund_password: '000000' },
      'The fund password is incorrect. 4 attempts left',
      2202,
    );
    expect(await failures(u)).toBe(1);
    // below the minimum (105 for USDT), once the fund password is right
    await expectError(
      { ...base, amount: '104.999999' },
      'The minimum withdrawal is 105 USDT',
      3002,
      'amount',
    );
    // amount + fee must be covered: 1000 + 1 is not
    await expectError({ ...base, amount: '1000' }, 'Insufficient balance', 3001, 'amount');
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '1000', frozen: '0' });
    expect((await log3(u.token)).body.data.total).toBe(0);
    // exactly the balance works
    const all = await out(u.token, { ...base, amount: '999' });
    expect(all.body.type).toBe('ok');
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '0', frozen: '1000' });
  });

  it('a fund password must exist: "Set a fund password first"', async () => {
    const { u, addressId } = await readyToWithdraw(h, '500');
    await h.app.ctx.db.query('UPDATE users SET fund_password_hash = NULL WHERE id = $1', [u.user.id]);
    const res = await out(u.token, {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '200',
      fund_password: FUND_PASSWORD,
    });
    expect(res.body).toMatchObject({ type: 'error', code: 2201, message: 'Set a fund password first' });
  });

  it('locks the fund password after five wrong tries', async () => {
    const { u, addressId } = await readyToWithdraw(h, '500');
    const body = { currency_id: USDT, address_id: String(addressId), amount: '200', fund_password: '999999' };
    for (const left of [4, 3, 2, 1]) {
      expect((await out(u.token, body)).body.message).toBe(
        `The fund password is incorrect. ${left} attempts left`,
      );
    }
    const locked = await out(u.token, body);
    expect(locked.status).toBe(423);
    expect(locked.body).toMatchObject({
      code: 2203,
      message: 'Too many wrong fund passwords. Please try again in 30 minutes',
    });
    const right = await out(u.token, { ...body, fund_password: FUND_PASSWORD });
    expect(right.body.code).toBe(2203);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '500', frozen: '0' });
  });

  it('allows at most 3 requests per UTC day, rejected ones included', async () => {
    const { u, addressId } = await readyToWithdraw(h, '2000');
    const body = {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '110',
      fund_password: FUND_PASSWORD,
    };
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await out(u.token, body);
      expect(res.body.type).toBe('ok');
      ids.push(res.body.data.id);
    }
    await h.app.ctx.db.tx((q) => rejectWithdrawal(q, ids[0]!, OPERATOR, 'Address check failed'));
    const fourth = await out(u.token, body);
    expect(fourth.status).toBe(400);
    expect(fourth.body).toMatchObject({
      type: 'error',
      code: 3011,
      message: 'You can make at most 3 withdrawal requests a day',
    });
    const th = await out(u.token, body, 'th');
    expect(th.body.message).toBe('คุณส่งคำขอถอนได้สูงสุดวันละ 3 ครั้ง');
    // 2 × 111 frozen, the rejected one returned
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '1778', frozen: '222' });
    // requests of an earlier day do not count
    await h.app.ctx.db.query(
      "UPDATE withdrawals SET created_at = created_at - interval '1 day' WHERE user_id = $1",
      [u.user.id],
    );
    expect((await out(u.token, body)).body.type).toBe('ok');
  });

  it('simultaneous requests never pass the daily limit', async () => {
    const { u, addressId } = await readyToWithdraw(h, '5000');
    const body = {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '105',
      fund_password: FUND_PASSWORD,
    };
    const results = await Promise.all(Array.from({ length: 10 }, () => out(u.token, body)));
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(3);
    expect(results.filter((r) => r.body.code === 3011)).toHaveLength(7);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '4682', frozen: '318' });
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });

  it('simultaneous requests never overdraw the balance', async () => {
    const { u, addressId } = await readyToWithdraw(h, '350');
    const body = {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '150',
      fund_password: FUND_PASSWORD,
    };
    const results = await Promise.all(Array.from({ length: 10 }, () => out(u.token, body)));
    // 2 × 151 fit in 350, a third does not
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(2);
    expect(results.filter((r) => r.body.code === 3001)).toHaveLength(8);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '48', frozen: '302' });
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });

  it('10 withdrawals and 10 transfers at once against one balance: no overdraft, no lost entry', async () => {
    const { u, addressId } = await readyToWithdraw(h, '1000');
    const withdraw = {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '110',
      fund_password: FUND_PASSWORD,
    };
    const transfer = { currency_id: USDT, from: 'spot', to: 'contract', amount: '100' };
    const entriesBefore = (
      await h.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_entries')
    )[0]!.n;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? out(u.token, withdraw).then((r) => ['out', r.body] as const)
          : h
              .call('POST', 'wallet/change', transfer, { token: u.token })
              .then((r) => ['change', r.body] as const),
      ),
    );
    const outs = results.filter(([k, b]) => k === 'out' && b.type === 'ok').length;
    const changes = results.filter(([k, b]) => k === 'change' && b.type === 'ok').length;
    for (const [, b] of results.filter(([, b]) => b.type !== 'ok')) {
      expect([3001, 3011]).toContain(b.code);
    }
    expect(outs).toBeLessThanOrEqual(3);
    const frozen = mulDecimal('111', String(outs));
    const moved = mulDecimal('100', String(changes));
    const spot = await ledgerBalance(h, { userId: u.user.id });
    expect(spot.frozen).toBe(frozen);
    expect(spot.available).toBe(subDecimal(subDecimal('1000', frozen), moved));
    expect(compareDecimal(spot.available, '0')).toBeGreaterThanOrEqual(0);
    // nothing left that another request could have fit into
    expect(compareDecimal(spot.available, '100')).toBeLessThan(0);
    expect(await ledgerBalance(h, { userId: u.user.id, type: 'contract' })).toEqual({
      available: moved,
      frozen: '0',
    });
    const entriesAfter = (
      await h.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_entries')
    )[0]!.n;
    // one entry per withdrawal freeze, two per transfer
    expect(entriesAfter - entriesBefore).toBe(outs + 2 * changes);
    expect((await log3(u.token)).body.data.total).toBe(outs);
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });
});

describe('reviewing withdrawals (operators call these inside their own transaction)', () => {
  /** A user with 400 USDT who asked to withdraw 399 (+ the 1 USDT fee), all of it frozen. */
  async function pendingWithdrawal() {
    const { u, addressId } = await readyToWithdraw(h, '400');
    const res = await out(u.token, {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '399',
      fund_password: FUND_PASSWORD,
    });
    return { u, res };
  }

  it('approval pays out: frozen leaves, the house withdrawals and fees accounts receive', async () => {
    const { u, addressId } = await readyToWithdraw(h, '1000');
    const res = await out(u.token, {
      currency_id: USDT,
      address_id: String(addressId),
      amount: '300',
      fund_password: FUND_PASSWORD,
    });
    const id = res.body.data.id;
    const paidBefore = await ledgerBalance(h, { house: 'withdrawals' });
    const feesBefore = await ledgerBalance(h, { house: 'fees' });
    await expect(h.app.ctx.db.tx((q) => approveWithdrawal(q, id, OPERATOR, '  '))).rejects.toMatchObject({
      messageKey: 'wallet.txRefRequired',
    });
    const row = await h.app.ctx.db.tx((q) => approveWithdrawal(q, id, OPERATOR, '0xfeedbeef'));
    expect(row).toMatchObject({
      id,
      user_id: u.user.id,
      amount: '300',
      fee: '1',
      status: 'approved',
      tx_ref: '0xfeedbeef',
      reviewed_by: OPERATOR,
      address: ADDRESSES.TRC20,
    });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '699', frozen: '0' });
    expect((await ledgerBalance(h, { house: 'withdrawals' })).available).toBe(
      addDecimal(paidBefore.available, '300'),
    );
    expect((await ledgerBalance(h, { house: 'fees' })).available).toBe(addDecimal(feesBefore.available, '1'));
    await expect(h.app.ctx.db.tx((q) => approveWithdrawal(q, id, OPERATOR, '0x1'))).rejects.toMatchObject({
      codeName: 'ALREADY_REVIEWED',
    });
    await expect(h.app.ctx.db.tx((q) => rejectWithdrawal(q, id, OPERATOR, 'x'))).rejects.toMatchObject({
      codeName: 'ALREADY_REVIEWED',
    });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '699', frozen: '0' });
    const rec = (await log3(u.token)).body.data.list[0]!;
    expect(rec).toMatchObject({
      id,
      status: 'approved',
      status_code: 'passed',
      status_text: 'Passed',
      tx_ref: '0xfeedbeef',
      fee: '1',
      total: '301',
      address: ADDRESSES.TRC20,
    });
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });

  it('rejection unfreezes amount + fee and records the reason', async () => {
    const { u, res } = await pendingWithdrawal();
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '0', frozen: '400' });
    await expect(
      h.app.ctx.db.tx((q) => rejectWithdrawal(q, res.body.data.id, OPERATOR, '')),
    ).rejects.toMatchObject({
      messageKey: 'wallet.rejectReasonRequired',
    });
    const row = await h.app.ctx.db.tx((q) =>
      rejectWithdrawal(q, res.body.data.id, OPERATOR, 'Address flagged'),
    );
    expect(row).toMatchObject({ status: 'rejected', reject_reason: 'Address flagged', tx_ref: null });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '400', frozen: '0' });
    const rec = (await log3(u.token)).body.data.list[0]!;
    expect(rec).toMatchObject({
      status: 'rejected',
      status_code: 'rejected',
      reject_reason: 'Address flagged',
    });
    const flows = await h.call<{ list: { reason: string; delta_available: string; delta_frozen: string }[] }>(
      'POST',
      'wallet/legal_log',
      { type: 'spot', limit: '2' },
      { token: u.token },
    );
    expect(flows.body.data.list.map((f) => [f.reason, f.delta_available, f.delta_frozen])).toEqual([
      ['withdraw_reject', '400', '-400'],
      ['withdraw_freeze', '-400', '400'],
    ]);
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });

  it('a rejection reason is at most 200 characters here too, as in the operator console', async () => {
    const { u, res } = await pendingWithdrawal();
    // 201 characters: wallet once allowed 500 while admin stopped at 200
    await expect(
      h.app.ctx.db.tx((q) => rejectWithdrawal(q, res.body.data.id, OPERATOR, 'x'.repeat(201))),
    ).rejects.toMatchObject({ messageKey: 'wallet.rejectReasonTooLong', params: { max: 200 } });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '0', frozen: '400' });
    const row = await h.app.ctx.db.tx((q) =>
      rejectWithdrawal(q, res.body.data.id, OPERATOR, 'y'.repeat(200)),
    );
    expect(row.reject_reason).toBe('y'.repeat(200));
  });
});

describe('bank withdrawals (Bank 9999) to a bound card', () => {
  it('needs a bank card, then freezes like any other and names the card', async () => {
    const u = await registerByEmail(h);
    await markVerified(h, u);
    await setFundPassword(h, u);
    await fund(h, u, '800', BANK);
    const body = { currency_id: BANK, amount: '300', fund_password: FUND_PASSWORD };
    const none = await out(u.token, body);
    expect(none.body).toMatchObject({
      code: 3010,
      message: 'Please add a bank card first',
      field: 'bank_card_id',
    });
    // bank cards belong to the bank module: bound through its route (user/cash_save)
    const bound = await h.call<{ id: number }>(
      'POST',
      'user/cash_save',
      {
        name: 'Somchai Jaidee',
        card_number: '1234567890',
        bank_name: 'Kasikorn Bank',
        swift: 'KASITHBK',
        holder_name: 'SOMCHAI JAIDEE',
      },
      { token: u.token },
    );
    expect(bound.body.type).toBe('ok');
    const card = bound.body.data;
    expect((await out(u.token, body)).body).toMatchObject({ message: 'Please choose a bank card' });
    const res = await out(u.token, { ...body, bank_card_id: String(card!.id) });
    expect(res.body).toMatchObject({
      type: 'ok',
      data: {
        chain: null,
        // the card named the bank module's way, as on the bank cards screen
        address: 'Kasikorn Bank **** **** 7890',
        bank_card_id: card!.id,
        amount: '300',
        fee: '0',
      },
    });
    expect(await ledgerBalance(h, { userId: u.user.id }, BANK)).toEqual({ available: '500', frozen: '300' });
    const [row] = await h.app.ctx.db.query<{ bank_snapshot: Record<string, unknown> }>(
      'SELECT bank_snapshot FROM withdrawals WHERE id = $1',
      [res.body.data.id],
    );
    expect(row!.bank_snapshot).toEqual({
      id: card!.id,
      name: 'Somchai Jaidee',
      card_number: '1234567890',
      bank_name: 'Kasikorn Bank',
      branch: '',
      bank_address: '',
      swift: 'KASITHBK',
      holder_name: 'SOMCHAI JAIDEE',
      iban: '',
      beneficiary_address: '',
      postal_code: '',
    });
    await h.app.ctx.db.tx((q) => approveWithdrawal(q, res.body.data.id, OPERATOR, 'BANKREF-001'));
    expect(await ledgerBalance(h, { userId: u.user.id }, BANK)).toEqual({ available: '500', frozen: '0' });
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });
});
