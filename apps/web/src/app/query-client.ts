import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../shared/api';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // The server's refusals are final; only a lost connection is worth one more try.
        retry: (count, error) => count < 1 && error instanceof ApiError && error.kind === 'network',
      },
      mutations: { retry: false },
    },
  });
}
