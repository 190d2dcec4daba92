import { HDKey } from '@scure/bip32';
import type {
  CurrencyInfo,
  DepositAddress,
  LedgerFlowPage,
  TransferPage,
  TransferRecord,
  WalletDetail,
  WalletList,
} from '@verdant/api';
import { addDecimal, compareDecimal, mulDecimal, truncateDecimal } from '@verdant/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { addressFor } from './addresses.ts';
import { loadDepositKeys, parseXpub } from './keys.ts';
import { parseBankDetails } from './service.ts';
import { BANK, BTC, ETH, fund, ledgerBalance, USDT } from './test-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const change = (token: string, body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<TransferRecord>('POST', 'wallet/change', body, { token, lang });

describe('not logged in', () => {
  it('every wallet call answers 999 without a session, and with a made-up token', async () => {
    const calls: ['GET' | 'POST', string][] = [
      ['POST', 'wallet/list'],
      ['POST', 'wallet/detail'],
      ['POST', 'wallet/legal_log'],
      ['POST', 'wallet/change'],
      ['GET', 'wallet/hzhistory'],
      ['POST', 'wallet/get_in_address'],
      ['POST', 'wallet/charge_req'],
      ['GET', 'charge_mention/log2'],
      ['GET', 'charge_mention/log3'],
      ['POST', 'wallet/get_info'],
      ['POST', 'wallet/get_address'],
      ['POST', 'wallet/addaddress'],
      ['POST', 'wallet/deladdress'],
      ['POST', 'wallet/out'],
    ];
    for (const [method, path] of calls) {
      const res = await h.call(method, path, { currency_id: USDT, amount: '1' });
      expect(res.status, path).toBe(401);
      expect(res.body, path).toMatchObject({ type: '999', code: 999, message: 'Please log in first' });
      const fake = await h.call(method, path, {}, { token: 'x'.repeat(43) });
      expect(fake.body.code, path).toBe(999);
    }
  });
});

describe('a POST without any body', () => {
  it('reads as an empty form: optional filters work, required fields are named', async () => {
    const u = await registerByEmail(h);
    const send = (path: string) =>
      h.inject({ method: 'POST', url: `/api/${path}`, headers: { authorization: u.token, lang: 'en' } });
    expect((await send('wallet/legal_log')).json()).toMatchObject({ type: 'ok', data: { total: 0 } });
    expect((await send('wallet/get_address')).json()).toMatchObject({ type: 'ok', data: [] });
    const res = await send('wallet/out');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      type: 'error',
      message: 'Please choose a currency',
      field: 'currency_id',
    });
    // a body that is there but is not a form stays malformed
    const nul = await h.inject({
      method: 'POST',
      url: '/api/wallet/out',
      headers: { authorization: u.token, lang: 'en', 'content-type': 'application/json' },
      payload: 'null',
    });
    expect(nul.json()).toMatchObject({
      message: 'The request could not be read. Please check what you entered',
    });
  });
});

describe('GET wallet/currencies', () => {
  it('lists the currencies of the data with their rules, public', async () => {
    const res = await h.call<CurrencyInfo[]>('GET', 'wallet/currencies');
    expect(res.body.type).toBe('ok');
    const byId = new Map(res.body.data.map((c) => [c.id, c]));
    // the coins of the markets (migration 0005) come after BTC and ETH, Bank last
    expect([...byId.keys()]).toEqual([3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 9999]);
    expect(byId.get(3)).toEqual({
      id: 3,
      symbol: 'USDT',
      name: 'Tether USD',
      decimals: 6,
      chains: ['TRC20', 'OMNI', 'ERC20'],
      is_fiat: false,
      min_deposit: '10',
      min_withdraw: '105',
      withdraw_fee: '1',
      can_deposit: true,
      can_withdraw: true,
    });
    // BTC moves on Bitcoin's own chain; Omni is USDT's layer on top of it
    expect(byId.get(1)).toMatchObject({ symbol: 'BTC', chains: ['BTC'], min_withdraw: '0.002' });
    expect(byId.get(2)).toMatchObject({ symbol: 'ETH', chains: ['ERC20'] });
    expect(byId.get(9999)).toMatchObject({ symbol: 'Bank', is_fiat: true, chains: [], min_deposit: '100' });
  });
});

