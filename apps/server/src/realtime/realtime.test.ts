import type { AddressInfo } from 'node:net';
import { type Socket as ClientSocket, io as connectTo } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';
import { emitTogether, userRoom } from './index.ts';

let h: Harness;
let url: string;
const clients: ClientSocket[] = [];

beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});
afterAll(() => h.close());

interface Connected {
  socket: ClientSocket;
  /** Names of every event this client has received, in order. */
  events: string[];
}

/** A Socket.IO client, connected (or the reason it could not connect). */
function connect(opts: {
  token?: string;
  lang?: string;
  transports?: ('websocket' | 'polling')[];
}): Promise<Connected> {
  const socket = connectTo(url, {
    path: '/socket.io',
    forceNew: true,
    reconnection: false,
    ...(opts.lang ? { query: { lang: opts.lang } } : {}),
    ...(opts.token ? { auth: { token: opts.token } } : {}),
    ...(opts.transports ? { transports: opts.transports } : {}),
  });
  clients.push(socket);
  const events: string[] = [];
  socket.onAny((event: string) => events.push(event));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve({ socket, events }));
    socket.once('connect_error', reject);
  });
}

const next = <T>(socket: ClientSocket, event: string) =>
  new Promise<T>((resolve) => socket.once(event, (payload: T) => resolve(payload)));

/** How the server sees a client: its language, user and rooms. */
async function serverView(client: ClientSocket) {
  const sockets = await h.app.io.fetchSockets();
  const s = sockets.find((x) => x.id === client.id);
  if (!s) throw new Error(`server does not know socket ${client.id}`);
  return { lang: s.data.lang as string, userId: s.data.userId as number | undefined, rooms: [...s.rooms] };
}

/**
 * Emits `event` to one user's room, then a broadcast to everyone. Events reach each socket in
 * the order they were sent, so once a client has the broadcast it has had everything meant for it.
 */
async function emitToUser(userId: number, event: string, payload: unknown, watchers: ClientSocket[]) {
  const settled = watchers.map((w) => next(w, 'test:flush'));
  h.app.io.to(userRoom(userId)).emit(event, payload);
  h.app.io.emit('test:flush');
  await Promise.all(settled);
}

describe('Socket.IO on the API port', () => {
  it('puts a logged-in client in its user room; private events reach it and nobody else', async () => {
    const u = await registerByEmail(h);
    const someoneElse = await registerByEmail(h);
    const mine = await connect({ token: u.token, lang: 'en', transports: ['websocket'] });
    const theirs = await connect({ token: someoneElse.token, lang: 'en' });
    const anonymous = await connect({ lang: 'en' });
    expect(mine.socket.io.engine.transport.name).toBe('websocket');

    expect(await serverView(mine.socket)).toMatchObject({ lang: 'en', userId: u.user.id });
    expect((await serverView(mine.socket)).rooms).toContain(userRoom(u.user.id));
    expect((await serverView(anonymous.socket)).userId).toBeUndefined();

    const received = next<{ balance: string }>(mine.socket, 'test');
    await emitToUser(u.user.id, 'test', { balance: '12.5' }, [mine.socket, theirs.socket, anonymous.socket]);
    expect(await received).toEqual({ balance: '12.5' });
    expect(mine.events).toEqual(['test', 'test:flush']);
    expect(theirs.events).toEqual(['test:flush']);
    expect(anonymous.events).toEqual(['test:flush']);
  });

  it('connects over HTTP long-polling alone (the fallback) and still gets private events', async () => {
    const u = await registerByEmail(h);
    const polling = await connect({ token: u.token, lang: 'en', transports: ['polling'] });
    expect(polling.socket.io.engine.transport.name).toBe('polling');
    expect((await serverView(polling.socket)).rooms).toContain(userRoom(u.user.id));

    const received = next<{ id: number }>(polling.socket, 'test');
    await emitToUser(u.user.id, 'test', { id: 7 }, [polling.socket]);
    expect(await received).toEqual({ id: 7 });
  });

  it('treats a bad or ended session as anonymous, and speaks Thai unless told otherwise', async () => {
    const badToken = await connect({ token: 'x'.repeat(43) });
    expect(await serverView(badToken.socket)).toMatchObject({ lang: 'th', userId: undefined });

    const u = await registerByEmail(h);
    await h.call('POST', 'user/logout', {}, { token: u.token });
    const ended = await connect({ token: u.token, lang: 'xx' });
    const view = await serverView(ended.socket);
    expect(view).toMatchObject({ lang: 'th', userId: undefined });
    expect(view.rooms).not.toContain(userRoom(u.user.id));
  });
});

describe('emitTogether (the market streams send their flushes with it)', () => {
  const burst = ['m:1', 'm:2', 'm:3', 'm:4', 'm:5'];
  /** Waits until the client has every event of the burst. */
  const received = (c: Connected) =>
    new Promise<void>((resolve) => {
      const check = () => (burst.every((e) => c.events.includes(e)) ? resolve() : setTimeout(check, 5));
      check();
    });

  it('delivers a burst to every client, in order, over websocket and long-polling', async () => {
    const ws = await connect({ lang: 'en', transports: ['websocket'] });
    const polling = await connect({ lang: 'en', transports: ['polling'] });
    emitTogether(h.app.io, () => {
      for (const e of burst) h.app.io.emit(e, { e });
    });
    await Promise.all([received(ws), received(polling)]);
    expect(ws.events).toEqual(burst);
    expect(polling.events).toEqual(burst);

    // and the connections carry on as before afterwards
    const after = next<number>(polling.socket, 'later');
    h.app.io.emit('later', 1);
    expect(await after).toBe(1);
  });

  it("puts a websocket client's share of a burst in one socket write, where plain emits take one each", async () => {
    const c = await connect({ lang: 'en', transports: ['websocket'] });
    const engine = h.app.io.engine as unknown as {
      clients: Record<
        string,
        { transport: { socket: { _socket: Record<string, (...a: unknown[]) => unknown> } } }
      >;
    };
    const tcp = engine.clients[c.socket.io.engine.id]!.transport.socket._socket;
    let writes = 0;
    for (const method of ['_write', '_writev']) {
      const original = tcp[method]!;
      tcp[method] = function (this: unknown, ...args: unknown[]) {
        writes++;
        return original.apply(this, args);
      };
    }

    for (const e of burst) h.app.io.emit(e, { e });
    await received(c);
    expect(writes).toBe(burst.length);

    c.events.length = 0;
    writes = 0;
    emitTogether(h.app.io, () => {
      for (const e of burst) h.app.io.emit(e, { e });
    });
    await received(c);
    expect(c.events).toEqual(burst);
    expect(writes).toBe(1);
  });
});
