import type { PublicTrade, SpotOrderPage } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { seedTraders } from './load.ts';
import { list, place, request } from './test-helpers.ts';

// A database of its own: order and trade ids start at 1 here, so a dozen of each crosses 9 → 10.
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const numbers = (ids: string[]) => ids.map(Number);
const descending = (ids: number[]) => [...ids].sort((a, b) => b - a);

describe('lists are ordered by number, not by the text of the id', () => {
  it('coin/list pages newest first across 9 → 10; currency/deal shows the newest trades; fills in trade order', async () => {
    const [seller, buyer] = await h.app.ctx.db.tx((q) => seedTraders(q, 2, { usdt: '100000', btc: '1' }));
    const ask = await place(h.app, seller!.token, { side: 'sell', price: '50000', qty: '0.012' });
    expect(ask.status).toBe(200);
    const buys: string[] = [];
    for (let k = 0; k < 12; k++) {
      const r = await place(h.app, buyer!.token, { side: 'buy', price: '50000', qty: '0.001' });
      expect(r.body.data.status).toBe('completed');
      buys.push(r.body.data.id);
    }
    const ids = numbers([ask.body.data.id, ...buys]);
    expect(Math.min(...ids)).toBeLessThan(10);
    expect(Math.max(...ids)).toBeGreaterThanOrEqual(10);

    // the buyer's 12 orders, 5 a page: each page newest first, and the pages continue each other
    const pages: number[] = [];
    for (const page of ['1', '2', '3']) {
      const r = await list(h.app, buyer!.token, { limit: '5', page });
      expect(r.body.data.total).toBe(12);
      pages.push(...numbers(r.body.data.list.map((o) => o.id)));
    }
    expect(pages).toEqual(descending(numbers(buys)));

    // the trades of the market, newest first: the last five made
    const deal = await request<{ trades: PublicTrade[] }>(h.app, 'GET', 'currency/deal', {
      symbol: 'btcusdt',
      limit: '5',
    });
    const trades = numbers(deal.body.data.trades.map((t) => t.id));
    const [all] = await h.app.ctx.db.query<{ ids: string[] }>(
      'SELECT array_agg(id::text ORDER BY id DESC) AS ids FROM trades',
    );
    expect(all!.ids.length).toBe(12);
    expect(trades).toEqual(numbers(all!.ids).slice(0, 5));

    // the seller's order: its 12 fills in the order they happened
    const sold = await request<SpotOrderPage>(h.app, 'GET', 'coin/list', {}, seller!.token);
    const fills = numbers(sold.body.data.list[0]!.fills.map((f) => f.id));
    expect(fills).toEqual(numbers(all!.ids).reverse());

    // times are ISO text, as in every other record of the API: the list and the answer agree
    const order = sold.body.data.list[0]!;
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    expect(order.created_at).toMatch(iso);
    expect(order.created_at).toBe(ask.body.data.created_at);
    expect(Date.parse(order.updated_at)).toBeGreaterThan(Date.parse(order.created_at) - 1);
    for (const f of order.fills) expect(f.time).toMatch(iso);
    expect(order.fills.at(-1)!.time).toBe(order.updated_at);
  });
});
