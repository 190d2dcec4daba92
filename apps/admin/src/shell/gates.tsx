import { Result, Spin } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { allowed, NAV, type NavEntry } from '../nav';
import { useSession } from '../session';

export function PageSpinner() {
  return (
    <div style={{ padding: 48, textAlign: 'center' }}>
      <Spin />
    </div>
  );
}

/** A page the operator's role may open, else a 403 answer (the server refuses its API anyway). */
export function RoleGate({ entry }: { entry: NavEntry }) {
  const { t } = useTranslation();
  const session = useSession();
  if (!allowed(entry, session?.operator.role)) {
    return <Result status="403" title="403" subTitle={t('shell.forbidden')} />;
  }
  const Page = entry.page;
  return (
    <Suspense fallback={<PageSpinner />}>
      <Page />
    </Suspense>
  );
}

/** The first page the operator may open. */
export function HomeRedirect() {
  const { t } = useTranslation();
  const session = useSession();
  const first = NAV.find((e) => !e.hidden && allowed(e, session?.operator.role));
  if (!first) return <Result status="info" title={t('shell.nothingHere')} />;
  return <Navigate to={first.path} replace />;
}

export function NotFound() {
  const { t } = useTranslation();
  return <Result status="404" title="404" subTitle={t('shell.notFound')} />;
}