describe('wallet/list', () => {
  it('shows four accounts × every currency at zero for a new user, valued 0 USDT', async () => {
    const u = await registerByEmail(h);
    const res = await h.call<WalletList>('POST', 'wallet/list', {}, { token: u.token });
    expect(res.body).toMatchObject({ type: 'ok', code: 1 });
    const data = res.body.data;
    expect(data.accounts.map((a) => a.type)).toEqual(['spot', 'option', 'contract', 'trust']);
    expect(data).toMatchObject({ total_usdt: '0', valued: true });
    for (const a of data.accounts) {
      expect(a.currencies.map((c) => c.currency_id)).toEqual([3, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 9999]);
      for (const c of a.currencies) expect(c).toMatchObject({ total: '0', available: '0', frozen: '0' });
    }
    expect(data.accounts[0]!.currencies[1]).toMatchObject({ symbol: 'BTC', usdt_value: null });
  });

  it('values USDT and Bank one to one, and says so when a coin has no price', async () => {
    const u = await registerByEmail(h);
    await fund(h, u, '150.5');
    await fund(h, u, '200', BANK);
    let list = (await h.call<WalletList>('POST', 'wallet/list', {}, { token: u.token })).body.data;
    expect(list).toMatchObject({ total_usdt: '350.5', valued: true });
    expect(list.accounts[0]).toMatchObject({ type: 'spot', total_usdt: '350.5', valued: true });
    await change(u.token, { currency_id: USDT, from: 'spot', to: 'contract', amount: '50.5' });
    await fund(h, u, '0.01', BTC);
    list = (await h.call<WalletList>('POST', 'wallet/list', {}, { token: u.token })).body.data;
    const spot = list.accounts.find((a) => a.type === 'spot')!;
    const contract = list.accounts.find((a) => a.type === 'contract')!;
    // BTC has no price source yet: left out of the sum, and the sum says it is incomplete
    expect(spot).toMatchObject({ total_usdt: '300', valued: false });
    expect(spot.currencies.find((c) => c.symbol === 'BTC')).toMatchObject({
      total: '0.01',
      usdt_value: null,
    });
    expect(contract).toMatchObject({ total_usdt: '50.5', valued: true });
    expect(list).toMatchObject({ total_usdt: '350.5', valued: false });
  });

  it('values a coin at the latest recorded index tick of its USDT market', async () => {
    const u = await registerByEmail(h);
    await fund(h, u, '100');
    await fund(h, u, '0.012', BTC);
    await h.app.market.feed.tick(Date.now() - 60_000);
    const price = (await h.app.market.feed.tick(Date.now())).get(1)!;
    const list = (await h.call<WalletList>('POST', 'wallet/list', {}, { token: u.token })).body.data;
    const spot = list.accounts.find((a) => a.type === 'spot')!;
    // 0.012 BTC at the tick, truncated to USDT's 6 decimals, plus the 100 USDT
    const btcValue = truncateDecimal(mulDecimal('0.012', price), 6);
    expect(spot.currencies.find((c) => c.symbol === 'BTC')).toMatchObject({ usdt_value: btcValue });
    expect(spot).toMatchObject({ total_usdt: truncateDecimal(addDecimal('100', btcValue), 6), valued: true });
    const [row] = await h.app.ctx.db.query<{ price: string }>(
      'SELECT trim_scale(price)::text AS price FROM index_ticks WHERE market_id = 1 ORDER BY created_at DESC LIMIT 1',
    );
    expect(compareDecimal(row!.price, price)).toBe(0);
  });

  it('truncates to the currency decimals, never rounding up', async () => {
    const u = await registerByEmail(h);
    await fund(h, u, '1000');
    // a balance with more digits than USDT shows (as other modules may leave: fees, payouts)
    await h.app.ctx.db.tx(async (q) => {
      const { post } = await import('../../ledger/ledger.ts');
      await post(q, {
        reason: 'test_dust',
        legs: [
          { account: { userId: u.user.id, type: 'spot', currencyId: 3 }, available: '0.0000009' },
          { account: { house: 'fees', currencyId: 3 }, available: '-0.0000009' },
        ],
      });
    });
    const list = (await h.call<WalletList>('POST', 'wallet/list', {}, { token: u.token })).body.data;
    expect(list.accounts[0]!.currencies[0]).toMatchObject({
      total: '1000',
      available: '1000',
      usdt_value: '1000',
    });
    expect(list.total_usdt).toBe('1000');
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '1000.0000009', frozen: '0' });
  });
});

