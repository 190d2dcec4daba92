import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { InfiniteScroll } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { QueryView } from '../../../shared/ui/QueryView';
import '../wallet.css';
import './records.css';

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
  return (
    <QueryView query={query} isEmpty={(d) => d.pages.every((p) => p.list.length === 0)}>
      {(data) => (
        <>
          <ul className={`v-wallet-records ${className ?? ''}`}>
            {data.pages
              .flatMap((p) => p.list)
              .map((item) => (
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
                <span className="v-wallet-records__end">{t('wallet.noMore')}</span>
              )
            }
          </InfiniteScroll>
        </>
      )}
    </QueryView>
  );
}
