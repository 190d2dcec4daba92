import { queryOptions } from '@tanstack/react-query';
import {
  Paths,
  type TrustBuyBody,
  type TrustConfig,
  type TrustOrder,
  type TrustOrderPage,
  type TrustOrderStatus,
  type TrustProductInfo,
  type TrustReport,
} from '@verdant/api';
import { mulDecimal } from '@verdant/engine';
import { api, requestFull } from '../../shared/api';

// Forms show their own button spinner and their own error messages.
const form = { loading: false, toastError: false } as const;

/** Query keys; the user's own data sits under ['user'] so logout drops it. */
export const trustKeys = {
  config: ['trust', 'config'] as const,
  product: (id: number) => ['trust', 'product', id] as const,
  mine: ['user', 'trust'] as const,
  report: () => ['user', 'trust', 'report'] as const,
  orders: (status: TrustOrderStatus) => ['user', 'trust', 'orders', status] as const,
};

export const trustConfigQuery = () =>
  queryOptions({
    queryKey: trustKeys.config,
    queryFn: ({ signal }) => api.get<TrustConfig>(Paths.trustConfig, undefined, { signal }),
  });

export const trustProductQuery = (id: number) =>
  queryOptions({
    queryKey: trustKeys.product(id),
    queryFn: ({ signal }) => api.get<TrustProductInfo>(Paths.trustProduct, { id }, { signal }),
  });

export const trustReportQuery = () =>
  queryOptions({
    queryKey: trustKeys.report(),
    queryFn: ({ signal }) =>
      api.get<TrustReport>(Paths.trustReport, undefined, { signal, onNotLoggedIn: 'clear' }),
  });

export const trustOrdersQuery = (status: TrustOrderStatus) =>
  queryOptions({
    queryKey: trustKeys.orders(status),
    queryFn: ({ signal }) => api.get<TrustOrderPage>(Paths.trustOrders, { status, limit: 100 }, { signal }),
  });

export const buyTrust = (body: TrustBuyBody) =>
  requestFull<TrustOrder>(Paths.trustBuy, { body: { ...body }, ...form });

export const redeemTrust = (id: string) =>
  requestFull<TrustOrder>(Paths.trustCancel, { body: { id }, ...form });

/** "0.004" → "0.4" (percent), exact. */
export const percent = (fraction: string) => mulDecimal(fraction, '100');
