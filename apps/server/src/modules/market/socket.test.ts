import type { AddressInfo } from 'node:net';
import {
  type DepthMessage,
  type KlineMessage,
  MarketEvents,
  type MarketTicker,
  type SubscribeAck,
  type TradesMessage,
} from '@verdant/api';
import { type Socket as ClientSocket, io as connectTo } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';

let h: Harness;
let url: string;
const clients: ClientSocket[] = [];

beforeAll(async () => {
  h = await startHarness({ marketPublishMs: 20 });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});
afterAll(() => h.close());

interface Received {
  socket: ClientSocket;
  events: { event: string; payload: unknown }[];
}

async function connect(transports?: ('websocket' | 'polling')[]): Promise<Received> {
  const socket = connectTo(url, {
    path: '/socket.io',
    forceNew: true,
    reconnection: false,
    ...(transports ? { transports } : {}),
  });
  clients.push(socket);
  const events: Received['events'] = [];
  socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, events };
}

const sub = (c: Received, streams: string[]) =>
  c.socket.emitWithAck(MarketEvents.sub, streams) as Promise<SubscribeAck>;
const unsub = (c: Received, streams: string[]) =>
  c.socket.emitWithAck(MarketEvents.unsub, streams) as Promise<SubscribeAck>;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `pred` holds for the events received, or fails after 3 s. */
async function until(c: Received, pred: (e: Received['events']) => boolean) {
  const end = Date.now() + 3000;
  while (!pred(c.events)) {
    if (Date.now() > end) throw new Error(`timed out; got ${JSON.stringify(c.events.map((e) => e.event))}`);
    await sleep(10);
  }
}
const of = <T>(c: Received, event: string) =>
  c.events.filter((e) => e.event === event).map((e) => e.payload as T);

