import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';
import { type AccountRef, balanceOf, InsufficientFunds, post } from './ledger.ts';
// These post frozen legs with no order or withdrawal behind them: the ledger's own checks only.
import { verifyLedger } from './verify.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const USDT = 3;
const spot = (userId: number): AccountRef => ({ userId, type: 'spot', currencyId: USDT });
const deposits: AccountRef = { house: 'deposits', currencyId: USDT };

async function fund(userId: number, amount: string) {
  await h.app.ctx.db.tx((q) =>
    post(q, {
      reason: 'deposit',
      legs: [
        { account: spot(userId), available: amount },
        { account: deposits, available: `-${amount}` },
      ],
    }),
  );
}

describe('ledger', () => {
  it('moves value between accounts and records each change with the balance after it', async () => {
    const { user } = await registerByEmail(h);
    await fund(user.id, '100.123456');
    await h.app.ctx.db.tx((q) =>
      post(q, {
        reason: 'withdraw_freeze',
        refType: 'withdrawal',
        refId: 1,
        legs: [{ account: spot(user.id), available: '-40', frozen: '40' }],
      }),
    );
    expect(await balanceOf(h.app.ctx.db, spot(user.id))).toEqual({
      available: '60.123456000000000000',
      frozen: '40.000000000000000000',
    });
    const entries = await h.app.ctx.db.query<{
      reason: string;
      delta_available: string;
      available_after: string;
    }>(
      `SELECT j.reason, e.delta_available::text, e.available_after::text FROM ledger_entries e
         JOIN ledger_journals j ON j.id = e.journal_id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE a.user_id = $1 ORDER BY e.id`,
      [user.id],
    );
    expect(entries.map((e) => [e.reason, e.delta_available, e.available_after])).toEqual([
      ['deposit', '100.123456000000000000', '100.123456000000000000'],
      ['withdraw_freeze', '-40.000000000000000000', '60.123456000000000000'],
    ]);
    expect((await verifyLedger(h.app.ctx.db, { frozen: false })).problems).toEqual([]);
  });

  it('refuses a posting that would make value out of nothing', async () => {
    const { user } = await registerByEmail(h);
    await expect(
      h.app.ctx.db.tx((q) => post(q, { reason: 'gift', legs: [{ account: spot(user.id), available: '5' }] })),
    ).rejects.toThrow(/does not sum to zero/);
    expect(await balanceOf(h.app.ctx.db, spot(user.id))).toEqual({ available: '0', frozen: '0' });
  });

  it('fails the whole posting, and writes nothing, when a user balance would go below zero', async () => {
    const { user } = await registerByEmail(h);
    await fund(user.id, '10');
    const before = await h.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_entries');
    await expect(
      h.app.ctx.db.tx((q) =>
        post(q, {
          reason: 'withdraw',
          legs: [
            { account: spot(user.id), available: '-10.000001' },
            { account: { house: 'withdrawals', currencyId: USDT }, available: '10.000001' },
          ],
        }),
      ),
    ).rejects.toBeInstanceOf(InsufficientFunds);
    const after = await h.app.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM ledger_entries');
    expect(after[0]!.n).toBe(before[0]!.n);
    expect((await balanceOf(h.app.ctx.db, spot(user.id))).available).toBe('10.000000000000000000');
  });

  it('never overdraws under many simultaneous postings against one balance', async () => {
    const { user } = await registerByEmail(h);
    await fund(user.id, '100');
    const other = spot((await registerByEmail(h)).user.id);
    const attempts = Array.from({ length: 40 }, (_, i) =>
      h.app.ctx.db
        .tx((q) =>
          post(q, {
            reason: i % 2 ? 'transfer' : 'withdraw',
            legs: [
              { account: spot(user.id), available: '-7' },
              { account: i % 2 ? other : { house: 'withdrawals', currencyId: USDT }, available: '7' },
            ],
          }),
        )
        .then(
          () => 'ok',
          (e) => (e instanceof InsufficientFunds ? 'insufficient' : Promise.reject(e)),
        ),
    );
    const results = await Promise.all(attempts);
    expect(results.filter((r) => r === 'ok')).toHaveLength(14);
    expect(await balanceOf(h.app.ctx.db, spot(user.id))).toMatchObject({ available: '2.000000000000000000' });
    const report = await verifyLedger(h.app.ctx.db, { frozen: false });
    expect(report.problems).toEqual([]);
  });

  it('verify finds a balance changed behind the ledger', async () => {
    const { user } = await registerByEmail(h);
    await fund(user.id, '3');
    await h.app.ctx.db.query(
      "UPDATE ledger_accounts SET available = available + 1 WHERE user_id = $1 AND type = 'spot' AND currency_id = $2",
      [user.id, USDT],
    );
    const { problems } = await verifyLedger(h.app.ctx.db, { frozen: false });
    expect(problems.some((p) => /entries sum to/.test(p))).toBe(true);
    expect(problems.some((p) => /currency 3: accounts sum to 1/.test(p))).toBe(true);
    // put it back so the other tests in this file see a clean ledger
    await h.app.ctx.db.query(
      "UPDATE ledger_accounts SET available = available - 1 WHERE user_id = $1 AND type = 'spot' AND currency_id = $2",
      [user.id, USDT],
    );
  });
});