describe('wallet/change (transfer between own accounts)', () => {
  it('moves the amount in one posting and records the transfer', async () => {
    const u = await registerByEmail(h);
    await fund(h, u, '500');
    const res = await change(u.token, {
      currency_id: USDT,
      from: 'spot',
      to: 'option',
      amount: '120.123456',
    });
    expect(res.body).toMatchObject({
      type: 'ok',
      message: 'Transfer successful',
      data: { currency_id: 3, symbol: 'USDT', from: 'spot', to: 'option', amount: '120.123456' },
    });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '379.876544', frozen: '0' });
    expect(await ledgerBalance(h, { userId: u.user.id, type: 'option' })).toEqual({
      available: '120.123456',
      frozen: '0',
    });
    await change(u.token, { currency_id: USDT, from: 'option', to: 'trust', amount: '20' });
    const hist = await h.call<TransferPage>(
      'GET',
      'wallet/hzhistory',
      { page: '1', limit: '10' },
      { token: u.token },
    );
    expect(hist.body.data).toMatchObject({ page: 1, limit: 10, total: 2 });
    expect(hist.body.data.list.map((t) => [t.from, t.to, t.amount])).toEqual([
      ['option', 'trust', '20'],
      ['spot', 'option', '120.123456'],
    ]);
    const journals = await h.app.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_journals WHERE reason = 'transfer' AND ref_id = $1",
      [String(res.body.data.id)],
    );
    expect(journals[0]!.n).toBe(1);
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });

  it('checks every input with its message and moves nothing on failure', async () => {
    const u = await registerByEmail(h);
    await fund(h, u, '100');
    const base = { currency_id: USDT, from: 'spot', to: 'contract', amount: '10' };
    const cases: [Record<string, string>, string, string | undefined, number][] = [
      [{ ...base, currency_id: '' }, 'Please choose a currency', 'currency_id', 400],
      [{ ...base, currency_id: '42' }, 'This currency is not available', 'currency_id', 400],
      [{ ...base, currency_id: 'abc' }, 'This currency is not available', 'currency_id', 400],
      [{ ...base, from: 'savings' }, 'Please choose an account', 'from', 400],
      [{ ...base, to: '' }, 'Please choose an account', 'to', 400],
      [{ ...base, to: 'spot' }, 'Please choose two different accounts', 'to', 400],
      [{ ...base, amount: '' }, 'Please enter the amount', 'amount', 400],
      [{ ...base, amount: '0' }, 'Please enter a valid amount (at most 6 decimal places)', 'amount', 400],
      [{ ...base, amount: '-5' }, 'Please enter a valid amount (at most 6 decimal places)', 'amount', 400],
      [
        { ...base, amount: '1.1234567' },
        'Please enter a valid amount (at most 6 decimal places)',
        'amount',
        400,
      ],
      [{ ...base, amount: '1e3' }, 'Please enter a valid amount (at most 6 decimal places)', 'amount', 400],
      [
        { ...base, amount: '9'.repeat(30) },
        'Please enter a valid amount (at most 6 decimal places)',
        'amount',
        400,
      ],
      [{ ...base, amount: '100.000001' }, 'Insufficient balance', 'amount', 400],
    ];
    for (const [body, message, field, status] of cases) {
      const res = await change(u.token, body);
      expect(res.status, message).toBe(status);
      expect(res.body, JSON.stringify(body)).toMatchObject({
        type: 'error',
        message,
        ...(field ? { field } : {}),
      });
    }
    const insufficient = await change(u.token, { ...base, amount: '100.000001' });
    expect(insufficient.body.code).toBe(3001);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '100', frozen: '0' });
    const hist = await h.call<TransferPage>('GET', 'wallet/hzhistory', {}, { token: u.token });
    expect(hist.body.data.total).toBe(0);
    // Thai by default
    const th = await change(u.token, { ...base, amount: '500' }, 'th');
    expect(th.body.message).toBe('ยอดคงเหลือไม่เพียงพอ');
  });

  it('a transfer out of an empty account is insufficient, not an error', async () => {
    const u = await registerByEmail(h);
    const res = await change(u.token, { currency_id: ETH, from: 'trust', to: 'spot', amount: '0.1' });
    expect(res.body).toMatchObject({ type: 'error', code: 3001, message: 'Insufficient balance' });
  });
});

