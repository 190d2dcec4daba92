import Button from 'antd-mobile/es/components/button';
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Shown when a page fails to render or its chunk cannot be loaded (spec §8: 120 s timeout). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <div className="v-app">
      <div className="v-route-error" role="alert">
        <h1>{t('errors.pageTitle')}</h1>
        <p>{t('errors.pageBody')}</p>
        <Button color="primary" block onClick={() => window.location.reload()}>
          {t('errors.reload')}
        </Button>
        <Button
          fill="none"
          block
          onClick={() => {
            window.location.hash = '#/';
            window.location.reload();
          }}
        >
          {t('common.backHome')}
        </Button>
      </div>
    </div>
  );
}

interface BoundaryProps {
  pathname: string;
  children: ReactNode;
}

/**
 * A page that fails to render, or whose chunk cannot be loaded, shows RouteError instead of the
 * app; going to another path tries again. (The declarative router has no errorElement: the data
 * router that had one weighed 54 KB more in the first load.)
 */
export class RouteErrorBoundary extends Component<BoundaryProps, { failed: boolean; pathname: string }> {
  override state = { failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { pathname: string }) {
    return props.pathname === state.pathname ? null : { failed: false, pathname: props.pathname };
  }

  override render() {
    return this.state.failed ? <RouteError /> : this.props.children;
  }
}
