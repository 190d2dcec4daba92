import type { CandlePage, CurrencyInfo, Deal, MarketTicker } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { CANDLE_INTERVALS } from './candles.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const MIN = 60_000;
const quotations = (token?: string) =>
  h.call<MarketTicker[]>('GET', 'currency/quotation_new', undefined, token ? { token } : {});
const candles = (q: Record<string, string>, lang: 'en' | 'th' | 'zh' = 'en') =>
  h.call<CandlePage>('GET', 'currency/new_timeshar', q, { lang });
const db = () => h.app.ctx.db;

/** Empties one market's data, so a test can build it from scratch. */
async function resetMarket(id: number) {
  await db().query('DELETE FROM candles WHERE market_id = $1', [id]);
  await db().query('DELETE FROM index_ticks WHERE market_id = $1', [id]);
  await db().query('DELETE FROM trades WHERE market_id = $1', [id]);
  h.app.market.reload();
}

describe('markets as data', () => {
  it('lists ten markets with their rules, BTC/USDT and ETH/USDT first', async () => {
    const res = await quotations();
    expect(res.status).toBe(200);
    const list = res.body.data;
    expect(list.map((m) => m.name)).toEqual([
      'BTC/USDT',
      'ETH/USDT',
      'BNB/USDT',
      'SOL/USDT',
      'XRP/USDT',
      'DOGE/USDT',
      'ADA/USDT',
      'TRX/USDT',
      'LTC/USDT',
      'DOT/USDT',
    ]);
    expect(list[0]).toMatchObject({
      id: 1,
      symbol: 'btcusdt',
      base: 'BTC',
      quote: 'USDT',
      base_currency_id: 1,
      quote_currency_id: 3,
      tick_size: '0.01',
      lot_size: '0.00001',
      min_amount: '5',
      maker_fee: '0.001',
      taker_fee: '0.001',
      price_decimals: 2,
      amount_decimals: 5,
      favourite: false,
    });
    expect(list.find((m) => m.symbol === 'dogeusdt')).toMatchObject({ tick_size: '0.00001', lot_size: '1' });
  });

  it('every coin is a currency of the ledger', async () => {
    const currencies = (await h.call<CurrencyInfo[]>('GET', 'wallet/currencies')).body.data;
    const symbols = currencies.map((c) => c.symbol);
    for (const s of ['BTC', 'ETH', 'USDT', 'BNB', 'SOL', 'XRP', 'DOGE', 'ADA', 'TRX', 'LTC', 'DOT'])
      expect(symbols).toContain(s);
    expect(currencies.find((c) => c.symbol === 'TRX')).toMatchObject({
      id: 9,
      chains: ['TRX'],
      can_deposit: true,
    });
    expect(currencies.find((c) => c.symbol === 'SOL')).toMatchObject({
      id: 5,
      chains: [],
      can_deposit: false,
    });
    expect(symbols.at(-1)).toBe('Bank');
  });

  it('a fresh market without data has no price yet', async () => {
    await resetMarket(3);
    const bnb = (await quotations()).body.data.find((m) => m.symbol === 'bnbusdt')!;
    expect(bnb).toMatchObject({
      last: null,
      change_24h: null,
      high_24h: null,
      volume_24h: '0',
      amount_24h: '0',
    });
  });
});