describe('wallet/detail and wallet/legal_log', () => {
  it('shows one account with its latest flows, and pages all flows with filters', async () => {
    const u = await registerByEmail(h);
    const depositId = await fund(h, u, '300');
    await change(u.token, { currency_id: USDT, from: 'spot', to: 'contract', amount: '100' });
    await change(u.token, { currency_id: USDT, from: 'contract', to: 'spot', amount: '40' });
    const detail = await h.call<WalletDetail>(
      'POST',
      'wallet/detail',
      { currency_id: USDT, type: 'spot' },
      { token: u.token },
    );
    expect(detail.body.data).toMatchObject({
      type: 'spot',
      currency_id: 3,
      symbol: 'USDT',
      decimals: 6,
      total: '240',
      available: '240',
      frozen: '0',
      usdt_value: '240',
    });
    expect(
      detail.body.data.flows.map((f) => [f.reason, f.reason_text, f.delta_available, f.available_after]),
    ).toEqual([
      ['transfer', 'Transfer', '40', '240'],
      ['transfer', 'Transfer', '-100', '200'],
      ['deposit', 'Deposit', '300', '300'],
    ]);
    expect(detail.body.data.flows[2]).toMatchObject({
      type: 'spot',
      ref_type: 'deposit',
      ref_id: String(depositId),
      delta_frozen: '0',
      frozen_after: '0',
    });
    expect(Number.isNaN(Date.parse(detail.body.data.flows[0]!.time))).toBe(false);

    const all = await h.call<LedgerFlowPage>('POST', 'wallet/legal_log', {}, { token: u.token });
    expect(all.body.data).toMatchObject({ page: 1, limit: 20, total: 5 });
    const contract = await h.call<LedgerFlowPage>(
      'POST',
      'wallet/legal_log',
      { type: 'contract', currency_id: USDT },
      { token: u.token },
    );
    expect(contract.body.data.list.map((f) => f.delta_available)).toEqual(['-40', '100']);
    const page2 = await h.call<LedgerFlowPage>(
      'POST',
      'wallet/legal_log',
      { page: '2', limit: '2' },
      { token: u.token },
    );
    expect(page2.body.data).toMatchObject({ page: 2, limit: 2, total: 5 });
    expect(page2.body.data.list).toHaveLength(2);
    const th = await h.call<LedgerFlowPage>(
      'POST',
      'wallet/legal_log',
      { limit: '1' },
      { token: u.token, lang: 'th' },
    );
    expect(th.body.data.list[0]!.reason_text).toBe('โอนระหว่างบัญชี');
    // someone else's flows never show
    const other = await registerByEmail(h);
    const none = await h.call<LedgerFlowPage>('POST', 'wallet/legal_log', {}, { token: other.token });
    expect(none.body.data).toMatchObject({ total: 0, list: [] });
  });

  it('refuses a bad account, currency or page', async () => {
    const u = await registerByEmail(h);
    const cases: [string, Record<string, string>, string, string][] = [
      ['wallet/detail', { currency_id: USDT, type: 'margin' }, 'Please choose an account', 'type'],
      ['wallet/detail', { type: 'spot' }, 'Please choose a currency', 'currency_id'],
      ['wallet/legal_log', { type: 'x' }, 'Please choose an account', 'type'],
      ['wallet/legal_log', { page: '0' }, 'Invalid page number or page size', 'page'],
      ['wallet/legal_log', { limit: '101' }, 'Invalid page number or page size', 'limit'],
      ['wallet/legal_log', { limit: 'ten' }, 'Invalid page number or page size', 'limit'],
    ];
    for (const [path, body, message, field] of cases) {
      const res = await h.call('POST', path, body, { token: u.token });
      expect(res.status, message).toBe(400);
      expect(res.body).toMatchObject({ type: 'error', message, field });
    }
    const hz = await h.call('GET', 'wallet/hzhistory', { page: '-1' }, { token: u.token });
    expect(hz.body).toMatchObject({
      type: 'error',
      message: 'Invalid page number or page size',
      field: 'page',
    });
  });
});

