import { queryOptions } from '@tanstack/react-query';
import {
  type AreaCode,
  Paths,
  type RealName2Body,
  type RealNameBody,
  type VerificationStatus,
  type VerificationSubmission,
} from '@verdant/api';
import { api, requestFull } from '../../shared/api';

// Forms show their own button spinner and their own messages.
const form = { loading: false, toastError: false } as const;

export const verificationKeys = {
  status: () => ['user', 'verification'] as const,
};

export function verificationStatusQuery() {
  return queryOptions({
    queryKey: verificationKeys.status(),
    queryFn: ({ signal }) => api.get<VerificationStatus>(Paths.verificationStatus, undefined, { signal }),
  });
}

/** Countries with their ISO letters (the area_code list, in the request language). */
export function countriesQuery(lang: string) {
  return queryOptions({
    queryKey: ['area-codes', lang] as const,
    queryFn: ({ signal }) => api.post<AreaCode[]>(Paths.areaCode, undefined, { signal, loading: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function submitBasic(body: RealNameBody) {
  return requestFull<VerificationSubmission>(Paths.realName, { body: { ...body }, ...form });
}

export function submitAdvanced(body: RealName2Body) {
  return requestFull<VerificationSubmission>(Paths.realNameAdvanced, { body: { ...body }, ...form });
}
