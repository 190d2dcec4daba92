import { Button } from 'antd-mobile';
import './widgets.css';
import { useTranslation } from 'react-i18next';

/** A page that could not load: the server's message (or a generic one) and a way to try again. */
export function ErrorState({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  const message = error instanceof Error && error.message ? error.message : t('common.error');
  return (
    <div className="v-empty v-error-state" role="alert">
      <svg viewBox="0 0 64 48" width="64" height="48" aria-hidden="true">
        <circle cx="32" cy="24" r="18" fill="none" stroke="currentColor" strokeWidth="2" />
        <path d="M32 14v12M32 31v3" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
      </svg>
      <span>{message}</span>
      {onRetry && (
        <Button size="small" fill="outline" color="primary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      )}
    </div>
  );
}
