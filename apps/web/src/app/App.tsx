import type { Locale } from 'antd-mobile/es/locales/base';
import { HashRouter, useLocation, useRoutes } from 'react-router';
import { AppProviders } from './providers';
import { RouteErrorBoundary } from './RouteError';
import { routes } from './routes';

function AppRoutes() {
  const element = useRoutes(routes);
  const { pathname } = useLocation();
  return <RouteErrorBoundary pathname={pathname}>{element}</RouteErrorBoundary>;
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