describe('wallet/get_in_address', () => {
  const get = (token: string, body: Record<string, string>) =>
    h.call<DepositAddress>('POST', 'wallet/get_in_address', body, { token });

  it('derives one address per user, currency and chain, the same every time', async () => {
    const u = await registerByEmail(h);
    const trc = await get(u.token, { currency_id: USDT, chain: 'TRC20' });
    expect(trc.body).toMatchObject({
      type: 'ok',
      data: { currency_id: 3, symbol: 'USDT', chain: 'TRC20', bank: null, min_deposit: '10' },
    });
    expect(trc.body.data.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    const erc = (await get(u.token, { currency_id: USDT, chain: 'erc20' })).body.data;
    expect(erc.chain).toBe('ERC20');
    expect(erc.address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const omni = (await get(u.token, { currency_id: USDT, chain: 'OMNI' })).body.data;
    expect(omni.address).toMatch(/^1[1-9A-HJ-NP-Za-km-z]{25,33}$/);
    // a currency with one chain needs no chain
    const btc = (await get(u.token, { currency_id: BTC })).body.data;
    expect(btc).toMatchObject({ chain: 'BTC' });
    expect(btc.address).toMatch(/^1[1-9A-HJ-NP-Za-km-z]{25,33}$/);
    const eth = (await get(u.token, { currency_id: ETH })).body.data;
    // each currency has its own branch: ETH and USDT-ERC20 never share an address
    expect(eth.address).not.toBe(erc.address);
    expect(btc.address).not.toBe(omni.address);
    expect((await get(u.token, { currency_id: USDT, chain: 'TRC20' })).body.data.address).toBe(
      trc.body.data.address,
    );

    // the address is the key's public child <currency>/<user>, encoded for its chain
    const keys = await h.app.ctx.db.query<{ name: string; value: string }>(
      "SELECT name, value FROM server_secrets WHERE name LIKE 'wallet_dev_xpub_%'",
    );
    const xpub = new Map(keys.map((k) => [k.name, k.value]));
    const tronKey = HDKey.fromExtendedKey(xpub.get('wallet_dev_xpub_tron')!);
    expect(addressFor('tron', tronKey.deriveChild(3).deriveChild(u.user.id).publicKey!)).toBe(
      trc.body.data.address,
    );
    const ethKey = HDKey.fromExtendedKey(xpub.get('wallet_dev_xpub_ethereum')!);
    expect(addressFor('ethereum', ethKey.deriveChild(2).deriveChild(u.user.id).publicKey!)).toBe(eth.address);
    // only public keys (and the development seed) are kept; never an extended private key
    const secrets = await h.app.ctx.db.query<{ value: string }>('SELECT value FROM server_secrets');
    expect(secrets.some((s) => s.value.startsWith('xprv'))).toBe(false);
  });

  it('gives two users different addresses, and keeps them in the table', async () => {
    const a = await registerByEmail(h);
    const b = await registerByEmail(h);
    const addrA = (await get(a.token, { currency_id: USDT, chain: 'TRC20' })).body.data.address;
    const addrB = (await get(b.token, { currency_id: USDT, chain: 'TRC20' })).body.data.address;
    expect(addrA).not.toBe(addrB);
    const rows = await h.app.ctx.db.query<{ user_id: number; derivation_path: string }>(
      'SELECT user_id, derivation_path FROM deposit_addresses WHERE address = ANY($1)',
      [[addrA, addrB]],
    );
    // the full path from the development wallet's master key (Tron account m/44'/195'/0'), which
    // is what recovers each address's private key from the seed
    expect(rows.map((r) => r.derivation_path).sort()).toEqual(
      [`m/44'/195'/0'/3/${a.user.id}`, `m/44'/195'/0'/3/${b.user.id}`].sort(),
    );
    const seed = await h.app.ctx.db.query<{ value: string }>(
      "SELECT value FROM server_secrets WHERE name = 'wallet_dev_seed'",
    );
    const master = HDKey.fromMasterSeed(Buffer.from(seed[0]!.value, 'base64url'));
    expect(addressFor('tron', master.derive(`m/44'/195'/0'/3/${a.user.id}`).publicKey!)).toBe(addrA);
    // the same address can never be handed to a second owner
    await expect(
      h.app.ctx.db.query(
        `INSERT INTO deposit_addresses (user_id, currency_id, chain, address, key_fingerprint, derivation_path)
         VALUES ($1, 3, 'ERC20', $2, 'x', 'x')`,
        [b.user.id, addrA],
      ),
    ).rejects.toThrow();
  });

  it('completes paths stored relative to their key at start; those of a key no longer in use are reported', async () => {
    const u = await registerByEmail(h);
    const addr = (await get(u.token, { currency_id: USDT, chain: 'TRC20' })).body.data.address;
    const [made] = await h.app.ctx.db.query<{ key_fingerprint: string }>(
      'SELECT key_fingerprint FROM deposit_addresses WHERE address = $1',
      [addr],
    );
    // as addresses were stored before: relative to the xpub, and one from a key since replaced
    await h.app.ctx.db.query('UPDATE deposit_addresses SET derivation_path = $2 WHERE address = $1', [
      addr,
      `m/3/${u.user.id}`,
    ]);
    await h.app.ctx.db.query(
      `INSERT INTO deposit_addresses (user_id, currency_id, chain, address, key_fingerprint, derivation_path)
       VALUES ($1, 2, 'ERC20', '0x0000000000000000000000000000000000000001', '0badc0de', $2)`,
      [u.user.id, `m/2/${u.user.id}`],
    );
    const warnings: string[] = [];
    await loadDepositKeys(h.app.ctx.db, h.config, (m) => warnings.push(m));
    const rows = await h.app.ctx.db.query<{ key_fingerprint: string; derivation_path: string }>(
      'SELECT key_fingerprint, derivation_path FROM deposit_addresses WHERE user_id = $1 ORDER BY id',
      [u.user.id],
    );
    expect(rows).toEqual([
      { key_fingerprint: made!.key_fingerprint, derivation_path: `m/44'/195'/0'/3/${u.user.id}` },
      { key_fingerprint: '0badc0de', derivation_path: `m/2/${u.user.id}` },
    ]);
    expect(warnings.some((w) => /1 deposit addresses come from keys no longer configured/.test(w))).toBe(
      true,
    );
    await h.app.ctx.db.query("DELETE FROM deposit_addresses WHERE key_fingerprint = '0badc0de'");
  });

  it('simultaneous first requests agree on one address', async () => {
    const u = await registerByEmail(h);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => get(u.token, { currency_id: ETH, chain: 'ERC20' })),
    );
    expect(new Set(results.map((r) => r.body.data.address)).size).toBe(1);
    const rows = await h.app.ctx.db.query('SELECT 1 FROM deposit_addresses WHERE user_id = $1', [u.user.id]);
    expect(rows).toHaveLength(1);
  });

  it('answers the platform bank details for Bank (placeholders, labelled, until configured)', async () => {
    const u = await registerByEmail(h);
    const res = await get(u.token, { currency_id: BANK });
    expect(res.body.data).toMatchObject({
      currency_id: 9999,
      chain: null,
      address: null,
      min_deposit: '100',
    });
    expect(res.body.data.bank).toMatchObject({ configured: false });
    expect(res.body.data.bank!.bank_name).toMatch(/placeholder/i);
  });

  it('refuses a chain the currency does not use, and asks for one where there are several', async () => {
    const u = await registerByEmail(h);
    const none = await get(u.token, { currency_id: USDT });
    expect(none.body).toMatchObject({ type: 'error', message: 'Please choose a chain', field: 'chain' });
    const wrong = await get(u.token, { currency_id: BTC, chain: 'TRC20' });
    expect(wrong.body).toMatchObject({
      type: 'error',
      message: 'BTC cannot be sent on the TRC20 chain',
      field: 'chain',
    });
    const omni = await get(u.token, { currency_id: BTC, chain: 'OMNI' });
    expect(omni.body).toMatchObject({
      type: 'error',
      message: 'BTC cannot be sent on the OMNI chain',
      field: 'chain',
    });
    await h.app.ctx.db.query('UPDATE currencies SET can_deposit = false WHERE id = 2');
    const suspended = await get(u.token, { currency_id: ETH });
    expect(suspended.body).toMatchObject({
      type: 'error',
      code: 3003,
      message: 'Deposits of ETH are suspended',
    });
    await h.app.ctx.db.query('UPDATE currencies SET can_deposit = true WHERE id = 2');
  });
});

