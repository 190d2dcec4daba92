import { Button } from 'antd-mobile';
import { EnvironmentOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useGoBack } from '../../shared/navigation';
import './system.css';

/** The built-in location pages exist for links that reach them; an exchange has no use for a location. */
function LocationPage() {
  const { t } = useTranslation();
  const goBack = useGoBack();
  return (
    <section className="v-system-location">
      <EnvironmentOutline className="v-system-location__icon" />
      <h2>{t('location.title')}</h2>
      <p>{t('location.body')}</p>
      <Button color="primary" shape="rounded" onClick={goBack}>
        {t('common.back')}
      </Button>
    </section>
  );
}

export function ChooseLocationPage() {
  return <LocationPage />;
}

export function OpenLocationPage() {
  return <LocationPage />;
}
