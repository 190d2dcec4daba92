import { queryOptions } from '@tanstack/react-query';
import {
  type CandlePage,
  type OptionOrder,
  type OptionOrderPage,
  type OptionSeconds,
  type OptionStatus,
  Paths,
  type PayableCurrency,
} from '@verdant/api';
import { api } from '../../shared/api';
import { getSession } from '../../shared/session';

const viewer = () => getSession().user?.id ?? 0;

/** Every option query sits under ['option'] so a purchase or a delivery can refresh them together. */
export const optionKeys = {
  all: ['option'] as const,
  seconds: (symbol: string) => ['option', 'seconds', symbol] as const,
  currencies: (viewerId: number) => ['option', 'currencies', viewerId] as const,
  orders: (status: OptionStatus, page: number) => ['option', 'orders', viewer(), status, page] as const,
  history: (symbol: string) => ['option', 'history', symbol] as const,
};

export function secondsQuery(symbol: string) {
  return queryOptions({
    queryKey: optionKeys.seconds(symbol),
    queryFn: ({ signal }) => api.get<OptionSeconds[]>(Paths.optionSeconds, { symbol }, { signal }),
    staleTime: 60_000,
  });
}

export function currenciesQuery() {
  return queryOptions({
    queryKey: optionKeys.currencies(viewer()),
    queryFn: ({ signal }) => api.get<PayableCurrency[]>(Paths.optionCurrencies, undefined, { signal }),
  });
}

export function ordersQuery(status: OptionStatus, page = 1, enabled = true) {
  return queryOptions({
    queryKey: optionKeys.orders(status, page),
    queryFn: ({ signal }) =>
      api.get<OptionOrderPage>(Paths.optionOrders, { status, page, limit: 20 }, { signal }),
    enabled,
  });
}

/** The last half hour of the index (1-minute closes): where the chart starts before live ticks arrive. */
export function historyQuery(symbol: string) {
  return queryOptions({
    queryKey: optionKeys.history(symbol),
    queryFn: ({ signal }) =>
      api.get<CandlePage>(Paths.candles, { symbol, interval: '1min', limit: 30 }, { signal }),
    staleTime: 60_000,
  });
}

export interface SubmitInput {
  symbol: string;
  seconds: number;
  currency: string;
  amount: string;
  direction: 'bullish' | 'bearish';
}

/** Errors come back as ApiError (the caller words the screen's reaction; no toast here). */
export const submitOption = (input: SubmitInput) =>
  api.post<OptionOrder>(Paths.optionSubmit, { ...input }, { toastError: false });
