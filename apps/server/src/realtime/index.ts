import { isLang } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import { Server } from 'socket.io';
import { findSession } from '../http/auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    io: Server;
  }
}

/** Room a logged-in user's private events go to. */
export const userRoom = (userId: number) => `user:${userId}`;

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
  app.addHook('onClose', async () => {
    await io.close();
  });
  return io;
}
