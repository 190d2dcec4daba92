import { Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { type Shell, ShellContext } from '../shared/shell';
import { useNotLoggedInRedirect } from './guard';
import { lazyPage } from './lazy-page';
import { useCurrentPage } from './page-meta';

// The side menu is not needed for the first paint: it loads when first opened.
const SideMenu = lazyPage(() => import('./SideMenu'));

export function AppShell() {
  const { t } = useTranslation();
  const location = useLocation();
  const page = useCurrentPage();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);

  useNotLoggedInRedirect();

  const shell = useMemo<Shell>(
    () => ({
      openMenu: () => {
        setMenuLoaded(true);
        setMenuOpen(true);
      },
    }),
    [],
  );

  const title = page ? t(`titles.${page.meta.title}`) : '';
  const appName = t('app.name');
  useEffect(() => {
    document.title = title && page?.name !== 'home' ? `${title} · ${appName}` : appName;
  }, [title, appName, page?.name]);

  // Each page starts at its top.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every path change on purpose
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [location.pathname]);

  // Any navigation (a menu entry, the system back button) closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose
  useEffect(() => {
    setMenuOpen(false);
  }, [location.key]);

  return (
    <ShellContext.Provider value={shell}>
      <div className="v-app">
        <Outlet />
      </div>
      {menuLoaded && (
        <Suspense fallback={null}>
          <SideMenu open={menuOpen} onClose={() => setMenuOpen(false)} />
        </Suspense>
      )}
    </ShellContext.Provider>
  );
}
