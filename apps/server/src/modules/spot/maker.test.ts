import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { ensureMarketMaker, MarketMaker } from './maker.ts';
import { fund, ledgerClean, place, spotBalance, USDT } from './test-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('the house market maker (turned on by this test)', () => {
  it('is funded from the treasury once, quotes both sides around the index, trades with users and follows the index', async () => {
    const cfg = {
      ...h.config.marketMaker,
      enabled: true,
      levels: 3,
      spreadBps: 10,
      stepBps: 5,
      sizeQuote: '1000',
    };
    const markets = await h.app.market.markets();
    const id = await ensureMarketMaker(h.app.ctx.db, markets, cfg);
    expect(await ensureMarketMaker(h.app.ctx.db, markets, cfg)).toBe(id); // funded once
    const [row] = await h.app.ctx.db.query<{ is_system: boolean }>(
      'SELECT is_system FROM users WHERE id = $1',
      [id],
    );
    expect(row!.is_system).toBe(true);
    expect(await spotBalance(h.app, id, USDT)).toEqual({ available: cfg.fundQuote, frozen: '0' });

    // ticks in the past: the maker quotes around the latest tick at or before now
    const t0 = Date.now() - 60 * 60_000;
    const prices = await h.app.market.feed.tick(t0);
    const index = prices.get(1)!;
    const mm = new MarketMaker(id, h.app.spot, h.app.market, cfg, h.app.log);
    await mm.refresh();
    const depth = h.app.spot.depthOf(1);
    expect(depth.bids).toHaveLength(3);
    expect(depth.asks).toHaveLength(3);
    expect(Number(depth.bids[0]!.price)).toBeLessThan(Number(index));
    expect(Number(depth.asks[0]!.price)).toBeGreaterThan(Number(index));
    // best quotes 10 bps from the index, on the tick grid
    expect(Math.abs(Number(depth.asks[0]!.price) / Number(index) - 1.001)).toBeLessThan(0.0001);
    for (const m of markets) expect((await h.app.spot.openOrders(id, m.id)).length).toBe(6);

    // a user's market buy takes the best ask
    const u = await registerByEmail(h);
    await fund(h.app, u.user.id, USDT, '100');
    const r = await place(h.app, u.token, { side: 'buy', type: 'market', amount: '50' });
    expect(r.body.data.status).toBe('completed');
    expect(r.body.data.fills[0]!.price).toBe(depth.asks[0]!.price);

    // the index moves: the quotes move with it (and a taken quote is put back)
    let moved = prices;
    for (let k = 1; k < 50 && moved.get(1) === index; k++)
      moved = await h.app.market.feed.tick(t0 + k * 60_000);
    // a minute of BTC's walk moves it by many ticks: the index has moved
    expect(moved.get(1)).not.toBe(index);
    // what depth subscribers are sent during the requote: never a book without the maker's quotes
    const published: number[] = [];
    const publishDepth = h.app.market.publishDepth;
    h.app.market.publishDepth = (symbol) => {
      if (symbol === 'btcusdt') published.push(h.app.spot.depthOf(1).asks.length);
      publishDepth(symbol);
    };
    await mm.refresh().finally(() => {
      h.app.market.publishDepth = publishDepth;
    });
    expect(published.length).toBeGreaterThan(0);
    expect(published.every((n) => n === 3)).toBe(true);
    const after = h.app.spot.depthOf(1);
    expect(after.bids).toHaveLength(3);
    expect(after.asks).toHaveLength(3);
    expect(after).not.toEqual(depth);
    expect(Number(after.bids[0]!.price)).toBeLessThan(Number(moved.get(1)));
    expect(Number(after.asks[0]!.price)).toBeGreaterThan(Number(moved.get(1)));
    expect(await ledgerClean(h)).toEqual([]);
  });
});
