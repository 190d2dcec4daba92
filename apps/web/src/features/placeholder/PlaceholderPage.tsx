import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../shared/paths';
import './placeholder.css';

/**
 * The one temporary page for every part of Verdant that later work builds; the route's title
 * is already in the navigation bar (or tab header).
 */
export default function PlaceholderPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <section className="v-placeholder">
      <svg className="v-placeholder__art" viewBox="0 0 120 120" aria-hidden="true">
        <circle cx="60" cy="60" r="56" fill="var(--v-primary-soft)" />
        <rect x="30" y="64" width="14" height="26" rx="3" fill="var(--v-primary)" opacity="0.55" />
        <rect x="53" y="48" width="14" height="42" rx="3" fill="var(--v-primary)" opacity="0.75" />
        <rect x="76" y="32" width="14" height="58" rx="3" fill="var(--v-primary)" />
      </svg>
      <h2 className="v-placeholder__title">{t('placeholder.title')}</h2>
      <p className="v-placeholder__body">{t('placeholder.body')}</p>
      <Button color="primary" shape="rounded" onClick={() => navigate(paths.home, { replace: true })}>
        {t('common.backHome')}
      </Button>
    </section>
  );
}
