import type { AddressInfo } from 'node:net';
import { OptionEvents, type OptionOrder, type OptionTickMessage } from '@verdant/api';
import { type Socket as ClientSocket, io as connectTo } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../test/harness.ts';
import { optionBalance, optionTrader, submit } from './test-helpers.ts';

let h: Harness;
let url: string;
const clients: ClientSocket[] = [];
beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  // a short delivery time of this test's own, so the job's timer is seen at work
  await h.app.ctx.db.query(
    `INSERT INTO option_seconds (market_id, seconds, profit_ratio, fee_rate, min_amount, max_amount)
     VALUES (1, 5, 0.5, 0, 1, 100)`,
  );
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await h.close();
});

async function connect(token?: string) {
  const socket = connectTo(url, {
    path: '/socket.io',
    forceNew: true,
    reconnection: false,
    auth: token ? { token } : {},
  });
  clients.push(socket);
  const events: { event: string; payload: unknown }[] = [];
  socket.onAny((event: string, payload: unknown) => events.push({ event, payload }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, events };
}

async function until(what: string, pred: () => boolean | Promise<boolean>, ms = 15_000) {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the settlement job', () => {
  it('delivers on its own once the delivery tick is recorded, and tells the owner and the stream', async () => {
    const u = await optionTrader(h, '100');
    const other = await optionTrader(h, '0');
    const mine = await connect(u.token);
    const theirs = await connect(other.token);
    const watcher = await connect();
    const ack = await watcher.socket.emitWithAck('sub', ['option:btcusdt']);
    expect(ack.ok).toEqual(['option:btcusdt']);
    h.app.option.start();

    await h.app.market.feed.tick();
    const r = await submit(h, u.token, { seconds: '5', amount: '10' });
    expect(r.status).toBe(200);
    const order = r.body.data;
    await until('the purchase push', () =>
      mine.events.some(
        (e) => e.event === OptionEvents.order && (e.payload as OptionOrder).status === 'waiting',
      ),
    );
    // the live index reaches stream subscribers with each recorded tick
    await until('an index tick', () => watcher.events.some((e) => e.event === OptionEvents.tick));
    const t = watcher.events.find((e) => e.event === OptionEvents.tick)!.payload as OptionTickMessage;
    expect(t.symbol).toBe('btcusdt');

    // the feed records ticks by hand here: one once the delivery time has passed
    await until('the delivery time', () => Date.now() >= Date.parse(order.deliver_at), 10_000);
    await h.app.market.feed.tick();
    await until('the delivery push', () =>
      mine.events.some(
        (e) => e.event === OptionEvents.order && (e.payload as OptionOrder).status === 'delivered',
      ),
    );
    const delivered = mine.events
      .map((e) => e.payload as OptionOrder)
      .find((o) => o.id === order.id && o.status === 'delivered')!;
    expect(Date.parse(delivered.delivery!.time)).toBeGreaterThanOrEqual(Date.parse(order.deliver_at));
    const expected = { win: '105', loss: '90', flat: '100' }[delivered.result!];
    expect((await optionBalance(h.app, u.user.id)).available).toBe(expected);
    expect(theirs.events.filter((e) => e.event === OptionEvents.order)).toEqual([]);
  });
});
