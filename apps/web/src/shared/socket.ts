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
}
