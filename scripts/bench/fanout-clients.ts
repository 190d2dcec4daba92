/**
 * One client process of the fan-out benchmark (forked by fanout.ts, setup in FANOUT_CLIENTS): opens its share of the
 * Socket.IO clients (websocket transport, no reconnection), subscribes each to the streams of the
 * chart page, and counts every message each client receives. Messages from the parent:
 * `start` (reset the counters), `stop` (answer the counts, lag samples and one payload of each
 * event), `close` (disconnect everything and exit).
 */
import { io, type Socket } from 'socket.io-client';

export interface ClientsData {
  port: number;
  clients: number;
  streams: string[];
  events: string[];
}

export interface ClientsReport {
  counts: Record<string, number>;
  /** Milliseconds from a trade's server time to its delivery, one per trade delivered. */
  lags: number[];
  /** The last payload of each event one client received (for the bare Socket.IO peer). */
  samples: Record<string, unknown>;
  bytes: Record<string, number>;
}

const data = JSON.parse(process.env.FANOUT_CLIENTS ?? '{}') as ClientsData;
const send = (m: unknown) => process.send?.(m);
const sockets: Socket[] = [];
let counts: Record<string, number> = {};
let lags: number[] = [];
const samples: Record<string, unknown> = {};
let rejected = 0;

function reset(): void {
  counts = Object.fromEntries(data.events.map((e) => [e, 0]));
  lags = [];
}
reset();

function connect(): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = io(`http://127.0.0.1:${data.port}`, {
      path: '/socket.io',
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      query: { lang: 'en' },
    });
    const first = sockets.length === 0;
    for (const event of data.events) {
      if (event === 'trades')
        socket.on(event, (msg: { list?: { time?: number }[] }) => {
          counts[event]!++;
          const now = Date.now();
          for (const t of msg.list ?? []) if (typeof t.time === 'number') lags.push(now - t.time);
          if (first) samples[event] = msg;
        });
      else
        socket.on(event, (msg: unknown) => {
          counts[event]!++;
          if (first) samples[event] = msg;
        });
    }
    socket.once('connect_error', reject);
    socket.once('connect', () => {
      socket.emit('sub', data.streams, (ack: { ok: string[]; rejected: string[] }) => {
        rejected += ack.rejected.length;
        resolve();
      });
    });
    sockets.push(socket);
  });
}

// connect in batches: a thousand handshakes at once would time out on two cores
const BATCH = 50;
for (let i = 0; i < data.clients; i += BATCH)
  await Promise.all(Array.from({ length: Math.min(BATCH, data.clients - i) }, () => connect()));
send({ type: 'ready', connected: sockets.filter((s) => s.connected).length, rejected });

process.on('message', (msg: { type: string }) => {
  if (msg.type === 'start') reset();
  else if (msg.type === 'stop') {
    const bytes = Object.fromEntries(
      Object.entries(samples).map(([e, p]) => [e, Buffer.byteLength(JSON.stringify(p))]),
    );
    const report: ClientsReport = { counts, lags, samples, bytes };
    send({ type: 'report', report, connected: sockets.filter((s) => s.connected).length });
    reset();
  } else if (msg.type === 'close') {
    for (const s of sockets) s.disconnect();
    process.disconnect();
  }
});
