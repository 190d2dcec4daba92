import type { AddressInfo } from 'node:net';
import {
  ContractEvents,
  type ContractPosition,
  ContractStreams,
  type ContractTick,
  MarketEvents,
} from '@verdant/api';
import { type Socket as ClientSocket, io as connectTo } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../ledger/ledger.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';

let h: Harness;
let url: string;
const clients: ClientSocket[] = [];
let clock = Date.now() - 600_000;

beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await h.close();
});

async function tick(price: string) {
  clock += 1000;
  await h.app.ctx.db.query(
    `INSERT INTO index_ticks (market_id, price, source, created_at) VALUES (1, $1, 'test', $2)`,
    [price, new Date(clock).toISOString()],
  );
  await h.app.contract.advanceAll();
}

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
  const end = Date.now() + 5000;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out; got ${JSON.stringify(events.map((e) => e.event))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('contracts over the socket', () => {
  it("streams the index ticks to subscribers and a user's position changes to that user only", async () => {
    await tick('60000');
    const a = await registerByEmail(h);
    const b = await registerByEmail(h);
    await h.app.ctx.db.tx((q) =>
      post(q, {
        reason: 'deposit',
        legs: [
          { account: { userId: a.user.id, type: 'contract', currencyId: 3 }, available: '500' },
          { account: { house: 'deposits', currencyId: 3 }, available: '-500' },
        ],
      }),
    );
    const mine = await connect(a.token);
    const other = await connect(b.token);
    const ack = await mine.socket.emitWithAck(MarketEvents.sub, [ContractStreams.tick('btcusdt')]);
    expect(ack).toEqual({ ok: ['contract:btcusdt'], rejected: [] });
    // the snapshot: the latest tick
    await until(mine.events, () => mine.events.some((e) => e.event === ContractEvents.tick));

    const opened = await h.call<ContractPosition>(
      'POST',
      'lever/submit',
      {
        symbol: 'btcusdt',
        direction: 'long',
        lots: '1',
        multiple: '10',
        take_profit: '60100',
        stop_loss: '59000',
      },
      { token: a.token },
    );
    expect(opened.body.type).toBe('ok');
    const positions = () =>
      mine.events
        .filter((e) => e.event === ContractEvents.position)
        .map((e) => e.payload as ContractPosition);
    await until(mine.events, () => positions().some((p) => p.status === 'holding'));

    await tick('60050');
    await until(mine.events, () =>
      mine.events.some(
        (e) => e.event === ContractEvents.tick && (e.payload as ContractTick).price === '60050',
      ),
    );
    await tick('60100');
    await until(mine.events, () => positions().some((p) => p.status === 'closed'));
    expect(positions().find((p) => p.status === 'closed')).toMatchObject({
      id: opened.body.data.id,
      close_reason: 'take_profit',
      pnl: '1',
    });
    expect(other.events.filter((e) => e.event === ContractEvents.position)).toEqual([]);
  });
});
