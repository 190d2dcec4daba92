import { queryOptions } from '@tanstack/react-query';
import {
  type CandlePage,
  type ContractCloseResult,
  type ContractDeal,
  ContractPaths,
  type ContractPosition,
  type ContractPositionPage,
  type ContractStatus,
  Paths,
} from '@verdant/api';
import { api } from '../../shared/api';

/** Everything of the signed-in user sits under ['user'], so logging out drops it. */
export const contractKeys = {
  deal: (symbol: string, loggedIn: boolean) => ['contract', 'deal', symbol, loggedIn] as const,
  positions: () => ['user', 'contract', 'positions'] as const,
  positionsOf: (symbol: string, status: ContractStatus) =>
    ['user', 'contract', 'positions', symbol, status] as const,
  line: (symbol: string) => ['contract', 'line', symbol] as const,
};

export function dealQuery(symbol: string, loggedIn: boolean) {
  return queryOptions({
    queryKey: contractKeys.deal(symbol, loggedIn),
    queryFn: ({ signal }) =>
      api.post<ContractDeal>(
        ContractPaths.deal,
        { symbol },
        { signal, loading: false, onNotLoggedIn: 'clear' },
      ),
    staleTime: 5_000,
  });
}

export function positionsQuery(symbol: string, status: ContractStatus) {
  return queryOptions({
    queryKey: contractKeys.positionsOf(symbol, status),
    queryFn: ({ signal }) =>
      api.post<ContractPositionPage>(
        ContractPaths.myTrade,
        { symbol, status, limit: 50 },
        { signal, loading: false },
      ),
  });
}

/** The last two hours of one-minute closes: the chart's starting line (live ticks extend it). */
export function lineQuery(symbol: string) {
  return queryOptions({
    queryKey: contractKeys.line(symbol),
    queryFn: ({ signal }) =>
      api.get<CandlePage>(
        Paths.candles,
        { symbol, interval: '1min', limit: 120 },
        { signal, toastError: false },
      ),
    staleTime: 60_000,
  });
}

export interface SubmitInput {
  symbol: string;
  direction: 'long' | 'short';
  type: 'market' | 'limit';
  price?: string;
  lots: string;
  multiple: string;
  take_profit?: string;
  stop_loss?: string;
}

export const submitOrder = (body: SubmitInput) =>
  api.post<ContractPosition>(ContractPaths.submit, { ...body }, { toastError: false });

export const closePosition = (id: string) => api.post<ContractCloseResult>(ContractPaths.close, { id });

export const closeAll = (symbol: string) =>
  api.post<ContractCloseResult>(ContractPaths.close, { all: '1', symbol });

export const setStops = (id: string, takeProfit: string, stopLoss: string) =>
  api.post<ContractPosition>(
    ContractPaths.setStop,
    { id, take_profit: takeProfit, stop_loss: stopLoss },
    { toastError: false },
  );

export const cancelOrder = (id: string) => api.post<ContractPosition>(ContractPaths.cancel, { id });
