import { useQuery } from '@tanstack/react-query';
import { RightOutline, SoundOutline } from 'antd-mobile-icons';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { latestNoticesQuery } from '../../shared/news';
import { paths } from '../../shared/paths';

/** Seconds the titles take to cross the bar, per character (reading pace, not a race). */
const SECONDS_PER_CHAR = 0.22;

/**
 * Home's notice bar: the latest notices' titles scroll across one line (paused while pointed at
 * or focused; still, showing the newest, when the system asks for reduced motion). A title opens
 * its notice; the arrow opens the list. An empty bar while they load; nothing when there is none.
 */
export function NoticeBar({ enabled = true }: { enabled?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const latest = useQuery({ ...latestNoticesQuery(), enabled });
  // the bar's room is kept while the notices load, so they arrive without moving what is below
  if (latest.isPending) return <div className="v-home__notices" aria-hidden="true" />;
  const items = latest.data?.items ?? [];
  if (items.length === 0) return null;
  const chars = items.reduce((n, x) => n + x.title.length, 0);
  const style = { '--v-notice-duration': `${Math.max(10, chars * SECONDS_PER_CHAR)}s` } as CSSProperties;
  return (
    <section className="v-home__notices" aria-label={t('news.noticeBar')}>
      <SoundOutline className="v-home__notices-icon" aria-hidden="true" />
      <div className="v-home__notices-window">
        <div className="v-home__notices-track" style={style}>
          {items.map((n) => (
            <button
              key={n.id}
              type="button"
              className="v-home__notice"
              onClick={() => navigate(`${paths.notice}?id=${n.id}`)}
            >
              {n.title}
            </button>
          ))}
        </div>
      </div>
      <button
        type="button"
        className="v-home__notices-more"
        aria-label={t('news.allNotices')}
        onClick={() => navigate(paths.notices)}
      >
        <RightOutline />
      </button>
    </section>
  );
}
