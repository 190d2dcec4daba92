import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Page-chunk fallback: a spinner only if loading takes longer than 200 ms (spec §9), so fast loads
 * do not flash. Plain CSS: antd-mobile's spinner brings an animation library into the first load.
 */
export function PageLoading() {
  const { t } = useTranslation();
  const [show, setShow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShow(true), 200);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div className="v-page-loading">
      {show && <span className="v-spinner" role="status" aria-label={t('common.loading')} />}
    </div>
  );
}
