import { createAdapter } from '@socket.io/redis-adapter';
import { isLang, MAX_STREAMS_PER_SOCKET, MarketEvents, type SubscribeAck } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { Bus } from '../cluster/bus.ts';
import { findSession, liveSessions, onSessionEnd, type SessionEnd } from '../http/auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    io: Server;
  }
}

/** Room a logged-in user's private events go to. */
export const userRoom = (userId: number) => `user:${userId}`;
/** Room of the sockets that logged in with one session (named by its token's hash). */
const sessionRoom = (tokenHash: string) => `session:${tokenHash}`;

/**
 * Public streams a client may join (`socket.emit('sub', ['ticker:btcusdt'], ack)`) and leave
 * (`unsub`). A resolver answers the room of a stream it knows, or null; on joining, its
 * `snapshot` (when given) sends the stream's current state to that socket alone. Each area adds
 * its own resolver (markets now; option and contract index later). Private rooms (`user:…`) are
 * never joinable this way.
 */
export interface StreamTarget {
  room: string;
  snapshot?: (socket: Socket) => Promise<void> | void;
}
export type StreamResolver = (stream: string) => StreamTarget | null;

const resolvers = new WeakMap<Server, StreamResolver[]>();

export function addStreamResolver(io: Server, resolver: StreamResolver): void {
  const list = resolvers.get(io) ?? [];
  list.push(resolver);
  resolvers.set(io, list);
}

function resolveStream(io: Server, stream: unknown): StreamTarget | null {
  if (typeof stream !== 'string' || stream.length > 100) return null;
  for (const r of resolvers.get(io) ?? []) {
    const target = r(stream);
    if (target) return target;
  }
  return null;
}

function asList(v: unknown): unknown[] {
  return Array.isArray(v) ? v.slice(0, MAX_STREAMS_PER_SOCKET) : [v];
}

function streamProtocol(io: Server, socket: Socket): void {
  const joined = new Set<string>();
  socket.on(MarketEvents.sub, async (streams: unknown, ack?: unknown) => {
    const res: SubscribeAck = { ok: [], rejected: [] };
    for (const s of asList(streams)) {
      const target = resolveStream(io, s);
      if (!target || (joined.size >= MAX_STREAMS_PER_SOCKET && !joined.has(target.room))) {
        res.rejected.push(String(s).slice(0, 100));
        continue;
      }
      joined.add(target.room);
      await socket.join(target.room);
      res.ok.push(s as string);
      await Promise.resolve(target.snapshot?.(socket)).catch(() => {});
    }
    if (typeof ack === 'function') ack(res);
  });
  socket.on(MarketEvents.unsub, async (streams: unknown, ack?: unknown) => {
    const res: SubscribeAck = { ok: [], rejected: [] };
    for (const s of asList(streams)) {
      const target = resolveStream(io, s);
      if (!target) {
        res.rejected.push(String(s).slice(0, 100));
        continue;
      }
      joined.delete(target.room);
      await socket.leave(target.room);
      res.ok.push(s as string);
    }
    if (typeof ack === 'function') ack(res);
  });
}

/**
 * Socket.IO on the same HTTP server: websocket with polling fallback. The handshake carries
 * `lang` (query) and the session token (auth.token); a valid token joins the user's room.
 * In a cluster (`bus`), the Redis adapter carries every emit to a room to the sockets of every
 * process (docs/decisions.md: why this adapter); each process still ends its own sockets.
 */
