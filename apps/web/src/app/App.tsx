import type { Locale } from 'antd-mobile/es/locales/base';
import { createHashRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers';
import { routes } from './routes';

const router = createHashRouter(routes);

export function App({ antdLocale }: { antdLocale: Locale }) {
  return (
    <AppProviders antdLocale={antdLocale}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
