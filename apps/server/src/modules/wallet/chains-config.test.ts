import type { ConfigCurrency, CurrencyInfo, DepositAddress, WithdrawInfo } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin } from '../admin/testing.ts';
import {
  ADDRESSES,
  addressCode,
  FUND_PASSWORD,
  ledgerBalance,
  readyToWithdraw,
  USDT,
  type User,
  uploadPng,
} from './test-helpers.ts';

// Operators switch a currency's chains on and off (issue 23): users are offered only the chains
// on, on their next request; a chain switched off refuses new deposits and withdrawals on it.

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await operatorLogin(h, 'admin')).token;
});
afterAll(() => h.close());

const usdtForm = (over: Record<string, string> = {}) => ({
  id: USDT,
  min_deposit: '10',
  min_withdraw: '105',
  withdraw_fee: '1',
  can_deposit: '1',
  can_withdraw: '1',
  ...over,
});
const saveCurrency = (body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<ConfigCurrency>('POST', 'admin/config/currencies/save', body, { token: admin, lang });
const switchOff = async (chainsOff: string) => {
  const res = await saveCurrency(usdtForm({ chains_off: chainsOff }));
  if (res.body.type !== 'ok') throw new Error(`save failed: ${res.body.message}`);
  return res.body.data;
};
const publicUsdt = async () =>
  (await h.call<CurrencyInfo[]>('GET', 'wallet/currencies')).body.data.find((c) => c.id === 3)!;
const depositAddress = (u: User, chain?: string, lang: 'en' | 'th' = 'en') =>
  h.call<DepositAddress>(
    'POST',
    'wallet/get_in_address',
    { currency_id: USDT, ...(chain ? { chain } : {}) },
    { token: u.token, lang },
  );
const errorOf = (res: { status: number; body: { field?: string; message: string } }) => ({
  status: res.status,
  field: res.body.field,
  message: res.body.message,
});

describe('switching chains of a currency', () => {
  it('users are offered only the chains on, at once; audited before/after; switching back offers all', async () => {
    const u = await registerByEmail(h);
    const saved = await switchOff('erc20, OMNI');
    expect(saved).toMatchObject({ chains: ['TRC20', 'OMNI', 'ERC20'], chains_off: ['OMNI', 'ERC20'] });
    expect((await publicUsdt()).chains).toEqual(['TRC20']);
    const info = await h.call<WithdrawInfo>(
      'POST',
      'wallet/get_info',
      { currency_id: USDT },
      { token: u.token },
    );
    expect(info.body.data.chains).toEqual(['TRC20']);
    // with one chain on, the deposit screen need not ask which
    expect((await depositAddress(u)).body.data.chain).toBe('TRC20');
    expect(errorOf(await depositAddress(u, 'ERC20'))).toEqual({
      status: 400,
      field: 'chain',
      message: 'The ERC20 chain of USDT is closed for now; please choose another chain',
    });
    const [audit] = (await auditRows(h, 'currency', 3)).slice(-1);
    expect(audit).toMatchObject({
      action: 'config.currency.save',
      before: { chains_off: [] },
      after: { chains_off: ['OMNI', 'ERC20'] },
    });

    // a save that leaves the switches out keeps them
    expect((await saveCurrency(usdtForm({ withdraw_fee: '2' }))).body.data.chains_off).toEqual([
      'OMNI',
      'ERC20',
    ]);
    expect((await switchOff('')).chains_off).toEqual([]);
    expect((await publicUsdt()).chains).toEqual(['TRC20', 'OMNI', 'ERC20']);
    expect(errorOf(await depositAddress(u))).toMatchObject({
      field: 'chain',
      message: 'Please choose a chain',
    });
  });

  it('an address already given on a chain switched off is not offered, nor are deposits declared on it; it comes back', async () => {
    const u = await registerByEmail(h);
    const given = (await depositAddress(u, 'ERC20')).body.data.address;
    expect(given).toMatch(/^0x/);
    await switchOff('ERC20');
    expect(errorOf(await depositAddress(u, 'ERC20', 'th'))).toEqual({
      status: 400,
      field: 'chain',
      message: 'เครือข่าย ERC20 ของ USDT ปิดอยู่ชั่วคราว กรุณาเลือกเครือข่ายอื่น',
    });
    const image = await uploadPng(h, u.token);
    const declared = await h.call(
      'POST',
      'wallet/charge_req',
      { currency_id: USDT, chain: 'ERC20', amount: '50', image },
      { token: u.token },
    );
    expect(errorOf(declared)).toMatchObject({ status: 400, field: 'chain' });
    const [n] = await h.app.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM deposits WHERE user_id = $1',
      [u.user.id],
    );
    expect(n!.n).toBe(0);
    await switchOff('');
    expect((await depositAddress(u, 'ERC20')).body.data.address).toBe(given);
  });

  it('a withdrawal to an address on a chain switched off is refused, nothing frozen; no new address on it', async () => {
    const { u, addressId } = await readyToWithdraw(h, '1000');
    await switchOff('TRC20');
    const res = await h.call(
      'POST',
      'wallet/out',
      { currency_id: USDT, address_id: String(addressId), amount: '200', fund_password: FUND_PASSWORD },
      { token: u.token },
    );
    expect(errorOf(res)).toEqual({
      status: 400,
      field: 'address_id',
      message: 'The TRC20 chain of USDT is closed for now; please choose another chain',
    });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '1000', frozen: '0' });
    const [n] = await h.app.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM withdrawals WHERE user_id = $1',
      [u.user.id],
    );
    expect(n!.n).toBe(0);
    const add = await h.call(
      'POST',
      'wallet/addaddress',
      {
        currency_id: USDT,
        chain: 'TRC20',
        address: ADDRESSES.TRC20,
        fund_password: FUND_PASSWORD,
        code: await addressCode(h, u),
        code_type: 'email',
      },
      { token: u.token },
    );
    expect(errorOf(add)).toMatchObject({ status: 400, field: 'chain' });
    await switchOff('');
  });

  it('refuses a chain the currency lacks, all chains off while deposits are open, a chain without deposit addresses', async () => {
    const before = await publicUsdt();
    expect(errorOf(await saveCurrency(usdtForm({ chains_off: 'TRC20,SOL' })))).toEqual({
      status: 400,
      field: 'chains_off',
      message: 'Chains: USDT has no SOL chain',
    });
    expect(errorOf(await saveCurrency(usdtForm({ chains_off: 'TRC20,OMNI,ERC20' }), 'th'))).toEqual({
      status: 400,
      field: 'chains_off',
      message: 'เครือข่าย: ต้องเปิดอย่างน้อยหนึ่งเครือข่ายของ USDT ขณะที่เปิดรับฝาก',
    });
    expect(await publicUsdt()).toEqual(before);
    // deposits closed: every chain may be off
    const closed = await saveCurrency(usdtForm({ can_deposit: '0', chains_off: 'TRC20,OMNI,ERC20' }));
    expect(closed.body.data).toMatchObject({ can_deposit: false, chains_off: ['TRC20', 'OMNI', 'ERC20'] });
    expect((await publicUsdt()).chains).toEqual([]);
    await switchOff('');

    // a network deposit addresses cannot be derived on may exist, but never be switched on
    await h.app.ctx.db.query(
      `INSERT INTO currencies (id, symbol, name, decimals, chains, chains_off, is_fiat, min_deposit, min_withdraw, withdraw_fee, sort)
       VALUES (7777, 'SOLX', 'Test coin', 6, '{ERC20,SOL}', '{SOL}', false, 1, 2, 1, 50)`,
    );
    const solx = (over: Record<string, string>) => usdtForm({ id: '7777', min_withdraw: '2', ...over });
    expect(errorOf(await saveCurrency(solx({ chains_off: '' })))).toEqual({
      status: 400,
      field: 'chains_off',
      message: 'Chains: deposit addresses cannot be made on SOL, so it must stay off',
    });
    expect((await saveCurrency(solx({ chains_off: 'sol' }))).body.data.chains_off).toEqual(['SOL']);
  });

  it('is for admins only', async () => {
    const reviewer = (await operatorLogin(h, 'reviewer')).token;
    const res = await h.call('POST', 'admin/config/currencies/save', usdtForm({ chains_off: 'OMNI' }), {
      token: reviewer,
    });
    expect(res.status).toBe(403);
    expect((await publicUsdt()).chains).toEqual(['TRC20', 'OMNI', 'ERC20']);
  });
});
