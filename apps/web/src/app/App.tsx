import type { Locale } from 'antd-mobile/es/locales/base';
import { useLayoutEffect, useRef } from 'react';
import { HashRouter, useLocation, useNavigate, useRoutes } from 'react-router';
import { AppProviders } from './providers';
import { RouteErrorBoundary } from './RouteError';
import { routes } from './routes';

/**
 * HashRouter reads the address when it is first rendered but listens for changes only once it is
 * committed, and the first render runs in a transition (main.tsx): an address changed in between
 * (a link opened, an address typed while the app starts) was missed and the app stayed where it
 * started. So the address is read again at commit, and on every hashchange the app follows the
 * address unless the router's render already shows it (a back whose render is still pending is
 * then replaced, so it slides in rather than fades: cosmetic).
 */
function FollowAddress() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const shown = useRef('');
  shown.current = `${pathname}${search}`;
  useLayoutEffect(() => {
    const follow = () => {
      const actual = window.location.hash.slice(1) || '/';
      if (actual !== shown.current) navigate(actual, { replace: true });
    };
    follow();
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, [navigate]);
  return null;
}

function AppRoutes() {
  const element = useRoutes(routes);
  const { pathname } = useLocation();
  return (
    <>
      <FollowAddress />
      <RouteErrorBoundary pathname={pathname}>{element}</RouteErrorBoundary>
    </>
  );
}

export function App({ antdLocale }: { antdLocale: Locale }) {
  return (
    <AppProviders antdLocale={antdLocale}>
      <HashRouter>
        <AppRoutes />
      </HashRouter>
    </AppProviders>
  );
}
