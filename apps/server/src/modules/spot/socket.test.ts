import type { AddressInfo } from 'node:net';
import { type DepthMessage, MarketEvents, SpotEvents, type SpotOrder } from '@verdant/api';
import { type Socket as ClientSocket, io as connectTo } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { fund, place, USDT } from './test-helpers.ts';

let h: Harness;
let url: string;
const clients: ClientSocket[] = [];
beforeAll(async () => {
  h = await startHarness({ marketPublishMs: 20 });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
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

async function until(events: { event: string; payload: unknown }[], pred: () => boolean) {
  const end = Date.now() + 3000;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out; got ${JSON.stringify(events.map((e) => e.event))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('spot over the socket', () => {
  it("pushes the user's own order updates to that user only, and the book to depth subscribers", async () => {
    const a = await registerByEmail(h);
    const b = await registerByEmail(h);
    await fund(h.app, a.user.id, USDT, '100');
    const mine = await connect(a.token);
    const other = await connect(b.token);
    const watcher = await connect();
    await watcher.socket.emitWithAck(MarketEvents.sub, ['depth:btcusdt']);

    const r = await place(h.app, a.token, { side: 'buy', price: '1000', qty: '0.01' });
    expect(r.status).toBe(200);
    await until(mine.events, () => mine.events.some((e) => e.event === SpotEvents.order));
    const pushed = mine.events.find((e) => e.event === SpotEvents.order)!.payload as SpotOrder;
    expect(pushed).toMatchObject({ id: r.body.data.id, status: 'waiting', price: '1000', qty: '0.01' });
    await until(watcher.events, () =>
      watcher.events.some(
        (e) =>
          e.event === MarketEvents.depth && (e.payload as DepthMessage).bids.some((l) => l.price === '1000'),
      ),
    );
    expect(other.events.filter((e) => e.event === SpotEvents.order)).toEqual([]);
  });
});