describe('market streams over Socket.IO', () => {
  it('accepts known streams, refuses unknown ones and private rooms', async () => {
    const c = await connect();
    const ack = await sub(c, [
      'ticker:btcusdt',
      'kline:btcusdt:1min',
      'kline:btcusdt:timeshare',
      'trades:btcusdt',
      'depth:btcusdt',
      'tickers',
      'kline:btcusdt:7min',
      'user:1',
      'nonsense',
    ]);
    expect(ack.ok).toHaveLength(6);
    expect(ack.rejected).toEqual(['kline:btcusdt:7min', 'user:1', 'nonsense']);
    const sockets = await h.app.io.fetchSockets();
    const rooms = [...sockets.find((s) => s.id === c.socket.id)!.rooms];
    expect(rooms).not.toContain('user:1');
    expect(rooms).toContain('kline:btcusdt:1min');
  });

  it('a client gets ticker and candle updates for the market it joined, and not for others', async () => {
    const btc = await connect();
    const eth = await connect();
    await sub(btc, ['ticker:btcusdt', 'kline:btcusdt:1min', 'kline:btcusdt:1day']);
    await sub(eth, ['ticker:ethusdt', 'kline:ethusdt:5min']);
    // the subscription snapshot of the ticker
    await until(btc, (e) => e.some((x) => x.event === MarketEvents.ticker));
    btc.events.length = 0;
    eth.events.length = 0;

    const at = Date.now();
    const prices = await h.app.market.feed.tick(at);
    await until(
      btc,
      (e) =>
        e.filter((x) => x.event === MarketEvents.kline).length >= 2 && e.some((x) => x.event === 'ticker'),
    );
    await until(
      eth,
      (e) => e.some((x) => x.event === MarketEvents.kline) && e.some((x) => x.event === 'ticker'),
    );
    await sleep(100);

    const tickers = of<MarketTicker>(btc, MarketEvents.ticker);
    expect(tickers.every((t) => t.symbol === 'btcusdt')).toBe(true);
    expect(tickers.at(-1)).toMatchObject({ last: prices.get(1), index_price: prices.get(1) });
    const klines = of<KlineMessage>(btc, MarketEvents.kline);
    expect(klines.every((k) => k.symbol === 'btcusdt')).toBe(true);
    expect(new Set(klines.map((k) => k.interval))).toEqual(new Set(['1min', '1day']));
    const minute = klines.find((k) => k.interval === '1min')!.list.at(-1)!;
    expect(minute).toMatchObject({
      time: Math.floor(at / 60_000) * 60_000,
      close: prices.get(1),
      source: 'index',
    });

    expect(of<MarketTicker>(eth, MarketEvents.ticker).every((t) => t.symbol === 'ethusdt')).toBe(true);
    const ethK = of<KlineMessage>(eth, MarketEvents.kline);
    expect(ethK.every((k) => k.symbol === 'ethusdt' && k.interval === '5min')).toBe(true);
    expect(ethK.at(-1)!.list.at(-1)!.close).toBe(prices.get(2));
  });

  it('coalesces: updates within the publish interval make one message per stream', async () => {
    const c = await connect();
    await sub(c, ['kline:solusdt:1day']);
    const candle = {
      time: 0,
      open: '1',
      high: '1',
      low: '1',
      close: '1',
      volume: '0',
      amount: '0',
      source: 'index' as const,
    };
    for (let i = 1; i <= 5; i++)
      h.app.market.publisher.kline('solusdt', '1day', { ...candle, close: String(i) });
    h.app.market.publisher.kline('solusdt', '1day', { ...candle, time: 86_400_000, close: '6' });
    await until(c, (e) => e.some((x) => x.event === MarketEvents.kline));
    await sleep(80);
    const msgs = of<KlineMessage>(c, MarketEvents.kline);
    expect(msgs).toHaveLength(1);
    // the last state of each candle that changed, oldest first
    expect(msgs[0]!.list.map((x) => [x.time, x.close])).toEqual([
      [0, '5'],
      [86_400_000, '6'],
    ]);
  });

  it('trades and depth streams carry fills and the book; unsub stops them', async () => {
    const c = await connect();
    await sub(c, ['trades:trxusdt', 'depth:trxusdt', 'kline:trxusdt:timeshare']);
    await until(c, (e) => e.some((x) => x.event === MarketEvents.depth));
    expect(of<DepthMessage>(c, MarketEvents.depth)[0]).toEqual({ symbol: 'trxusdt', bids: [], asks: [] });
    const recorded = await h.app.ctx.db.tx((q) =>
      h.app.market.recordTrade(q, { marketId: 8, price: '0.12345', qty: '100', takerSide: 'sell' }),
    );
    await h.app.market.publish(recorded);
    h.app.market.setDepthProvider(() => ({ bids: [{ price: '0.12344', qty: '50' }], asks: [] }));
    h.app.market.publishDepth('trxusdt');
    await until(
      c,
      (e) =>
        e.some((x) => x.event === MarketEvents.trades) && e.filter((x) => x.event === 'depth').length >= 2,
    );
    const trades = of<TradesMessage>(c, MarketEvents.trades)[0]!;
    expect(trades).toMatchObject({
      symbol: 'trxusdt',
      list: [{ price: '0.12345', qty: '100', side: 'sell' }],
    });
    expect(of<DepthMessage>(c, MarketEvents.depth).at(-1)!.bids).toEqual([{ price: '0.12344', qty: '50' }]);
    await until(c, (e) => e.some((x) => x.event === MarketEvents.kline));
    expect(of<KlineMessage>(c, MarketEvents.kline)[0]).toMatchObject({
      symbol: 'trxusdt',
      interval: 'timeshare',
    });
    h.app.market.setDepthProvider(null);

    expect((await unsub(c, ['trades:trxusdt'])).ok).toEqual(['trades:trxusdt']);
    c.events.length = 0;
    const again = await h.app.ctx.db.tx((q) =>
      h.app.market.recordTrade(q, { marketId: 8, price: '0.12346', qty: '1', takerSide: 'buy' }),
    );
    await h.app.market.publish(again);
    await sleep(120);
    expect(of(c, MarketEvents.trades)).toHaveLength(0);
  });

  it('works over long-polling when websockets are blocked', async () => {
    const c = await connect(['polling']);
    expect(c.socket.io.engine.transport.name).toBe('polling');
    await sub(c, ['tickers', 'ticker:dogeusdt']);
    await until(c, (e) => e.some((x) => x.event === MarketEvents.tickers));
    c.events.length = 0;
    const prices = await h.app.market.feed.tick(Date.now());
    await until(c, (e) => e.some((x) => x.event === MarketEvents.ticker));
    const t = of<MarketTicker>(c, MarketEvents.ticker).at(-1)!;
    expect(t).toMatchObject({ symbol: 'dogeusdt', last: prices.get(6) });
    await until(c, (e) => e.some((x) => x.event === MarketEvents.tickers));
    expect(of<MarketTicker[]>(c, MarketEvents.tickers).at(-1)).toHaveLength(10);
    // let the last long-poll finish before closing, so the server does not wait for it
    c.socket.disconnect();
    await sleep(50);
  });
});
