import type { AddressInfo } from 'node:net';
import { SpotEvents } from '@verdant/api';
import { type Socket as ClientSocket, io as connectTo } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fund, place, USDT } from '../modules/spot/test-helpers.ts';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';
import { checkSocketSessions } from './index.ts';

let h: Harness;
let url: string;
const clients: ClientSocket[] = [];
beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await h.close();
});

/**
 * A client like the app's: it reconnects by itself after a dropped connection, sending the
 * same token again.
 */
async function connect(token: string, to = url) {
  const socket = connectTo(to, {
    path: '/socket.io',
    forceNew: true,
    transports: ['websocket'],
    reconnectionDelay: 50,
    reconnectionDelayMax: 100,
    auth: { token },
  });
  clients.push(socket);
  const events: string[] = [];
  socket.onAny((event: string) => events.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return { socket, events };
}

const once = (socket: ClientSocket, event: string) =>
  new Promise<unknown>((resolve) => socket.once(event, (arg: unknown) => resolve(arg)));

/** Resolves once every given client has had a broadcast sent now: all sent before it has arrived. */
async function flush(...sockets: ClientSocket[]) {
  const got = sockets.map((s) => once(s, 'test:flush'));
  h.app.io.emit('test:flush');
  await Promise.all(got);
}

async function serverUser(client: ClientSocket): Promise<number | undefined> {
  const s = (await h.app.io.fetchSockets()).find((x) => x.id === client.id);
  return s?.data.userId as number | undefined;
}

describe('a socket whose session ends', () => {
  it('is disconnected at logout, comes back anonymous and gets no more private order events', async () => {
    const u = await registerByEmail(h);
    const other = await h.call<{ token: string }>('POST', 'user/login', {
      account: u.email,
      password: u.password,
    });
    await fund(h.app, u.user.id, USDT, '100');
    const phone = await connect(u.token);
    const laptop = await connect(other.body.data.token);
    expect(await serverUser(phone.socket)).toBe(u.user.id);

    const dropped = once(phone.socket, 'disconnect');
    const back = new Promise<void>((resolve) => phone.socket.io.once('reconnect', () => resolve()));
    expect((await h.call('POST', 'user/logout', {}, { token: u.token })).body.type).toBe('ok');
    await dropped;
    await back;
    // the same (now revoked) token was sent again: anonymous
    expect(await serverUser(phone.socket)).toBeUndefined();

    const order = await place(h.app, other.body.data.token, { side: 'buy', price: '1000', qty: '0.01' });
    expect(order.status).toBe(200);
    await flush(phone.socket, laptop.socket);
    expect(laptop.events).toContain(SpotEvents.order);
    expect(phone.events).not.toContain(SpotEvents.order);
  });

  it("is disconnected when a password change ends all of the user's sessions", async () => {
    const u = await registerByEmail(h);
    const bystander = await registerByEmail(h);
    const other = await connect(u.token);
    const theirs = await connect(bystander.token);
    const dropped = once(other.socket, 'disconnect');
    const changed = await h.call(
      'POST',
      'user/e_pwd',
      { old_password: u.password, password: 'newpass1', re_password: 'newpass1' },
      { token: u.token },
    );
    expect(changed.body.type).toBe('ok');
    await dropped;
    // another user's socket is not touched
    await flush(theirs.socket);
    expect(await serverUser(theirs.socket)).toBe(bystander.user.id);
  });

  it('is disconnected once its session has expired (checked every sessionSweepMs)', async () => {
    const u = await registerByEmail(h);
    const bystander = await registerByEmail(h);
    const mine = await connect(u.token);
    const theirs = await connect(bystander.token);
    await h.app.ctx.db.query(
      "UPDATE sessions SET created_at = now() - interval '400 days' WHERE user_id = $1",
      [u.user.id],
    );
    const dropped = once(mine.socket, 'disconnect');
    await checkSocketSessions(h.app);
    await dropped;
    await flush(theirs.socket);
    expect(theirs.socket.connected).toBe(true);
    expect(await serverUser(theirs.socket)).toBe(bystander.user.id);
  });
});

describe('the periodic session check', () => {
  it('runs by itself every sessionSweepMs and disconnects a socket whose session expired', async () => {
    const quick = await startHarness({ sessionSweepMs: 50 });
    try {
      await quick.app.listen({ port: 0, host: '127.0.0.1' });
      const to = `http://127.0.0.1:${(quick.app.server.address() as AddressInfo).port}`;
      const u = await registerByEmail(quick);
      const mine = await connect(u.token, to);
      const dropped = once(mine.socket, 'disconnect');
      await quick.app.ctx.db.query(
        "UPDATE sessions SET last_seen_at = now() - interval '8 days' WHERE user_id = $1",
        [u.user.id],
      );
      await dropped;
    } finally {
      await quick.close();
    }
  });
});
