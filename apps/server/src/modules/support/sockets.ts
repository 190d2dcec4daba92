import { OPERATOR_NAMESPACE, type SupportAck, SupportEvents, type SupportSendBody } from '@verdant/api';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io';
import { AppError } from '../../http/errors.ts';
import { t } from '../../i18n/index.ts';
import { findOperatorSession, liveOperatorSessions } from '../admin/service.ts';
import { SUPPORT_ROLES, SUPPORT_ROOM, type SupportService } from './service.ts';

/** How often the operators' open sockets are checked against their sessions. */
const OPERATOR_SWEEP_MS = 15_000;

/** Typing signals a socket may send: one per this many milliseconds, the rest are dropped. */
const TYPING_EVERY_MS = 2_000;

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function typingGate(): () => boolean {
  let last = 0;
  return () => {
    const now = Date.now();
    if (now - last < TYPING_EVERY_MS) return false;
    last = now;
    return true;
  };
}

/** The error as the socket's user reads it (a failure we did not foresee stays generic). */
function errorText(socket: Socket, err: unknown): string {
  const lang = socket.data.lang;
  return err instanceof AppError ? t(lang, err.messageKey, err.params) : t(lang, 'errors.internal');
}

/**
 * The chat over Socket.IO. Users' sockets (the default namespace, logged in by their session)
 * send messages, typing and read marks; their events arrive in their own room. Operators connect
 * to a namespace of their own with an operator token, so a user's socket can never join the room
 * where every conversation is announced, and an operator's token never counts as a user's.
 */
/** Each server's check of its operator sockets (tests run it at once instead of waiting). */
const sweeps = new WeakMap<object, () => Promise<number>>();

/** Closes this process's operator sockets whose sessions ended; answers how many. */
export function sweepOperatorSockets(app: FastifyInstance): Promise<number> {
  return sweeps.get(app.io)?.() ?? Promise.resolve(0);
}

export function attachSupportSockets(app: FastifyInstance, support: SupportService): void {
  app.io.on('connection', (socket) => {
    const userId = socket.data.userId as number | undefined;
    if (!userId) return;
    const mayType = typingGate();
    socket.on(SupportEvents.send, async (body: unknown, ack?: unknown) => {
      const b = (body ?? {}) as Record<string, unknown>;
      const input: SupportSendBody = {
        text: str(b.text),
        picture: str(b.picture),
        client_id: str(b.client_id),
      };
      let answer: SupportAck;
      try {
        answer = { ok: true, message: await support.send(userId, input) };
      } catch (err) {
        if (!(err instanceof AppError)) app.log.error({ err }, 'support: a socket message failed');
        answer = { ok: false, error: errorText(socket, err) };
      }
      if (typeof ack === 'function') ack(answer);
    });
    socket.on(SupportEvents.typing, () => {
      if (mayType()) support.userTyping(userId).catch((err) => app.log.warn({ err }, 'support: typing'));
    });
    socket.on(SupportEvents.read, (body: unknown, ack?: unknown) => {
      const upTo = str((body as Record<string, unknown> | null)?.up_to);
      support.read(userId, upTo).then(
        (unread) => typeof ack === 'function' && ack({ ok: true, unread }),
        (err) => typeof ack === 'function' && ack({ ok: false, error: errorText(socket, err) }),
      );
    });
  });

  const operators = app.io.of(OPERATOR_NAMESPACE);
  operators.use(async (socket, next) => {
    const token = socket.handshake.auth?.token;
    const session =
      typeof token === 'string' && token
        ? await findOperatorSession(app.ctx.db, token).catch(() => null)
        : null;
    // a session still at its password or TOTP step is not signed in (as on every operator route)
    if (session?.stage !== 'ready' || !SUPPORT_ROLES.includes(session.role)) {
      next(new Error('not allowed'));
      return;
    }
    socket.data.operatorId = session.id;
    socket.data.tokenHash = session.tokenHash;
    socket.data.lang = 'en';
    await socket.join(SUPPORT_ROOM);
    next();
  });
  operators.on('connection', (socket) => {
    const mayType = typingGate();
    socket.on(SupportEvents.typing, (body: unknown) => {
      if (!mayType()) return;
      const id = (body as Record<string, unknown> | null)?.conversation_id;
      support.adminTyping(id).catch((err) => app.log.warn({ err }, 'support: typing'));
    });
  });

  // A session ended after its socket connected (logout, disabled, expired) must stop hearing the
  // chats: each process checks its own operator sockets now and then and closes the ended ones.
  const sweepOperators = async (): Promise<number> => {
    const sockets = [...operators.sockets.values()];
    const live = await liveOperatorSessions(app.ctx.db, [
      ...new Set(sockets.map((s) => s.data.tokenHash as string)),
    ]);
    const ended = sockets.filter((s) => !live.has(s.data.tokenHash as string));
    for (const s of ended) s.disconnect(true);
    return ended.length;
  };
  const timer = setInterval(() => {
    sweepOperators().catch((err) => app.log.warn({ err }, 'support: operator socket check'));
  }, OPERATOR_SWEEP_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
  sweeps.set(app.io, sweepOperators);
}