describe('the index feed', () => {
  it('records a tick per market on the tick grid, with time and source', async () => {
    const at = Date.now();
    const prices = await h.app.market.feed.tick(at);
    expect(prices.size).toBe(10);
    const rows = await db().query<{
      market_id: number;
      price: string;
      source: string;
      on_grid: boolean;
      t: string;
    }>(
      `SELECT t.market_id, t.price::text, t.source, (t.price % m.tick_size = 0) AS on_grid,
              (extract(epoch FROM t.created_at) * 1000)::bigint::text AS t
         FROM index_ticks t JOIN markets m ON m.id = t.market_id WHERE t.created_at = $1`,
      [new Date(at).toISOString()],
    );
    expect(rows).toHaveLength(10);
    for (const r of rows) {
      expect(r).toMatchObject({ source: 'sim', on_grid: true, t: String(at) });
      expect(Number(r.price)).toBeGreaterThan(0);
      expect(prices.get(r.market_id)).toBe(r.price.replace(/\.?0+$/, ''));
    }
    const tick = await h.app.market.indexAt(1, at);
    expect(tick).toMatchObject({ price: prices.get(1), source: 'sim', time: at });
    expect(await h.app.market.indexAt(1, at - 86_400_000 * 365)).toBeNull();
  });

  it('builds candles of every interval from the ticks while a market has no trades', async () => {
    await resetMarket(2);
    const t0 = Date.parse('2030-01-07T10:00:10Z');
    const seen: string[] = [];
    for (let i = 0; i < 4; i++) seen.push((await h.app.market.feed.tick(t0 + i * 20_000)).get(2)!);
    for (const interval of CANDLE_INTERVALS) {
      const res = await candles({ symbol: 'ethusdt', interval, before: String(t0 + 86_400_000 * 40) });
      const list = res.body.data.list;
      const high = seen.reduce((a, b) => (Number(b) > Number(a) ? b : a));
      const low = seen.reduce((a, b) => (Number(b) < Number(a) ? b : a));
      const last = list.at(-1)!;
      expect(last).toMatchObject({ volume: '0', amount: '0', source: 'index' });
      if (interval !== '1min') expect(last).toMatchObject({ open: seen[0], close: seen[3], high, low });
    }
    // 10:00:10, :30, :50 in one minute, 10:01:10 in the next
    const minutes = (await candles({ symbol: 'ethusdt', interval: '1min', before: String(t0 + 3_600_000) }))
      .body.data.list;
    expect(minutes.map((c) => c.time)).toEqual([
      Date.parse('2030-01-07T10:00:00Z'),
      Date.parse('2030-01-07T10:01:00Z'),
    ]);
    expect(minutes[0]).toMatchObject({ open: seen[0], close: seen[2] });
    expect(minutes[1]).toMatchObject({ open: seen[3], close: seen[3] });
    await resetMarket(2);
  });
});

describe('GET currency/new_timeshar', () => {
  beforeAll(async () => {
    await resetMarket(4);
    // 10 minutes of ticks, one every 30 s, for SOL
    const t0 = Date.parse('2031-05-01T00:00:00Z');
    for (let i = 0; i < 20; i++) await h.app.market.feed.tick(t0 + i * 30_000);
  });

  it('pages back with limit and before, oldest first; the time-share line is the minutes', async () => {
    const all = (await candles({ symbol: 'solusdt', interval: '1min', before: '1999999999999' })).body.data;
    expect(all.symbol).toBe('solusdt');
    const times = all.list.map((c) => c.time).filter((t) => t >= Date.parse('2031-05-01T00:00:00Z'));
    expect(times).toEqual(Array.from({ length: 10 }, (_, i) => Date.parse('2031-05-01T00:00:00Z') + i * MIN));
    const page = (
      await candles({ symbol: 'SOL/USDT', interval: '1min', limit: '3', before: String(times[5]) })
    ).body.data;
    expect(page.list.map((c) => c.time)).toEqual(times.slice(2, 5));
    const line = (
      await candles({ symbol: 'sol_usdt', interval: 'timeshare', limit: '3', before: String(times[5]) })
    ).body.data;
    expect(line).toMatchObject({ interval: 'timeshare' });
    expect(line.list).toEqual(page.list);
    const fiveMin = (await candles({ symbol: 'solusdt', interval: '5min', before: '1999999999999' })).body
      .data.list;
    expect(fiveMin.filter((c) => c.time >= times[0]!)).toHaveLength(2);
  });

  it('answers a localized error for an unknown market or interval and bad paging', async () => {
    const unknown = await candles({ symbol: 'FOO/USDT', interval: '1min' });
    expect(unknown).toMatchObject({
      status: 404,
      body: { type: 'error', code: 1404, message: 'This market does not exist: FOO/USDT', field: 'symbol' },
    });
    expect((await candles({ symbol: 'foousdt' }, 'th')).body.message).toBe('ไม่มีคู่เทรดนี้: foousdt');
    const missing = await candles({ interval: '1min' });
    expect(missing).toMatchObject({
      status: 400,
      body: { message: 'Please choose a market', field: 'symbol' },
    });
    const badInterval = await candles({ symbol: 'btcusdt', interval: '7min' });
    expect(badInterval).toMatchObject({
      status: 400,
      body: { type: 'error', code: 1400, field: 'interval' },
    });
    expect(badInterval.body.message).toMatch(/^Unknown chart interval/);
    expect((await candles({ symbol: 'btcusdt', interval: '2h' }, 'zh')).body.message).toMatch(
      /^未知的K线周期/,
    );
    for (const limit of ['0', '1001', 'ten', '-1'])
      expect(await candles({ symbol: 'btcusdt', limit })).toMatchObject({
        status: 400,
        body: { message: 'The number of records must be between 1 and 1000', field: 'limit' },
      });
    expect(await candles({ symbol: 'btcusdt', before: 'yesterday' })).toMatchObject({
      status: 400,
      body: { field: 'before' },
    });
  });
});

