import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigationType } from 'react-router';
import { useGoBack } from '../shared/navigation';
import { PageLoading } from '../shared/ui/PageLoading';
import { AppNavBar } from './AppNavBar';
import { useCurrentPage } from './page-meta';

/** Non-tab pages: dark navigation bar, and the page slides in from the right when opened. */
export function PageLayout() {
  const { t } = useTranslation();
  const page = useCurrentPage();
  const location = useLocation();
  const navigationType = useNavigationType();
  const goBack = useGoBack();
  const title = page ? t(`titles.${page.meta.title}`) : '';
  // Going back fades instead of sliding: the page was already seen.
  const motion = navigationType === 'POP' ? 'v-page--back' : 'v-page--forward';

  return (
    <>
      <AppNavBar title={title} onBack={goBack} />
      <main key={location.pathname} className={`v-page ${motion}`}>
        <Suspense fallback={<PageLoading />}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}
