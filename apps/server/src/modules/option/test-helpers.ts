import type { OptionOrder, OptionOrderPage } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { balanceOf, post } from '../../ledger/ledger.ts';
import { type Harness, registerByEmail } from '../../test/harness.ts';

/** Test-only helpers for options: money comes in from the house 'deposits' account, ticks are written by hand. */

export const USDT = 3;
export const BTC_MARKET = 1;

const c = (v: string) => v.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/** A registered, verified user with `amount` USDT in the option account. */
export async function optionTrader(h: Harness, amount = '1000', verified = true) {
  const u = await registerByEmail(h);
  if (verified)
    await h.app.ctx.db.query(`UPDATE users SET verification = 'verified' WHERE id = $1`, [u.user.id]);
  if (amount !== '0') await fundOption(h.app, u.user.id, amount);
  return u;
}

export async function fundOption(app: FastifyInstance, userId: number, amount: string) {
  await app.ctx.db.tx((q) =>
    post(q, {
      reason: 'deposit',
      legs: [
        { account: { userId, type: 'option', currencyId: USDT }, available: amount },
        { account: { house: 'deposits', currencyId: USDT }, available: `-${amount}` },
      ],
    }),
  );
}

/** Option account balance as canonical decimals. */
export async function optionBalance(app: FastifyInstance, userId: number) {
  const b = await balanceOf(app.ctx.db, { userId, type: 'option', currencyId: USDT });
  return { available: c(b.available), frozen: c(b.frozen) };
}

export async function house(app: FastifyInstance, name: 'option_pool' | 'fees') {
  return c((await balanceOf(app.ctx.db, { house: name, currencyId: USDT })).available);
}

/** Records an index tick of a market at `atMs` (default now) straight into the table; answers its id. */
export async function tick(app: FastifyInstance, price: string, atMs = Date.now(), marketId = BTC_MARKET) {
  const [row] = await app.ctx.db.query<{ id: string }>(
    `INSERT INTO index_ticks (market_id, price, source, created_at) VALUES ($1, $2, 'test', $3) RETURNING id::text`,
    [marketId, price, new Date(atMs).toISOString()],
  );
  return row!.id;
}

export const submit = (h: Harness, token: string, body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<OptionOrder>(
    'POST',
    'microtrade/submit',
    { symbol: 'btcusdt', seconds: '30', currency: 'USDT', direction: 'bullish', amount: '100', ...body },
    { token, lang },
  );

export const orders = (h: Harness, token: string, q: Record<string, string> = {}) =>
  h.call<OptionOrderPage>('GET', 'microtrade/lists', q, { token });
