import type { UseQueryResult } from '@tanstack/react-query';
import Skeleton from 'antd-mobile/es/components/skeleton';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './EmptyState';
import { ErrorState } from './ErrorState';
import { PageLoading } from './PageLoading';
import './widgets.css';

export type QueryLike<T> = Pick<UseQueryResult<T>, 'isPending' | 'isError' | 'error' | 'data' | 'refetch'>;

interface Props<T> {
  query: QueryLike<T>;
  /** When the loaded data has nothing to show; without it, never. */
  isEmpty?: (data: T) => boolean;
  /** What to say then (default "No data"). */
  emptyText?: string;
  /**
   * What stands in while it loads: grey rows shaped like the content (the default: the page keeps
   * its layout and reads as on its way), or the spinner where there is no list to sketch.
   */
  loading?: 'rows' | 'spinner';
  /** How many grey rows. */
  rows?: number;
  children: (data: T) => ReactNode;
}

/** A query in its states: loading, the error with a retry, "No data", then the data. */
export function QueryView<T>({ query, isEmpty, emptyText, loading = 'rows', rows = 4, children }: Props<T>) {
  const { t } = useTranslation();
  // a failed refresh keeps what was shown; only a query that never loaded shows the error
  if (query.data === undefined) return <QueryFallback query={query} loading={loading} rows={rows} />;
  const data = query.data;
  if (isEmpty?.(data)) return <EmptyState text={emptyText ?? t('common.noData')} />;
  return <>{children(data)}</>;
}

/**
 * What a query shows before its data is there: loading, or the error with a retry. For a page too
 * long to nest in QueryView: `if (q.data === undefined) return <QueryFallback query={q} />;`
 */
export function QueryFallback<T>({
  query,
  loading = 'rows',
  rows = 4,
}: Pick<Props<T>, 'query' | 'loading' | 'rows'>) {
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return loading === 'rows' ? <SkeletonRows rows={rows} /> : <PageLoading />;
}

/** Rows of a list that is still loading. */
export function SkeletonRows({ rows = 4 }: { rows?: number }) {
  const { t } = useTranslation();
  return (
    <div className="v-skeleton" role="status" aria-busy="true" aria-label={t('common.loading')}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholders, never reordered
        <Skeleton key={i} animated className="v-skeleton__row" />
      ))}
    </div>
  );
}

type Loaded<Q extends readonly QueryLike<unknown>[]> = {
  [K in keyof Q]: Q[K] extends QueryLike<infer T> ? T : never;
};

/**
 * Several queries as one for QueryView: pending while any is, failed when any failed (its error,
 * and "Try again" retries the failed ones), then every result in order.
 */
export function allOf<const Q extends readonly QueryLike<unknown>[]>(...queries: Q): QueryLike<Loaded<Q>> {
  const failed = queries.filter((q) => q.isError);
  const pending = queries.some((q) => q.isPending);
  return {
    isPending: pending && failed.length === 0,
    isError: failed.length > 0,
    error: failed[0]?.error ?? null,
    data: (queries.every((q) => q.data !== undefined) ? queries.map((q) => q.data) : undefined) as Loaded<Q>,
    refetch: (() => Promise.all(failed.map((q) => q.refetch()))) as unknown as QueryLike<
      Loaded<Q>
    >['refetch'],
  } as QueryLike<Loaded<Q>>;
}
