import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useNavigationType } from 'react-router';
import { historyIndex } from '../shared/navigation';
import { showToast } from '../shared/toast';

/** Spec §2: on Home, back twice within this window leaves the app. */
const EXIT_WINDOW_MS = 2000;
const SENTINEL = { verdantExitGuard: true } as const;

function isSentinel(state: unknown): boolean {
  return Boolean(state && typeof state === 'object' && 'verdantExitGuard' in state);
}

/**
 * Home keeps an extra history entry (the sentinel) on top of itself. Back (browser, Android)
 * pops it: the first time a toast says "press again to exit" and the sentinel comes back; a
 * second back within 2 s goes behind every entry of the app.
 */
export function HomeBackGuard() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const navigationType = useNavigationType();
  const armed = useRef(false);
  const lastPress = useRef(0);
  const pushedFor = useRef<string | null>(null);

  useEffect(() => {
    if (isSentinel(location.state)) {
      armed.current = true;
      pushedFor.current = null;
      return;
    }
    if (pushedFor.current === location.key) return; // StrictMode runs effects twice
    if (armed.current && navigationType === 'POP') {
      armed.current = false;
      const now = Date.now();
      if (now - lastPress.current < EXIT_WINDOW_MS) {
        window.history.go(-(historyIndex() + 1));
        return;
      }
      lastPress.current = now;
      showToast({ content: t('common.pressAgainToExit'), duration: EXIT_WINDOW_MS });
    }
    // The address may already have moved on (a link opened while Home was mounting): pushing
    // Home's sentinel now would take the user back to Home from the page they asked for.
    const current = window.location.hash.slice(1) || '/';
    if (current !== `${location.pathname}${location.search}`) return;
    pushedFor.current = location.key;
    navigate({ pathname: location.pathname, search: location.search }, { state: SENTINEL });
  }, [location, navigationType, navigate, t]);

  return null;
}
