import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { Paths } from '@verdant/api';
import { api } from './api';

export function customerUrlQuery() {
  return queryOptions({
    queryKey: ['support', 'customer-url'] as const,
    queryFn: async ({ signal }) =>
      (await api.post<{ url: string }>(Paths.customerUrl, undefined, { signal, loading: false })).url,
    staleTime: 5 * 60_000,
  });
}

/**
 * Opens the customer-service address: '#/…' is a page of this app, anything else opens in a new
 * window. A window opened after an await can be blocked, so the same tab is the fallback.
 */
export async function openCustomerService(queryClient: QueryClient, navigate: (to: string) => void) {
  const url = await queryClient.fetchQuery(customerUrlQuery());
  if (!url) return;
  if (url.startsWith('#')) {
    navigate(url.slice(1) || '/');
    return;
  }
  if (!/^https?:\/\//i.test(url)) return; // only web addresses leave the app
  // 'noopener' would make window.open return null even on success, so the opener is cut by hand.
  const win = window.open(url, '_blank');
  if (win) win.opener = null;
  else window.location.assign(url);
}
