import { queryOptions } from '@tanstack/react-query';
import { type AreaCode, Paths } from '@verdant/api';
import { api } from './api';

/** Dialling codes with country names in `lang` (POST /api/area_code); they do not change. */
export function areaCodesQuery(lang: string) {
  return queryOptions({
    queryKey: ['area-codes', lang] as const,
    queryFn: ({ signal }) => api.post<AreaCode[]>(Paths.areaCode, undefined, { signal, loading: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