describe('configured keys and bank details', () => {
  let configured: Harness;
  const XPUB =
    'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';
  beforeAll(async () => {
    configured = await startHarness({
      xpubBitcoin: XPUB,
      xpubEthereum: XPUB,
      xpubTron: XPUB,
      bankDetails: JSON.stringify({
        bank_name: 'Kasikorn Bank',
        account_name: 'Verdant Co., Ltd.',
        account_number: '123-4-56789-0',
        swift: 'KASITHBK',
        remark: 'Write your user id as the reference',
      }),
    });
  });
  afterAll(() => configured.close());

  it('derives from the configured xpub, and answers the configured bank account', async () => {
    const u = await registerByEmail(configured);
    const btc = await configured.call<DepositAddress>(
      'POST',
      'wallet/get_in_address',
      { currency_id: BTC },
      { token: u.token },
    );
    const key = HDKey.fromExtendedKey(XPUB).deriveChild(1).deriveChild(u.user.id);
    expect(btc.body.data.address).toBe(addressFor('bitcoin', key.publicKey!));
    const [row] = await configured.app.ctx.db.query<{ key_fingerprint: string; derivation_path: string }>(
      'SELECT key_fingerprint, derivation_path FROM deposit_addresses WHERE user_id = $1',
      [u.user.id],
    );
    expect(row!.key_fingerprint).toBe('3442193e');
    // a master key: the path from it is the whole path
    expect(row!.derivation_path).toBe(`m/1/${u.user.id}`);
    const dev = await configured.app.ctx.db.query(
      "SELECT 1 FROM server_secrets WHERE name LIKE 'wallet_dev%'",
    );
    expect(dev).toEqual([]);
    const bank = await configured.call<DepositAddress>(
      'POST',
      'wallet/get_in_address',
      { currency_id: BANK },
      { token: u.token },
    );
    expect(bank.body.data.bank).toEqual({
      bank_name: 'Kasikorn Bank',
      account_name: 'Verdant Co., Ltd.',
      account_number: '123-4-56789-0',
      swift: 'KASITHBK',
      bank_address: '',
      remark: 'Write your user id as the reference',
      configured: true,
    });
  });

  it('refuses a private key in place of an xpub, and malformed bank details', () => {
    const xprv = HDKey.fromMasterSeed(new Uint8Array(16).fill(7)).privateExtendedKey;
    expect(() => parseXpub('XPUB_TRON', xprv)).toThrow(/XPUB_TRON holds a PRIVATE extended key/);
    expect(() => parseBankDetails('{"bank_name":"X"}')).toThrow(
      /BANK_DETAILS must be .* \(missing: account_name, account_number, swift\)/,
    );
    expect(() => parseBankDetails('not json')).toThrow(/BANK_DETAILS is not valid JSON/);
    expect(() => parseBankDetails('[]')).toThrow(/BANK_DETAILS must be/);
  });
});
