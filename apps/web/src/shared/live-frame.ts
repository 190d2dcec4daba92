import { startTransition, useCallback, useEffect, useRef, useState } from 'react';

/** Runs `fn` at the next animation frame (a timer where there are no frames, as in tests). */
function nextFrame(fn: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    const id = requestAnimationFrame(fn);
    return () => cancelAnimationFrame(id);
  }
  const id = setTimeout(fn, 16);
  return () => clearTimeout(id);
}

/**
 * Runs `fn` once the browser has shown a frame and then has a quiet moment (at most `ms` later).
 * Two frames: a frame callback runs before that frame's paint, and the paint reaches the screen
 * later still; the second callback comes after the first frame is on the screen.
 */
function afterPaint(fn: () => void, ms: number): () => void {
  let cancelNext = () => {};
  const cancelFirst = nextFrame(() => {
    cancelNext = nextFrame(() => {
      if (typeof requestIdleCallback === 'function') {
        const id = requestIdleCallback(fn, { timeout: ms });
        cancelNext = () => cancelIdleCallback(id);
      } else {
        const id = setTimeout(fn, 0);
        cancelNext = () => clearTimeout(id);
      }
    });
  });
  return () => {
    cancelFirst();
    cancelNext();
  };
}

/**
 * False on the first render, true once that render is on the screen and the main thread is free:
 * what the first paint does not need (the chart library, the socket) waits for it, so the page's
 * text paints first.
 */
export function useAfterFirstPaint(ms = 1000): boolean {
  const [ready, setReady] = useState(false);
  // a transition: what this turns on renders in slices, not in one long task
  useEffect(() => afterPaint(() => startTransition(() => setReady(true)), ms), [ms]);
  return ready;
}

/**
 * Collects items (socket messages) with `merge` and hands what collected to `flush` once per
 * animation frame: a burst of messages costs one render, not one each. `merge` keeps what the
 * page needs (the latest depth, at most so many trades), so a hidden tab, which gets no frames,
 * holds a bounded amount until it is shown again.
 */
export function useFrameBatch<T, S>(
  merge: (acc: S | undefined, item: T) => S,
  flush: (acc: S) => void,
): (item: T) => void {
  const fns = useRef({ merge, flush });
  useEffect(() => {
    fns.current = { merge, flush };
  });
  const pending = useRef<{ acc: S | undefined; cancel: (() => void) | null }>({
    acc: undefined,
    cancel: null,
  });
  useEffect(
    () => () => {
      pending.current.cancel?.();
      pending.current = { acc: undefined, cancel: null };
    },
    [],
  );
  return useCallback((item: T) => {
    const p = pending.current;
    p.acc = fns.current.merge(p.acc, item);
    if (p.cancel) return;
    p.cancel = nextFrame(() => {
      const acc = p.acc;
      p.acc = undefined;
      p.cancel = null;
      if (acc !== undefined) fns.current.flush(acc);
    });
  }, []);
}
