import { queryOptions } from '@tanstack/react-query';
import {
  type LaunchpadConfig,
  type LaunchpadOrder,
  type LaunchpadOrderBody,
  type LaunchpadOrderPage,
  type LaunchpadProjectInfo,
  Paths,
} from '@verdant/api';
import { mulDecimal } from '@verdant/engine';
import { api, requestFull } from '../../shared/api';

const form = { loading: false, toastError: false } as const;

export const launchpadKeys = {
  config: ['launchpad', 'config'] as const,
  project: (id: number) => ['launchpad', 'project', id] as const,
  mine: () => ['user', 'launchpad', 'orders'] as const,
};

export const launchpadConfigQuery = () =>
  queryOptions({
    queryKey: launchpadKeys.config,
    queryFn: ({ signal }) => api.get<LaunchpadConfig>(Paths.launchpadConfig, undefined, { signal }),
  });

export const launchpadProjectQuery = (id: number) =>
  queryOptions({
    queryKey: launchpadKeys.project(id),
    queryFn: ({ signal }) => api.get<LaunchpadProjectInfo>(Paths.launchpadProject, { id }, { signal }),
  });

export const launchpadOrdersQuery = () =>
  queryOptions({
    queryKey: launchpadKeys.mine(),
    queryFn: ({ signal }) => api.get<LaunchpadOrderPage>(Paths.launchpadOrders, { limit: 100 }, { signal }),
  });

export const subscribeLaunchpad = (body: LaunchpadOrderBody) =>
  requestFull<LaunchpadOrder>(Paths.launchpadOrder, { body: { ...body }, ...form });

export const redeemLaunchpad = (id: string) =>
  requestFull<LaunchpadOrder>(Paths.launchpadRedeem, { body: { id }, ...form });

export const percent = (fraction: string) => mulDecimal(fraction, '100');
