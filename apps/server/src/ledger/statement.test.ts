import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';
import { currenciesById, findCurrency, listCurrencies } from './currencies.ts';
import { type AccountRef, post } from './ledger.ts';
import { statement, userBalances } from './statement.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const USDT = 3;
const BTC = 1;
const page = (p: number, limit: number) => ({ page: p, limit, offset: (p - 1) * limit });

async function deposit(userId: number, currencyId: number, amount: string, operatorId?: number) {
  const account: AccountRef = { userId, type: 'spot', currencyId };
  await h.app.ctx.db.tx((q) =>
    post(q, {
      reason: 'deposit',
      refType: 'deposit',
      refId: 7,
      ...(operatorId === undefined ? {} : { operatorId }),
      legs: [
        { account, available: amount },
        { account: { house: 'deposits', currencyId }, available: `-${amount}` },
      ],
    }),
  );
}

describe('statement', () => {
  it("lists only the user's entries, newest first, with symbols, canonical amounts and filters", async () => {
    const { user } = await registerByEmail(h);
    const other = await registerByEmail(h);
    await deposit(other.user.id, USDT, '5');
    await deposit(user.id, USDT, '100.50', 42);
    await deposit(user.id, BTC, '0.25');
    await h.app.ctx.db.tx((q) =>
      post(q, {
        reason: 'transfer',
        legs: [
          { account: { userId: user.id, type: 'spot', currencyId: USDT }, available: '-30' },
          { account: { userId: user.id, type: 'option', currencyId: USDT }, available: '30' },
        ],
      }),
    );
    const all = await statement(h.app.ctx.db, { userId: user.id }, page(1, 20));
    expect(all.total).toBe(4);
    expect(all.rows.map((r) => [r.reason, r.type, r.symbol, r.delta_available, r.available_after])).toEqual([
      ['transfer', 'option', 'USDT', '30', '30'],
      ['transfer', 'spot', 'USDT', '-30', '70.5'],
      ['deposit', 'spot', 'BTC', '0.25', '0.25'],
      ['deposit', 'spot', 'USDT', '100.5', '100.5'],
    ]);
    expect(all.rows[3]).toMatchObject({
      decimals: 6,
      delta_frozen: '0',
      frozen_after: '0',
      ref_type: 'deposit',
      ref_id: '7',
      operator_id: 42,
    });
    expect(all.rows[3]!.created_at).toBeInstanceOf(Date);
    expect(all.rows[0]!.operator_id).toBeNull();

    const spotUsdt = await statement(
      h.app.ctx.db,
      { userId: user.id, type: 'spot', currencyId: USDT },
      page(1, 20),
    );
    expect(spotUsdt.rows.map((r) => r.delta_available)).toEqual(['-30', '100.5']);
    const second = await statement(h.app.ctx.db, { userId: user.id }, page(2, 3));
    expect(second).toMatchObject({ total: 4, rows: [{ reason: 'deposit', symbol: 'USDT' }] });
  });

  it('balances: every used account of the user, canonical; none for a new user', async () => {
    const { user } = await registerByEmail(h);
    expect(await userBalances(h.app.ctx.db, user.id)).toEqual([]);
    await deposit(user.id, BTC, '1.20000');
    expect(await userBalances(h.app.ctx.db, user.id)).toEqual([
      { type: 'spot', currency_id: BTC, available: '1.2', frozen: '0' },
    ]);
  });
});

describe('currencies', () => {
  it('lists the currencies in screen order with canonical limits, and finds one by id', async () => {
    const all = await listCurrencies(h.app.ctx.db);
    expect(all.map((c) => c.symbol).slice(0, 3)).toEqual(['USDT', 'BTC', 'ETH']);
    expect(all.map((c) => c.symbol)).toContain('Bank');
    // NUMERIC(36,18) limits come back canonical ("105", not "105.000000000000000000")
    expect(await findCurrency(h.app.ctx.db, USDT)).toMatchObject({ symbol: 'USDT', min_withdraw: '105' });
    expect(await findCurrency(h.app.ctx.db, 123456)).toBeNull();
    expect((await currenciesById(h.app.ctx.db)).get(BTC)?.withdraw_fee).toBe('0.0002');
  });
});
