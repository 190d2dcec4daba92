import { isLang, MAX_STREAMS_PER_SOCKET, MarketEvents, type SubscribeAck } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import { findSession } from '../http/auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    io: Server;
  }
}

/** Room a logged-in user's private events go to. */
export const userRoom = (userId: number) => `user:${userId}`;

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
 */
export function attachRealtime(app: FastifyInstance): Server {
  const io = new Server(app.server, {
    path: '/socket.io',
    serveClient: false,
    pingTimeout: 60_000,
    cors: { origin: false },
  });
  io.use(async (socket, next) => {
    const lang = socket.handshake.query.lang;
    socket.data.lang = isLang(lang) ? lang : 'th';
    const token = socket.handshake.auth?.token;
    if (typeof token === 'string' && token) {
      const session = await findSession(app.ctx.db, token).catch(() => null);
      if (session) {
        socket.data.userId = session.id;
        await socket.join(userRoom(session.id));
      }
    }
    next();
  });
  io.on('connection', (socket) => streamProtocol(io, socket));
  app.addHook('onClose', async () => {
    await io.close();
  });
  return io;
}
