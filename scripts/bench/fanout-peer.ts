/**
 * The bare Socket.IO peer of the fan-out benchmark (a child process started by fanout.ts): a
 * plain node:http server with Socket.IO configured as Verdant's (same path, websocket, no
 * database, no Fastify), which answers `sub` by joining the rooms named, and every `tickMs`
 * broadcasts to each room the payload it was given, as often as the rate it was given for it
 * (messages per second per subscriber, spread over the ticks like Verdant's coalesced flushes).
 * Trades get the send time as their `time`, so the client can measure the lag of the transport.
 */
import http from 'node:http';
import { Server } from 'socket.io';

export interface PeerStream {
  room: string;
  event: string;
  payload: unknown;
  /** Messages per second to send to the room. */
  rate: number;
}

interface PeerSetup {
  port: number;
  tickMs: number;
  streams: PeerStream[];
}

const setup = await new Promise<PeerSetup>((resolve) =>
  process.once('message', (m) => resolve(m as PeerSetup)),
);
const server = http.createServer();
const io = new Server(server, {
  path: '/socket.io',
  serveClient: false,
  pingTimeout: 60_000,
  cors: { origin: false },
});
io.on('connection', (socket) => {
  socket.on('sub', async (streams: unknown, ack?: unknown) => {
    const list = Array.isArray(streams) ? streams.filter((s): s is string => typeof s === 'string') : [];
    for (const s of list) await socket.join(s);
    if (typeof ack === 'function') ack({ ok: list, rejected: [] });
  });
});
await new Promise<void>((r) => server.listen(setup.port, '127.0.0.1', () => r()));

// credit follows the clock, not the ticks: a tick that runs late sends what it owes
const credit = setup.streams.map(() => 0);
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const dt = (now - last) / 1000;
  last = now;
  setup.streams.forEach((s, i) => {
    credit[i]! += s.rate * dt;
    while (credit[i]! >= 1) {
      credit[i]! -= 1;
      let payload = s.payload;
      if (s.event === 'trades') {
        const p = payload as { list: { time: number }[] };
        const now = Date.now();
        payload = { ...p, list: p.list.map((t) => ({ ...t, time: now })) };
      }
      io.to(s.room).emit(s.event, payload);
    }
  });
}, setup.tickMs);
process.send?.({ type: 'listening' });
