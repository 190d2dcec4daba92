import type { MarketTicker } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { fund, ledgerClean, place, spotBalance, USDT } from '../spot/test-helpers.ts';

/**
 * The `launchpad-launch` job lists a coin at its launch time while the server runs, and the new
 * market takes and matches orders at once, without a restart (docs/decisions.md, "New-coin
 * subscription"). The cluster's side is in cluster/launch.test.ts.
 */
let h: Harness;
let stopJob: () => Promise<void>;
beforeAll(async () => {
  h = await startHarness();
  // the job as app.ts runs it once the server listens (the harness opens no port)
  stopJob = await h.app.launchpad.runLaunches();
});
afterAll(async () => {
  await stopJob?.();
  await h.close();
});

const until = async (check: () => Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('a coin launched while the server runs', () => {
  it('is listed at its launch time by the job and its market matches orders without a restart', async () => {
    const db = h.app.ctx.db;
    await db.query(
      `INSERT INTO currencies (id, symbol, name, decimals, chains, is_fiat, min_deposit, min_withdraw, withdraw_fee, can_deposit, can_withdraw, sort)
       VALUES (71, 'RUNC', 'Runtime Coin', 6, '{}', false, 0, 0, 0, false, false, 71)`,
    );
    // launches a moment after the job has started and found nothing due
    await db.query(
      `INSERT INTO launchpad_projects (id, name, intro, coin_currency_id, pay_currency_id, issue_price, total_supply,
                                       user_min, user_max, starts_at, ends_at, launch_at, lockup_days, tick_size, lot_size)
       VALUES (71, '{"en":"Runtime"}', '{"en":"Runtime"}', 71, 3, 0.5, 100000, 10, 1000,
               now() - interval '2 days', now() - interval '1 day', now() + interval '1 second', 0, 0.001, 0.1)`,
    );
    const seller = await registerByEmail(h);
    const buyer = await registerByEmail(h);
    await fund(h.app, seller.user.id, 71, '100');
    await fund(h.app, buyer.user.id, USDT, '100');
    // not yet launched: the market is unknown
    const early = await place(h.app, seller.token, {
      symbol: 'runcusdt',
      side: 'sell',
      price: '0.5',
      qty: '20',
    });
    expect(early.status).toBe(404);

    await until(async () => (await h.app.market.markets()).some((m) => m.symbol === 'runcusdt'));
    const [row] = await db.query<{ market_id: number | null }>(
      'SELECT market_id FROM launchpad_projects WHERE id = 71',
    );
    expect(row!.market_id).not.toBeNull();

    // listed among the tickers, then traded on its own book
    const quotes = await h.call<MarketTicker[]>('GET', 'currency/quotation_new');
    expect(quotes.body.data.some((t) => t.symbol === 'runcusdt')).toBe(true);
    const sell = await place(h.app, seller.token, {
      symbol: 'runcusdt',
      side: 'sell',
      price: '0.5',
      qty: '20',
    });
    expect(sell.status, JSON.stringify(sell.body)).toBe(200);
    expect(sell.body.data.status).toBe('waiting');
    const buy = await place(h.app, buyer.token, { symbol: 'runcusdt', side: 'buy', price: '0.5', qty: '20' });
    expect(buy.status, JSON.stringify(buy.body)).toBe(200);
    expect(buy.body.data).toMatchObject({ status: 'completed', filled_qty: '20' });
    // the buyer paid 10 USDT and its fee, the seller got the coins' price less its fee
    expect(await spotBalance(h.app, buyer.user.id, 71)).toEqual({ available: '19.98', frozen: '0' });
    expect(await spotBalance(h.app, seller.user.id, USDT)).toEqual({ available: '9.99', frozen: '0' });
    const after = await h.call<MarketTicker[]>('GET', 'currency/quotation_new');
    expect(after.body.data.find((t) => t.symbol === 'runcusdt')?.last).toBe('0.5');
    expect(await ledgerClean(h)).toEqual([]);
  });
});
