import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { InfiniteScroll } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../shared/ui/EmptyState';
import { ErrorState } from '../../../shared/ui/ErrorState';
import { PageLoading } from '../../../shared/ui/PageLoading';

interface Page<T> {
  list: T[];
  page: number;
  limit: number;
  total: number;
}

interface Props<T> {
  query: UseInfiniteQueryResult<InfiniteData<Page<T>>>;
  keyOf: (item: T) => string | number;
  render: (item: T) => ReactNode;
  className?: string;
}

/** A paged record list: loading, error, "No data", then more pages as the user scrolls down. */
export function PagedList<T>({ query, keyOf, render, className }: Props<T>) {
  const { t } = useTranslation();
  if (query.isPending) return <PageLoading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const items = query.data.pages.flatMap((p) => p.list);
  if (items.length === 0) return <EmptyState text={t('common.noData')} />;
  return (
    <>
      <ul className={`v-records ${className ?? ''}`}>
        {items.map((item) => (
          <li key={keyOf(item)}>{render(item)}</li>
        ))}
      </ul>
      <InfiniteScroll
        hasMore={query.hasNextPage}
        loadMore={async () => {
          const r = await query.fetchNextPage();
          if (r.isError) throw r.error;
        }}
      >
        {(hasMore, failed, retry) =>
          failed ? (
            <button type="button" className="v-link-button" onClick={() => void retry()}>
              {t('common.retry')}
            </button>
          ) : hasMore ? (
            <span>{t('common.loading')}</span>
          ) : (
            <span className="v-records__end">{t('wallet.noMore')}</span>
          )
        }
      </InfiniteScroll>
    </>
  );
}