describe('trades, candles from trades and the 24 h ticker', () => {
  it('recordTrade stores fills in the caller transaction; candles then follow trades, not the index', async () => {
    await resetMarket(10);
    const now = Date.now();
    const t = (minAgo: number) => now - minAgo * MIN;
    // the index first: DOT's candles follow it while it has no trades
    await h.app.market.feed.tick(t(25 * 60));
    const recorded = await db().tx((q) =>
      h.app.market.recordTrades(q, [
        {
          marketId: 10,
          price: '10',
          qty: '2',
          takerSide: 'buy',
          at: t(23 * 60),
          makerOrderId: 1,
          takerOrderId: 2,
        },
        { marketId: 10, price: '12.5', qty: '1.5', takerSide: 'sell', at: t(60) },
        { marketId: 10, price: '9.001', qty: '0.01', takerSide: 'sell', at: t(30) },
        { marketId: 10, price: '11', qty: '4', takerSide: 'buy', at: t(1) },
      ]),
    );
    await h.app.market.publish(recorded);
    expect(recorded.trades.map((x) => [x.symbol, x.price, x.qty, x.amount, x.takerSide])).toEqual([
      ['dotusdt', '10', '2', '20', 'buy'],
      ['dotusdt', '12.5', '1.5', '18.75', 'sell'],
      ['dotusdt', '9.001', '0.01', '0.09001', 'sell'],
      ['dotusdt', '11', '4', '44', 'buy'],
    ]);
    expect(recorded.trades[0]).toMatchObject({ makerOrderId: '1', takerOrderId: '2', time: t(23 * 60) });

    // a tick now no longer moves DOT's candles
    const tick = (await h.app.market.feed.tick(now)).get(10)!;
    const minute = (await candles({ symbol: 'dotusdt', interval: '1min', limit: '1' })).body.data.list[0]!;
    expect(minute).toMatchObject({
      open: '11',
      high: '11',
      low: '11',
      close: '11',
      volume: '4',
      source: 'trade',
    });
    expect(tick).not.toBe('11');

    const dot = (await quotations()).body.data.find((m) => m.symbol === 'dotusdt')!;
    // the first trade (23 h ago) opens the window; the index tick 25 h ago is the close before it
    expect(dot).toMatchObject({
      last: '11',
      index_price: tick,
      high_24h: '12.5',
      low_24h: '9.001',
      volume_24h: '7.51',
      amount_24h: '82.84001',
    });
    const before = (await h.app.market.indexAt(10, t(25 * 60)))!.price;
    expect(dot.open_24h).toBe(before);

    const deal = (await h.call<Deal>('GET', 'currency/deal', { symbol: 'DOT/USDT', limit: '2' })).body.data;
    expect(deal.symbol).toBe('dotusdt');
    expect(deal.trades.map((x) => [x.price, x.qty, x.side])).toEqual([
      ['11', '4', 'buy'],
      ['9.001', '0.01', 'sell'],
    ]);
    expect(deal.depth).toEqual({ bids: [], asks: [] });
  });

  it('24 h change compares the last price with the price 24 hours ago', async () => {
    await resetMarket(9);
    const now = Date.now();
    const recorded = await db().tx(async (q) => [
      await h.app.market.recordTrade(q, {
        marketId: 9,
        price: '80',
        qty: '1',
        takerSide: 'buy',
        at: now - 1500 * MIN,
      }),
      await h.app.market.recordTrade(q, {
        marketId: 9,
        price: '82',
        qty: '1',
        takerSide: 'buy',
        at: now - 1000 * MIN,
      }),
      await h.app.market.recordTrade(q, {
        marketId: 9,
        price: '78.99',
        qty: '1',
        takerSide: 'sell',
        at: now - 2 * MIN,
      }),
    ]);
    for (const r of recorded) await h.app.market.publish(r);
    const ltc = (await quotations()).body.data.find((m) => m.symbol === 'ltcusdt')!;
    // 78.99 / 80 - 1 = -1.2625 % → truncated
    expect(ltc).toMatchObject({
      open_24h: '80',
      last: '78.99',
      high_24h: '82',
      low_24h: '78.99',
      change_24h: '-1.26',
    });
    expect(ltc.volume_24h).toBe('2');
  });

  it('refuses fills off the grid (a programming error of the caller) and keeps nothing', async () => {
    await expect(
      db().tx((q) =>
        h.app.market.recordTrade(q, { marketId: 1, price: '67000.005', qty: '1', takerSide: 'buy' }),
      ),
    ).rejects.toThrow(/off the grid/);
    await expect(
      db().tx((q) =>
        h.app.market.recordTrade(q, { marketId: 1, price: '67000', qty: '0.000001', takerSide: 'buy' }),
      ),
    ).rejects.toThrow(/off the grid/);
    const [n] = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM trades WHERE market_id = 1');
    expect(n!.n).toBe(0);
  });

  it('depth comes from the provider the order service sets', async () => {
    h.app.market.setDepthProvider((m, levels) => ({
      bids: [{ price: m.tickSize, qty: String(levels) }],
      asks: [],
    }));
    const deal = (await h.call<Deal>('GET', 'currency/deal', { symbol: 'btcusdt' })).body.data;
    expect(deal.depth).toEqual({ bids: [{ price: '0.01', qty: '20' }], asks: [] });
    h.app.market.setDepthProvider(null);
    const unknown = await h.call('GET', 'currency/deal', { symbol: 'nope' });
    expect(unknown).toMatchObject({ status: 404, body: { message: 'This market does not exist: nope' } });
  });
});

