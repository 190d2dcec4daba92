import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime } from '../../shared/datetime';
import { newsKeys } from '../../shared/news';
import { QueryView } from '../../shared/ui/QueryView';
import { noticeQuery } from './api';
import './news.css';

/** pages/index/notice/notice?id=: one notice, its text with its paragraphs. Opening it marks it read. */
export default function NoticePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const queryClient = useQueryClient();
  const q = useQuery({ ...noticeQuery(id), enabled: Number.isInteger(id) && id > 0 });
  const read = q.data?.read;
  useEffect(() => {
    // the server marked it read: the list's marks and the bell's count follow
    if (read) {
      void queryClient.invalidateQueries({ queryKey: [...newsKeys.all, 'list'] });
      void queryClient.invalidateQueries({ queryKey: newsKeys.unread });
    }
  }, [read, queryClient]);
  if (!(Number.isInteger(id) && id > 0)) return <p className="v-news__missing">{t('news.missing')}</p>;
  return (
    <QueryView query={q} loading="spinner">
      {(n) => (
        <article className="v-news__detail">
          <h1>{n.title}</h1>
          <p className="v-news__meta">
            <span className="v-news__kind">{t(`news.kind.${n.kind}`)}</span>
            <time dateTime={n.published_at}>{formatTime(n.published_at)}</time>
          </p>
          <div className="v-news__body">{n.body}</div>
        </article>
      )}
    </QueryView>
  );
}
