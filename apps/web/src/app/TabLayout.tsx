import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { PageLoading } from '../shared/ui/PageLoading';
import { AppTabBar } from './AppTabBar';
import { HomeBackGuard } from './HomeBackGuard';
import { useCurrentPage } from './page-meta';

/** The five tab pages: content above, bottom bar below. Home draws its own header. */
export function TabLayout() {
  const { t } = useTranslation();
  const page = useCurrentPage();
  const isHome = page?.name === 'home' || page?.name === 'homeAlias';

  return (
    <div className="v-tab-layout">
      {isHome && <HomeBackGuard key={page?.name} />}
      {page && !isHome && <header className="v-tab-header">{t(`titles.${page.meta.title}`)}</header>}
      <main className="v-tab-layout__body">
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
      <AppTabBar current={page?.name} />
    </div>
  );
}
