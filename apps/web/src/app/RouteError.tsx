import Button from 'antd-mobile/es/components/button';
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
