import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { Lang } from '@verdant/api';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createHashRouter, Navigate, RouterProvider } from 'react-router';
import { ApiError, setOnExpired } from '../api';
import { currentLang } from '../i18n';
import { NAV } from '../nav';
import { loadAntdLocale } from './antd-locale';
import { ConsoleLayout } from './ConsoleLayout';
import { HomeRedirect, NotFound, RoleGate } from './gates';
import { LoginPage } from './LoginPage';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 15_000,
      refetchOnWindowFocus: false,
      // the server's refusals are final; only a lost connection is worth one more try
      retry: (count, error) => count < 1 && error instanceof ApiError && error.code === 0,
    },
    mutations: { retry: false },
  },
});

const router = createHashRouter([
  { path: '/login', element: <LoginPage /> },
  {
    path: '/',
    element: <ConsoleLayout />,
    children: [
      { index: true, element: <HomeRedirect /> },
      ...NAV.map((entry) => ({ path: entry.path.replace(/^\//, ''), element: <RoleGate entry={entry} /> })),
      { path: '*', element: <NotFound /> },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
]);

// A 999 answer (session expired or revoked): back to login, keeping the page to return to.
setOnExpired(() => {
  const here = router.state.location;
  if (here.pathname === '/login') return;
  queryClient.clear();
  const next = `${here.pathname}${here.search}`;
  void router.navigate(`/login?next=${encodeURIComponent(next)}`, { replace: true });
});

/** Operators who ask their system for less motion get none (antd animates modals, menus, toasts). */
const reducedMotion =
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/** Brand green darkened so white text on it stays above 4.5:1 (WCAG AA). */
const theme = {
  token: { colorPrimary: '#00785a', colorLink: '#00785a', borderRadius: 6, motion: !reducedMotion },
};

export function App() {
  const { i18n } = useTranslation();
  const [locale, setLocale] = useState<Locale | undefined>();
  const lang = (i18n.language || currentLang()) as Lang;
  useEffect(() => {
    let live = true;
    void loadAntdLocale(lang).then((l) => {
      if (live) setLocale(l);
    });
    return () => {
      live = false;
    };
  }, [lang]);
  return (
    <QueryClientProvider client={queryClient}>
      <ConfigProvider locale={locale} theme={theme}>
        <AntApp>
          <RouterProvider router={router} />
        </AntApp>
      </ConfigProvider>
    </QueryClientProvider>
  );
}
