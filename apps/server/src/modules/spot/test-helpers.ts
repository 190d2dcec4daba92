import type { SpotOrder, SpotOrderPage } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { balanceOf, post } from '../../ledger/ledger.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import type { Envelope, Harness } from '../../test/harness.ts';

/** Test-only helpers for spot orders: money comes in from the house 'deposits' account. */

export const USDT = 3;
export const BTC = 1;
export const ETH = 2;

export async function fund(app: FastifyInstance, userId: number, currencyId: number, amount: string) {
  await app.ctx.db.tx((q) =>
    post(q, {
      reason: 'deposit',
      legs: [
        { account: { userId, type: 'spot', currencyId }, available: amount },
        { account: { house: 'deposits', currencyId }, available: `-${amount}` },
      ],
    }),
  );
}

/** Spot balance as canonical decimals ("400", "0.5"), available and frozen. */
export async function spotBalance(app: FastifyInstance, userId: number, currencyId: number) {
  const b = await balanceOf(app.ctx.db, { userId, type: 'spot', currencyId });
  const c = (v: string) => v.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return { available: c(b.available), frozen: c(b.frozen) };
}

export async function houseFees(app: FastifyInstance, currencyId: number) {
  const b = await balanceOf(app.ctx.db, { house: 'fees', currencyId });
  return b.available.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}

export async function request<T>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body: Record<string, string>,
  token?: string,
  lang = 'en',
): Promise<{ status: number; body: Envelope<T> }> {
  const headers: Record<string, string> = { lang };
  if (token) headers.authorization = token;
  const res = await app.inject({
    method,
    url: `/api/${path}${method === 'GET' ? `?${new URLSearchParams(body)}` : ''}`,
    headers: method === 'GET' ? headers : { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    ...(method !== 'GET' ? { payload: new URLSearchParams(body).toString() } : {}),
  });
  return { status: res.statusCode, body: res.json() as Envelope<T> };
}

export const place = (app: FastifyInstance, token: string, body: Record<string, string>, lang = 'en') =>
  request<SpotOrder>(app, 'POST', 'coin/trade', { symbol: 'btcusdt', ...body }, token, lang);

export const cancel = (app: FastifyInstance, token: string, id: string) =>
  request<SpotOrder>(app, 'PUT', 'coin/trade', { id }, token);

export const list = (app: FastifyInstance, token: string, q: Record<string, string> = {}) =>
  request<SpotOrderPage>(app, 'GET', 'coin/list', q, token);

export async function ledgerClean(h: Harness | FastifyInstance) {
  const app = 'app' in h ? h.app : h;
  return (await verifyLedger(app.ctx.db)).problems;
}
