import type { DemoFundsInfo, LedgerFlow } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { ledgerBalance } from './test-helpers.ts';

// Demo funds (issue 23): offered on development deposit keys only, once per user, through the ledger.
// BIP32 test vector 1's master public key: any real key configured switches them off.
const REAL_XPUB =
  'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const info = (hh: Harness, token: string) =>
  hh.call<DemoFundsInfo>('GET', 'wallet/demo_funds', undefined, { token });
const take = (hh: Harness, token: string, lang: 'en' | 'th' = 'en') =>
  hh.call<DemoFundsInfo>('POST', 'wallet/demo_funds', undefined, { token, lang });

describe('demo funds on development keys', () => {
  it('offers 10,000 USDT once, credits the spot account from the treasury, marked demo', async () => {
    const u = await registerByEmail(h);
    expect((await info(h, u.token)).body.data).toEqual({
      offered: true,
      taken: false,
      amount: '10000',
      symbol: 'USDT',
    });
    const res = await take(h, u.token);
    expect(res.body).toMatchObject({ type: 'ok', message: 'Demo funds added to your spot account' });
    expect(res.body.data).toMatchObject({ offered: false, taken: true });
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '10000', frozen: '0' });
    const flows = await h.call<{ list: LedgerFlow[] }>(
      'POST',
      'wallet/legal_log',
      {},
      { token: u.token, lang: 'th' },
    );
    expect(flows.body.data.list[0]).toMatchObject({
      reason: 'demo_funds',
      reason_text: 'เงินทดลอง (สำหรับทดลองใช้ ไม่ใช่เงินจริง)',
    });
    const again = await take(h, u.token, 'th');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('คุณรับเงินทดลองไปแล้ว');
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '10000', frozen: '0' });
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });

  it('20 requests at once credit once', async () => {
    const u = await registerByEmail(h);
    const results = await Promise.all(Array.from({ length: 20 }, () => take(h, u.token)));
    expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '10000', frozen: '0' });
    const [n] = await h.app.ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ledger_journals WHERE reason = 'demo_funds' AND ref_id = $1",
      [String(u.user.id)],
    );
    expect(n!.n).toBe(1);
  });

  it('needs a login', async () => {
    expect((await h.call('POST', 'wallet/demo_funds')).body.code).toBe(999);
    expect((await h.call('GET', 'wallet/demo_funds')).body.code).toBe(999);
  });
});

describe('demo funds switched off', () => {
  it.each([
    ['DEMO_FUNDS=0', { demoFunds: false }],
    ['a real deposit key (XPUB_TRON)', { xpubTron: REAL_XPUB }],
  ])('%s: not offered, and taking them is refused with nothing credited', async (_name, overrides) => {
    const off = await startHarness(overrides);
    try {
      const u = await registerByEmail(off);
      expect((await info(off, u.token)).body.data).toMatchObject({ offered: false, taken: false });
      const res = await take(off, u.token);
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Demo funds are not available on this server');
      expect(await ledgerBalance(off, { userId: u.user.id })).toEqual({ available: '0', frozen: '0' });
    } finally {
      await off.close();
    }
  });
});
