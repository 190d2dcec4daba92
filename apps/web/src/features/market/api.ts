import { queryOptions } from '@tanstack/react-query';
import {
  type CandlePage,
  type ChartInterval,
  type Deal,
  type MarketTicker,
  type OrderSide,
  type OrderType,
  Paths,
  type SpotOrder,
  type SpotOrderPage,
  type WalletList,
} from '@verdant/api';
import { api, requestFull } from '../../shared/api';

/** Everything of the signed-in user sits under ['user'], so logging out drops it. */
export const tradeKeys = {
  deal: (symbol: string) => ['market', 'deal', symbol] as const,
  favourites: () => ['user', 'favourites'] as const,
  orders: () => ['user', 'spot', 'orders'] as const,
  ordersOf: (symbol: string, view: OrderView) => ['user', 'spot', 'orders', symbol, view] as const,
  balances: () => ['user', 'spot', 'balances'] as const,
};

export type OrderView = 'current' | 'history';

export function fetchCandles(
  symbol: string,
  interval: ChartInterval,
  before?: number | null,
  signal?: AbortSignal,
): Promise<CandlePage> {
  return api.get<CandlePage>(
    Paths.candles,
    { symbol, interval, before: before ?? undefined },
    { signal, toastError: false },
  );
}

export function dealQuery(symbol: string) {
  return queryOptions({
    queryKey: tradeKeys.deal(symbol),
    queryFn: ({ signal }) => api.get<Deal>(Paths.deal, { symbol }, { signal }),
    staleTime: 5_000,
  });
}

export function favouritesQuery() {
  return queryOptions({
    queryKey: tradeKeys.favourites(),
    queryFn: ({ signal }) => api.get<MarketTicker[]>(Paths.favourites, undefined, { signal }),
  });
}

export function setFavourite(symbol: string, on: boolean) {
  return requestFull<null>(on ? Paths.addFavourite : Paths.removeFavourite, {
    method: 'POST',
    body: { symbol },
    loading: false,
  });
}

export function ordersQuery(symbol: string, view: OrderView) {
  return queryOptions({
    queryKey: tradeKeys.ordersOf(symbol, view),
    queryFn: ({ signal }) =>
      api.get<SpotOrderPage>(
        Paths.spotOrders,
        { symbol, status: view === 'current' ? 'waiting' : 'completed,cancelled', limit: 50 },
        { signal },
      ),
  });
}

export interface SpotBalance {
  symbol: string;
  available: string;
  decimals: number;
}

/** The spot account's available balances by currency symbol (from the wallet API). */
export function spotBalancesQuery() {
  return queryOptions({
    queryKey: tradeKeys.balances(),
    queryFn: async ({ signal }) => {
      const list = await api.post<WalletList>(Paths.walletList, undefined, { signal, loading: false });
      const spot = list.accounts.find((a) => a.type === 'spot');
      const out: Record<string, SpotBalance> = {};
      for (const c of spot?.currencies ?? []) {
        out[c.symbol] = { symbol: c.symbol, available: c.available, decimals: c.decimals };
      }
      return out;
    },
  });
}

export interface PlaceOrder {
  symbol: string;
  side: OrderSide;
  type: OrderType;
  price?: string;
  qty?: string;
  amount?: string;
}

/** Places an order; the caller shows the server's message (success or refusal). */
export function placeOrder(order: PlaceOrder) {
  return requestFull<SpotOrder>(Paths.spotTrade, {
    method: 'POST',
    body: { ...order },
    loading: false,
    toastError: false,
  });
}

export function cancelOrder(id: string) {
  return requestFull<SpotOrder>(Paths.spotTrade, { method: 'PUT', body: { id }, toastError: false });
}
