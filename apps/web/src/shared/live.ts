import { useEffect, useRef, useState } from 'react';

/** Socket event name → what to do with its payload. */
export type LiveHandlers = Partial<Record<string, (payload: unknown) => void>>;

/**
 * Joins public streams (`ticker:btcusdt`…) and listens to socket events while the component is
 * shown. The socket module (and socket.io-client) is imported on first use, so pages of the first
 * load stay light. Private events (the user's own orders) need no stream: pass an empty list.
 * Handlers may change on every render; the subscription changes only with the streams and events.
 */
export function useLive(streams: readonly string[], handlers: LiveHandlers, enabled = true): void {
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  const streamKey = streams.join('|');
  const eventKey = Object.keys(handlers).sort().join('|');

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    let cleanup = () => {};
    import('./socket')
      .then(({ getSocket, subscribeStreams }) => {
        socketLoaded = true;
        if (cancelled) return;
        const socket = getSocket();
        const listeners = eventKey
          .split('|')
          .filter(Boolean)
          .map((event) => [event, (payload: unknown) => ref.current[event]?.(payload)] as const);
        for (const [event, fn] of listeners) socket.on(event, fn);
        const leave = streamKey ? subscribeStreams(streamKey.split('|')) : () => {};
        cleanup = () => {
          leave();
          for (const [event, fn] of listeners) socket.off(event, fn);
        };
      })
      .catch(() => {
        // without the socket the page still shows what the API answered
      });
    return () => {
      cancelled = true;
      cleanup();
    };
  }, [streamKey, eventKey, enabled]);
}

let socketLoaded = false;
const INTERACTIONS = ['pointerdown', 'touchstart', 'keydown', 'wheel'] as const;

/**
 * True once the socket client is worth loading for data the first paint does not need (Home's live
 * prices): at the user's first interaction, as Toast does (docs/decisions.md, "First-load weight"),
 * or at once when another page has loaded it already. socket.io-client is 12.8 KB gzipped: on
 * Home's first load it would break the 170 KB budget. Until then Home refreshes over HTTP.
 */
export function useSocketWanted(): boolean {
  const [wanted, setWanted] = useState(socketLoaded);
  useEffect(() => {
    if (wanted) return;
    const go = () => setWanted(true);
    for (const type of INTERACTIONS)
      window.addEventListener(type, go, { capture: true, passive: true, once: true });
    return () => {
      for (const type of INTERACTIONS) window.removeEventListener(type, go, { capture: true });
    };
  }, [wanted]);
  return wanted;
}
