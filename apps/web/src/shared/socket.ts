import { MarketEvents } from '@verdant/api';
import i18next from 'i18next';
import { io, type Socket } from 'socket.io-client';
import { REQUEST_TIMEOUT_MS } from './api';
import { AppEvent } from './events';
import { currentLang } from './i18n';
import { getToken } from './session';

/**
 * The one Socket.IO connection of the app, created on first use: no page of the first load needs
 * real-time data, so socket.io-client stays out of it (import this module lazily).
 * The server reads the language from `query.lang` and the session from `auth.token`; both follow
 * the app, with a reconnect when either changes.
 */
let socket: Socket | null = null;
let connectedAs: { lang: string; token: string | null } | null = null;

function reconnectIfChanged(): void {
  if (!socket) return;
  const lang = currentLang();
  const token = getToken();
  if (connectedAs && connectedAs.lang === lang && connectedAs.token === token) return;
  connectedAs = { lang, token };
  socket.io.opts.query = { lang };
  if (socket.connected || socket.active) {
    socket.disconnect();
    socket.connect();
  }
}

export function getSocket(): Socket {
  if (socket) return socket;
  const lang = currentLang();
  connectedAs = { lang, token: getToken() };
  socket = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    query: { lang },
    // a function, so every (re)connection sends the token of that moment
    auth: (cb) => cb({ token: getToken() }),
    timeout: REQUEST_TIMEOUT_MS,
  });
  // every (re)connection is a new server-side socket: join again what the pages still show
  socket.on('connect', resubscribeAll);
  i18next.on('languageChanged', reconnectIfChanged);
  window.addEventListener(AppEvent.session, reconnectIfChanged);
  window.addEventListener('storage', reconnectIfChanged);
  return socket;
}

/** Closes the connection (tests, or a page that wants none). */
export function closeSocket(): void {
  if (!socket) return;
  i18next.off('languageChanged', reconnectIfChanged);
  window.removeEventListener(AppEvent.session, reconnectIfChanged);
  window.removeEventListener('storage', reconnectIfChanged);
  socket.disconnect();
  socket = null;
  connectedAs = null;
  streams.clear();
}

// ---- public streams (market data): `sub` / `unsub` with a count per stream ------------------

/** How many parts of the app show each stream; a stream is joined while its count is above 0. */
const streams = new Map<string, number>();

function resubscribeAll(): void {
  if (socket && streams.size > 0) socket.emit(MarketEvents.sub, [...streams.keys()]);
}

/**
 * Joins the given streams (`ticker:btcusdt`, `kline:btcusdt:1min`…) for as long as the caller
 * needs them; returns the function that leaves them. Several callers may share a stream: it is
 * left when the last one leaves. After a reconnection every stream still wanted is joined again.
 */
export function subscribeStreams(list: readonly string[]): () => void {
  const s = getSocket();
  const added = list.filter((name) => {
    const n = streams.get(name) ?? 0;
    streams.set(name, n + 1);
    return n === 0;
  });
  if (added.length > 0 && s.connected) s.emit(MarketEvents.sub, added);
  let done = false;
  return () => {
    if (done) return;
    done = true;
    const removed = list.filter((name) => {
      const n = (streams.get(name) ?? 1) - 1;
      if (n <= 0) streams.delete(name);
      else streams.set(name, n);
      return n <= 0;
    });
    if (removed.length > 0 && socket?.connected) socket.emit(MarketEvents.unsub, removed);
  };
}

/** The streams joined at this moment (tests). */
export function activeStreams(): string[] {
  return [...streams.keys()];
}
