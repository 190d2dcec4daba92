import type { BankDetails, ConfigCurrency, CurrencyInfo, DepositAddress } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin } from '../admin/testing.ts';

// Operators edit currencies and the platform's bank account (issue 23): validated field by
// field, audited, admins only; users see the change on their next request.

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await operatorLogin(h, 'admin')).token;
});
afterAll(() => h.close());

const USDT = '3';
const BANK = 9999;
const usdtForm = (over: Record<string, string> = {}) => ({
  id: USDT,
  min_deposit: '10',
  min_withdraw: '105',
  withdraw_fee: '1',
  can_deposit: '1',
  can_withdraw: '1',
  ...over,
});
const saveCurrency = (body: Record<string, string>, token = admin) =>
  h.call<ConfigCurrency>('POST', 'admin/config/currencies/save', body, { token });
const publicUsdt = async () =>
  (await h.call<CurrencyInfo[]>('GET', 'wallet/currencies')).body.data.find((c) => c.id === 3)!;

describe('admin/config/currencies', () => {
  it('changes minimums, fee and withdrawals on/off: users see it at once; audited before/after', async () => {
    const res = await saveCurrency(usdtForm({ min_withdraw: '50', withdraw_fee: '2.5', can_withdraw: '0' }));
    expect(res.body.data).toMatchObject({ min_withdraw: '50', withdraw_fee: '2.5', can_withdraw: false });
    expect(await publicUsdt()).toMatchObject({
      min_withdraw: '50',
      withdraw_fee: '2.5',
      can_withdraw: false,
    });
    const [audit] = (await auditRows(h, 'currency', 3)).slice(-1);
    expect(audit).toMatchObject({
      action: 'config.currency.save',
      before: { min_withdraw: '105', withdraw_fee: '1', can_withdraw: true },
      after: { min_withdraw: '50', withdraw_fee: '2.5', can_withdraw: false },
    });
    expect((await saveCurrency(usdtForm())).body.type).toBe('ok');
    expect(await publicUsdt()).toMatchObject({ min_withdraw: '105', can_withdraw: true });
  });

  it('refuses each bad field by name, and changes nothing', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ withdraw_fee: '200' }, 'withdraw_fee', 'Withdrawal fee may not exceed 105'],
      [{ min_withdraw: '1.1234567' }, 'min_withdraw', 'Minimum withdrawal may have at most 6 decimal places'],
      [{ min_deposit: '-5' }, 'min_deposit', 'Minimum deposit must be between 0 and 1000000000'],
      [{ can_deposit: '' }, 'can_deposit', 'Deposits is required'],
      [{ id: '4242' }, 'id', 'Item: no such item'],
    ];
    for (const [over, field, message] of cases) {
      const res = await saveCurrency(usdtForm(over));
      expect({ status: res.status, field: res.body.field, message: res.body.message }).toEqual({
        status: 400,
        field,
        message,
      });
    }
    expect(await publicUsdt()).toMatchObject({ min_withdraw: '105', withdraw_fee: '1', min_deposit: '10' });
  });
});

describe('admin/config/bank_details', () => {
  const bank = {
    bank_name: 'Kasikorn Bank',
    account_name: 'Verdant Co., Ltd.',
    account_number: '123-4-56789-0',
    swift: 'KASITHBK',
    bank_address: 'Bangkok',
    remark: 'Write your UID',
  };

  it('replaces the environment placeholder: a user asking where to send a bank deposit sees it; audited', async () => {
    const before = await h.call<BankDetails>('GET', 'admin/config/bank_details', {}, { token: admin });
    expect(before.body.data.configured).toBe(false);
    const res = await h.call<BankDetails>('POST', 'admin/config/bank_details/save', bank, { token: admin });
    expect(res.body.data).toEqual({ ...bank, configured: true });
    const user = await registerByEmail(h);
    const addr = await h.call<DepositAddress>(
      'POST',
      'wallet/get_in_address',
      { currency_id: String(BANK) },
      { token: user.token },
    );
    expect(addr.body.data.bank).toEqual({ ...bank, configured: true });
    const [audit] = await auditRows(h, 'bank_details', 'platform');
    expect(audit).toMatchObject({
      action: 'config.bank_details.save',
      before: { configured: false },
      after: { bank_name: 'Kasikorn Bank', swift: 'KASITHBK' },
    });
  });

  it('needs the four fields, in the operator language', async () => {
    const res = await h.call(
      'POST',
      'admin/config/bank_details/save',
      { ...bank, swift: ' ' },
      { token: admin, lang: 'th' },
    );
    expect({ field: res.body.field, message: res.body.message }).toEqual({
      field: 'swift',
      message: 'กรุณากรอกรหัส SWIFT',
    });
  });

  it('is for admins only', async () => {
    const reviewer = (await operatorLogin(h, 'reviewer')).token;
    for (const path of ['admin/config/bank_details/save', 'admin/config/currencies/save']) {
      expect((await h.call('POST', path, { ...bank, ...usdtForm() }, { token: reviewer })).status).toBe(403);
      const user = await registerByEmail(h);
      expect((await h.call('POST', path, { ...bank, ...usdtForm() }, { token: user.token })).body.code).toBe(
        999,
      );
    }
  });
});
