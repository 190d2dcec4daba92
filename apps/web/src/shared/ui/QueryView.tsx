import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './EmptyState';
import { ErrorState } from './ErrorState';
import { PageLoading } from './PageLoading';

interface Props<T> {
  query: Pick<UseQueryResult<T>, 'isPending' | 'isError' | 'error' | 'data' | 'refetch'>;
  /** When the loaded data has nothing to show ("No data"); without it, never. */
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}

/** A page's query in its states: loading, the error with a retry, "No data", then the data. */
export function QueryView<T>({ query, isEmpty, children }: Props<T>) {
  const { t } = useTranslation();
  if (query.isPending) return <PageLoading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const data = query.data as T;
  if (isEmpty?.(data)) return <EmptyState text={t('common.noData')} />;
  return <>{children(data)}</>;
}