describe('favourite markets (currency/user_currency_list)', () => {
  it('is empty for visitors, and adding one needs a login', async () => {
    expect((await h.call('GET', 'currency/user_currency_list')).body).toMatchObject({ type: 'ok', data: [] });
    const res = await h.call('POST', 'currency/user_currency_add', { symbol: 'btcusdt' });
    expect(res).toMatchObject({ status: 401, body: { type: '999', code: 999 } });
  });

  it('adds, lists with tickers and removes, each idempotent', async () => {
    const u = await registerByEmail(h);
    const opts = { token: u.token };
    const add = await h.call('POST', 'currency/user_currency_add', { symbol: 'ETH/USDT' }, opts);
    expect(add.body).toMatchObject({ type: 'ok', message: 'Added to favourites' });
    await h.call('POST', 'currency/user_currency_add', { symbol: 'ethusdt' }, opts);
    await h.call('POST', 'currency/user_currency_add', { symbol: 'btcusdt' }, opts);
    const list = (await h.call<MarketTicker[]>('GET', 'currency/user_currency_list', undefined, opts)).body
      .data;
    expect(list.map((m) => [m.symbol, m.favourite])).toEqual([
      ['btcusdt', true],
      ['ethusdt', true],
    ]);
    const all = (await quotations(u.token)).body.data;
    expect(all.filter((m) => m.favourite).map((m) => m.symbol)).toEqual(['btcusdt', 'ethusdt']);
    const removed = await h.call(
      'POST',
      'currency/user_currency_remove',
      { symbol: 'btcusdt' },
      { ...opts, lang: 'th' },
    );
    expect(removed.body.message).toBe('นำออกจากรายการโปรดแล้ว');
    await h.call('POST', 'currency/user_currency_remove', { symbol: 'btcusdt' }, opts);
    const after = (await h.call<MarketTicker[]>('GET', 'currency/user_currency_list', undefined, opts)).body
      .data;
    expect(after.map((m) => m.symbol)).toEqual(['ethusdt']);
    const unknown = await h.call('POST', 'currency/user_currency_add', { symbol: 'xyzusdt' }, opts);
    expect(unknown).toMatchObject({ status: 404, body: { field: 'symbol' } });
    const empty = await h.call('POST', 'currency/user_currency_add', {}, opts);
    expect(empty).toMatchObject({ status: 400, body: { message: 'Please choose a market' } });
  });
});

describe('OpenAPI', () => {
  it('documents the market paths with their schemas', async () => {
    const doc = (await h.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    };
    for (const p of ['quotation_new', 'new_timeshar', 'deal', 'user_currency_list'])
      expect(doc.paths[`/api/currency/${p}`]?.get).toBeDefined();
    expect(doc.paths['/api/currency/user_currency_add']?.post).toBeDefined();
    const params = doc.paths['/api/currency/new_timeshar']!.get!.parameters!.map((x) => x.name);
    expect(params).toEqual(expect.arrayContaining(['symbol', 'interval', 'limit', 'before']));
  });
});
