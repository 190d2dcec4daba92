import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Status = 'idle' | 'pulling' | 'canRelease' | 'refreshing' | 'complete';

const THRESHOLD = 60; // px of pull that triggers a refresh
const HOLD = 44; // height kept open while refreshing
const MAX = 100;
const DAMPING = 0.5; // the list follows the finger at half speed, as native lists do
const COMPLETE_MS = 500;

interface Props {
  onRefresh: () => Promise<unknown>;
  children: ReactNode;
}

/**
 * Pull down at the top of the page to refetch. A small touch-event version rather than
 * antd-mobile's, which brings an animation library the first screen (Home) cannot afford.
 */
export function PullToRefresh({ onRefresh, children }: Props) {
  const { t } = useTranslation();
  const root = useRef<HTMLDivElement>(null);
  const [pull, setPull] = useState(0);
  const [status, setStatus] = useState<Status>('idle');
  const [dragging, setDragging] = useState(false);
  const busy = useRef(false);
  const mounted = useRef(true);
  const refreshRef = useRef(onRefresh);

  useEffect(() => {
    refreshRef.current = onRefresh;
  }, [onRefresh]);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const refresh = useCallback(async () => {
    busy.current = true;
    setStatus('refreshing');
    setPull(HOLD);
    try {
      await refreshRef.current();
    } catch {
      // the request layer already told the user what went wrong
    }
    if (!mounted.current) return;
    setStatus('complete');
    await new Promise((resolve) => setTimeout(resolve, COMPLETE_MS));
    if (!mounted.current) return;
    setPull(0);
    setStatus('idle');
    busy.current = false;
  }, []);

  useEffect(() => {
    const el = root.current;
    if (!el) return;
    let drag: { startY: number; active: boolean; ready: boolean } | null = null;

    const onStart = (e: TouchEvent) => {
      const touch = e.touches[0];
      if (busy.current || !touch || e.touches.length !== 1 || window.scrollY > 0) return;
      drag = { startY: touch.clientY, active: false, ready: false };
    };
    const onMove = (e: TouchEvent) => {
      const touch = e.touches[0];
      if (!drag || !touch) return;
      const dy = touch.clientY - drag.startY;
      if (dy <= 0 || window.scrollY > 0) {
        if (drag.active) {
          setPull(0);
          setStatus('idle');
          setDragging(false);
        }
        drag.active = false;
        return;
      }
      // Own the gesture, so the browser does not scroll or bounce the page at the same time.
      if (e.cancelable) e.preventDefault();
      if (!drag.active) setDragging(true);
      drag.active = true;
      const distance = Math.min(MAX, dy * DAMPING);
      drag.ready = distance >= THRESHOLD;
      setPull(distance);
      setStatus(drag.ready ? 'canRelease' : 'pulling');
    };
    const onEnd = () => {
      const d = drag;
      drag = null;
      if (!d?.active) return;
      setDragging(false);
      if (d.ready) void refresh();
      else {
        setPull(0);
        setStatus('idle');
      }
    };

    el.addEventListener('touchstart', onStart, { passive: true });
    el.addEventListener('touchmove', onMove, { passive: false });
    el.addEventListener('touchend', onEnd);
    el.addEventListener('touchcancel', onEnd);
    return () => {
      el.removeEventListener('touchstart', onStart);
      el.removeEventListener('touchmove', onMove);
      el.removeEventListener('touchend', onEnd);
      el.removeEventListener('touchcancel', onEnd);
    };
  }, [refresh]);

  const text =
    status === 'canRelease'
      ? t('pull.release')
      : status === 'refreshing'
        ? t('pull.refreshing')
        : status === 'complete'
          ? t('pull.complete')
          : t('pull.pulling');

  return (
    <div ref={root} className="v-ptr">
      <div
        className={dragging ? 'v-ptr__head' : 'v-ptr__head v-ptr__head--animated'}
        style={{ height: pull }}
        aria-hidden={status === 'idle'}
      >
        <span className={status === 'refreshing' ? 'v-ptr__spinner' : 'v-ptr__arrow'} data-status={status} />
        {status !== 'idle' && <span role="status">{text}</span>}
      </div>
      {children}
    </div>
  );
}
