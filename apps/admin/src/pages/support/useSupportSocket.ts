import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import {
  AdminPaths,
  OPERATOR_NAMESPACE,
  SupportEvents,
  type SupportHistory,
  type SupportMessage,
  type SupportReadEvent,
  type SupportTypingEvent,
} from '@verdant/api';
import { useCallback, useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { ApiError, api } from '../../api';
import { getToken, useSession } from '../../session';

/** connecting: the first connection; live: events arrive; reconnecting: the socket is down. */
export type LinkState = 'connecting' | 'live' | 'reconnecting';

/** How long "typing" shows after the user's last signal (they send one at most every 2 s). */
const TYPING_SHOWN_MS = 4_000;
/** After the server refused the socket while the session still answers: try again this late. */
const RETRY_REFUSED_MS = 5_000;

export const supportKeys = {
  all: ['admin', 'support'] as const,
  list: ['admin', 'support', 'conversations'] as const,
  messages: (id: number) => ['admin', 'support', 'messages', id] as const,
};

/** A message from the socket into the chat already on screen (once, even if it comes twice). */
export function addMessage(qc: QueryClient, m: SupportMessage): void {
  qc.setQueryData<SupportHistory>(supportKeys.messages(m.conversation_id), (h) => {
    if (!h || h.items.some((x) => x.id === m.id)) return h;
    // history is newest first; the user's message counts as unread until support reads it
    return { ...h, items: [m, ...h.items], unread: h.unread + (m.sender === 'user' ? 1 : 0) };
  });
}

export function applyRead(qc: QueryClient, e: SupportReadEvent): void {
  qc.setQueryData<SupportHistory>(supportKeys.messages(e.conversation_id), (h) => {
    if (!h) return h;
    if (e.reader === 'support') return { ...h, unread: 0 };
    // the user read support's answers up to the mark
    return {
      ...h,
      items: h.items.map((m) => (m.sender === 'support' && m.id <= e.up_to ? { ...m, read: true } : m)),
    };
  });
}

/**
 * The inbox's live link: the `/operators` namespace with the operator token. Messages and read
 * marks go straight into the open chat's cache; the conversation list is asked again only when an
 * event says it changed. While the socket is down nothing is pushed, so the caller refetches
 * slowly (`state !== 'live'`), and everything is asked again once it is back. A refused
 * connection asks the API who we are: a 999 there sends the console to login like any request.
 */
export function useSupportSocket() {
  const qc = useQueryClient();
  const token = useSession()?.token ?? null;
  const [state, setState] = useState<LinkState>('connecting');
  const [typing, setTyping] = useState<ReadonlySet<number>>(new Set());
  const socketRef = useRef<Socket | null>(null);

  useEffect(() => {
    if (!token) return;
    const timers = new Map<number, ReturnType<typeof setTimeout>>();
    let retry: ReturnType<typeof setTimeout> | undefined;
    let wasLive = false;
    let closed = false;
    const socket = io(OPERATOR_NAMESPACE, {
      path: '/socket.io',
      transports: ['websocket', 'polling'],
      // a function, so each reconnection sends the token of that moment
      auth: (cb) => cb({ token: getToken() }),
    });
    socketRef.current = socket;
    const stopTyping = (id: number) => {
      clearTimeout(timers.get(id));
      timers.delete(id);
      setTyping((s) => {
        if (!s.has(id)) return s;
        const next = new Set(s);
        next.delete(id);
        return next;
      });
    };

    socket.on('connect', () => {
      setState('live');
      // what happened while the socket was down arrives no other way
      if (wasLive) void qc.invalidateQueries({ queryKey: supportKeys.all });
      wasLive = true;
    });
    socket.on('disconnect', (reason) => {
      setState('reconnecting');
      // the server closing the socket itself is not retried by the client
      if (reason === 'io server disconnect') socket.connect();
    });
    socket.on('connect_error', () => {
      setState('reconnecting');
      if (socket.active) return; // a network failure: the client tries again by itself
      // refused by the server (session ended or role taken away): the API tells which; a 999
      // there clears the session and goes to login, which unmounts this hook
      api.get(AdminPaths.me).then(
        () => {
          if (!closed) retry = setTimeout(() => socket.connect(), RETRY_REFUSED_MS);
        },
        (e: unknown) => {
          if (!closed && !(e instanceof ApiError && e.code === 999))
            retry = setTimeout(() => socket.connect(), RETRY_REFUSED_MS);
        },
      );
    });
    socket.on(SupportEvents.message, (m: SupportMessage) => {
      addMessage(qc, m);
      if (m.sender === 'user') stopTyping(m.conversation_id);
      void qc.invalidateQueries({ queryKey: supportKeys.list });
    });
    socket.on(SupportEvents.read, (e: SupportReadEvent) => {
      applyRead(qc, e);
      if (e.reader === 'support') void qc.invalidateQueries({ queryKey: supportKeys.list });
    });
    socket.on(SupportEvents.conversation, () => {
      void qc.invalidateQueries({ queryKey: supportKeys.list });
    });
    socket.on(SupportEvents.typing, (e: SupportTypingEvent) => {
      if (e.sender !== 'user') return;
      clearTimeout(timers.get(e.conversation_id));
      timers.set(
        e.conversation_id,
        setTimeout(() => stopTyping(e.conversation_id), TYPING_SHOWN_MS),
      );
      setTyping((s) => (s.has(e.conversation_id) ? s : new Set(s).add(e.conversation_id)));
    });

    return () => {
      closed = true;
      clearTimeout(retry);
      for (const t of timers.values()) clearTimeout(t);
      socket.disconnect();
      socketRef.current = null;
      setState('connecting');
    };
  }, [token, qc]);

  /** Tells the user support is writing (the server passes one per 2 s per socket on). */
  const sendTyping = useCallback((conversationId: number) => {
    socketRef.current?.emit(SupportEvents.typing, { conversation_id: conversationId });
  }, []);

  return { state, typing, sendTyping };
}