export function attachRealtime(app: FastifyInstance, bus?: Bus): Server {
  const io = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    pingTimeout: 60_000,
    cors: { origin: false },
    ...(bus
      ? { adapter: createAdapter(bus.adapterPub, bus.adapterSub, { key: `${bus.prefix}socket.io` }) }
      : {}),
  });
  io.use(async (socket, next) => {
    const lang = socket.handshake.query.lang;
    socket.data.lang = isLang(lang) ? lang : 'th';
    const token = socket.handshake.auth?.token;
    if (typeof token === 'string' && token) {
      const session = await findSession(app.ctx.db, token, app.ctx.config).catch(() => null);
      if (session) {
        socket.data.userId = session.id;
        socket.data.tokenHash = session.tokenHash;
        await socket.join([userRoom(session.id), sessionRoom(session.tokenHash)]);
      }
    }
    next();
  });
  io.on('connection', (socket) => streamProtocol(io, socket));
  const stopListening = onSessionEnd((end) => endSessionSockets(io, end));
  // 0 turns the periodic check off (logout and password changes still end sockets at once)
  const sweep =
    app.ctx.config.sessionSweepMs > 0
      ? setInterval(() => {
          checkSocketSessions(app).catch((err) => app.log.warn({ err }, 'socket session check failed'));
        }, app.ctx.config.sessionSweepMs).unref()
      : undefined;
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    stopListening();
    await io.close();
  });
  return io;
}

/**
 * Ends the connections of sockets whose session ended. The connection itself is closed, not
 * only the Socket.IO session, so the client reconnects on its own as it does after a network
 * drop: without a live token it comes back anonymous and keeps its public streams, but no
 * private event reaches it any more.
 */
function endSessionSockets(io: Server, end: SessionEnd): void {
  const room = 'tokenHash' in end ? sessionRoom(end.tokenHash) : userRoom(end.userId);
  for (const id of io.sockets.adapter.rooms.get(room) ?? []) io.sockets.sockets.get(id)?.conn.close();
}

/**
 * Checks the session of every logged-in socket of this process in one query and ends those
 * that expired (idle or absolute lifetime) or were revoked where no event reached this process.
 * Runs every `sessionSweepMs`; logout and password changes end sockets at once.
 */
export async function checkSocketSessions(app: FastifyInstance): Promise<void> {
  const io = app.io;
  const byHash = new Map<string, Socket[]>();
  for (const socket of io.sockets.sockets.values()) {
    const hash = socket.data.tokenHash as string | undefined;
    if (hash) byHash.set(hash, [...(byHash.get(hash) ?? []), socket]);
  }
  const live = await liveSessions(app.ctx.db, [...byHash.keys()], app.ctx.config);
  for (const [hash, sockets] of byHash) if (!live.has(hash)) for (const s of sockets) s.conn.close();
}

/** The parts of an engine.io connection `emitTogether` holds back and releases. */
interface EngineConnection {
  transport?: { writable?: boolean; socket?: { _socket?: { cork?(): void; uncork?(): void } } };
  flush?(): void;
}

/**
 * Runs `emit`, a synchronous burst of emits, so that each client's share of it leaves in one
 * write of its socket instead of one per message. Engine.io sends a client's first message at
 * once and queues the rest until that write completes, and ws writes each frame on its own; so
 * for the burst every idle transport is marked busy (its messages queue), then each is released
 * and flushed once with its TCP socket corked. Measured in the fan-out bench (see
 * docs/decisions.md). It leans on engine.io internals (`engine.clients`, `transport.writable`,
 * `flush()`), checked here and by a test; where they are missing it is a plain run of `emit`.
 */
export function emitTogether(io: Server, emit: () => void): void {
  const clients = (io.engine as unknown as { clients?: Record<string, EngineConnection> }).clients;
  const held: EngineConnection[] = [];
  if (clients && typeof clients === 'object')
    for (const conn of Object.values(clients)) {
      if (conn.transport?.writable === true && typeof conn.flush === 'function') {
        conn.transport.writable = false;
        held.push(conn);
      }
    }
  try {
    emit();
  } finally {
    for (const conn of held) {
      conn.transport!.writable = true;
      // the websocket transport's TCP socket (polling answers a request: one body already)
      const tcp = conn.transport!.socket?._socket;
      tcp?.cork?.();
      try {
        conn.flush!();
      } finally {
        tcp?.uncork?.();
      }
    }
  }
}
