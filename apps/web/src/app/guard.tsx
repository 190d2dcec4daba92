import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { AppEvent, type NotLoggedInDetail } from '../shared/events';
import { isLoginPath, loginHref } from '../shared/paths';
import { isLoggedIn, useSession } from '../shared/session';

/** Spec §9: login redirect guard interval, so a burst of 999 answers sends the user once. */
const REDIRECT_GUARD_MS = 1000;

/** A protected page without token or user goes to login, which brings the user back here after. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!isLoggedIn(session)) {
    return <Navigate replace to={loginHref(location.pathname + location.search)} />;
  }
  return children;
}

/** After a 999 answer (the API client already cleared the session), go to login with a backpage. */
export function useNotLoggedInRedirect(): void {
  const navigate = useNavigate();
  const location = useLocation();
  const here = useRef(location);
  const last = useRef(0);

  useEffect(() => {
    here.current = location;
  }, [location]);

  useEffect(() => {
    const onNotLoggedIn = (e: Event) => {
      const detail = (e as CustomEvent<NotLoggedInDetail | undefined>).detail;
      if (detail && !detail.redirect) return;
      const { pathname, search } = here.current;
      if (isLoginPath(pathname)) return;
      const now = Date.now();
      if (now - last.current < REDIRECT_GUARD_MS) return;
      last.current = now;
      navigate(loginHref(pathname + search), { replace: true });
    };
    window.addEventListener(AppEvent.notLoggedIn, onNotLoggedIn);
    return () => window.removeEventListener(AppEvent.notLoggedIn, onNotLoggedIn);
  }, [navigate]);
}
