import type { TrustOrder, TrustOrderPage } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { balanceOf, post } from '../../ledger/ledger.ts';
import { type Harness, registerByEmail } from '../../test/harness.ts';

/** Test-only helpers for locked deposit products: money comes in from the house 'deposits' account. */

export const USDT = 3;
const c = (v: string) => v.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');

/** A registered user with `amount` USDT in the trust account. */
export async function trustUser(h: Harness, amount = '10000') {
  const u = await registerByEmail(h);
  if (amount !== '0') await fundTrust(h.app, u.user.id, amount);
  return u;
}

export async function fundTrust(app: FastifyInstance, userId: number, amount: string, currencyId = USDT) {
  await app.ctx.db.tx((q) =>
    post(q, {
      reason: 'deposit',
      legs: [
        { account: { userId, type: 'trust', currencyId }, available: amount },
        { account: { house: 'deposits', currencyId }, available: `-${amount}` },
      ],
    }),
  );
}

export async function trustBalance(app: FastifyInstance, userId: number, currencyId = USDT) {
  const b = await balanceOf(app.ctx.db, { userId, type: 'trust', currencyId });
  return { available: c(b.available), frozen: c(b.frozen) };
}

export async function trustPool(app: FastifyInstance, currencyId = USDT) {
  return c((await balanceOf(app.ctx.db, { house: 'trust_pool', currencyId })).available);
}

/** Moves an order's start `days` days into the past, as if that much time had gone by. */
export async function age(app: FastifyInstance, orderId: string, days: number) {
  await app.ctx.db.query(
    `UPDATE trust_orders SET started_at = started_at - $2 * interval '1 day',
                             matures_at = matures_at - $2 * interval '1 day' WHERE id = $1`,
    [orderId, days],
  );
}

export const buy = (h: Harness, token: string, body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<TrustOrder>('POST', 'lh/deposit', { product_id: '1', agree: '1', ...body }, { token, lang });

export const trustOrders = (h: Harness, token: string, status = 'hosting') =>
  h.call<TrustOrderPage>('GET', 'lh/deposit/order', { status }, { token });
