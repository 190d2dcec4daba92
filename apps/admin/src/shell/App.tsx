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
  token: {
    colorPrimary: '#00785a',
    colorLink: '#00785a',
    // antd's red (#ff4d4f) is 3.3:1 on white: danger buttons and errors in a red that reads
    colorError: '#cf1322',
    // secondary text (counters, hints, group titles): antd's 45 % black is 3.5:1 on white
    colorTextDescription: '#595959',
    colorTextTertiary: '#595959',
    borderRadius: 6,
    motion: !reducedMotion,
  },
  components: {
    // group titles and the selected entry in colours above 4.5:1 against the menu
    Menu: {
      groupTitleColor: '#595959',
      itemSelectedColor: '#005c45',
      itemSelectedBg: '#e3f1ec',
      itemActiveBg: '#e3f1ec',
      itemHoverBg: '#f0f5f3',
    },
  },
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
