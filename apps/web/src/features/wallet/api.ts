import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  type AddWithdrawAddressBody,
  type BankCard,
  type BankCardBody,
  type CurrencyInfo,
  type DemoFundsInfo,
  type DepositAddress,
  type DepositPage,
  type DepositRecord,
  type DepositRequestBody,
  type LedgerFlowPage,
  Paths,
  type TransferBody,
  type TransferPage,
  type TransferRecord,
  type WalletAccountType,
  type WalletDetail,
  type WalletList,
  type WithdrawAddress,
  type WithdrawalPage,
  type WithdrawalRecord,
  type WithdrawBody,
  type WithdrawInfo,
} from '@verdant/api';
import { api, requestFull } from '../../shared/api';

// Forms show their own button spinner, so their calls skip the global loading toast, and they
// tell the user what went wrong themselves (some codes lead to a dialog rather than a toast).
const form = { loading: false, toastError: false } as const;

export const PAGE_SIZE = 20;

/** Query keys; everything of the signed-in user sits under ['user'] so logout drops it. */
export const walletKeys = {
  currencies: ['currencies'] as const,
  all: ['user', 'wallet'] as const,
  list: () => ['user', 'wallet', 'list'] as const,
  detail: (type: string, currencyId: number) => ['user', 'wallet', 'detail', type, currencyId] as const,
  allFlows: () => ['user', 'wallet', 'flows'] as const,
  flows: (type?: string, currencyId?: number) =>
    ['user', 'wallet', 'flows', type ?? 'all', currencyId ?? 'all'] as const,
  transfers: () => ['user', 'wallet', 'transfers'] as const,
  depositAddress: (currencyId: number, chain: string) =>
    ['user', 'wallet', 'deposit-address', currencyId, chain] as const,
  deposits: () => ['user', 'wallet', 'deposits'] as const,
  withdrawals: () => ['user', 'wallet', 'withdrawals'] as const,
  withdrawal: (id: number) => ['user', 'wallet', 'withdrawal', id] as const,
  withdrawInfo: (currencyId: number) => ['user', 'wallet', 'withdraw-info', currencyId] as const,
  addresses: () => ['user', 'wallet', 'addresses'] as const,
  bankCards: () => ['user', 'bank-cards'] as const,
  demoFunds: () => ['user', 'wallet', 'demo-funds'] as const,
};

/** Whether the assets page offers demo funds (a server on development deposit keys only). */
export function demoFundsQuery() {
  return queryOptions({
    queryKey: walletKeys.demoFunds(),
    queryFn: ({ signal }) => api.get<DemoFundsInfo>(Paths.demoFunds, undefined, { signal, loading: false }),
    staleTime: 60_000,
  });
}

export const takeDemoFunds = () => api.post<DemoFundsInfo>(Paths.demoFunds);

export function currenciesQuery() {
  return queryOptions({
    queryKey: walletKeys.currencies,
    queryFn: ({ signal }) => api.get<CurrencyInfo[]>(Paths.currencies, undefined, { signal }),
    staleTime: 5 * 60_000,
  });
}

export function walletListQuery() {
  return queryOptions({
    queryKey: walletKeys.list(),
    queryFn: ({ signal }) => api.post<WalletList>(Paths.walletList, undefined, { signal, loading: false }),
  });
}

export function walletDetailQuery(type: WalletAccountType, currencyId: number) {
  return queryOptions({
    queryKey: walletKeys.detail(type, currencyId),
    queryFn: ({ signal }) =>
      api.post<WalletDetail>(
        Paths.walletDetail,
        { type, currency_id: currencyId },
        { signal, loading: false },
      ),
  });
}

type Paged = { page: number; limit: number; total: number; list: unknown[] };
const nextPage = (last: Paged) => (last.page * last.limit < last.total ? last.page + 1 : undefined);

/** Account changes (wallet/legal_log), of one account and coin or of everything. */
export function flowsQuery(type?: WalletAccountType, currencyId?: number) {
  return infiniteQueryOptions({
    queryKey: walletKeys.flows(type, currencyId),
    queryFn: ({ pageParam, signal }) =>
      api.post<LedgerFlowPage>(
        Paths.walletLegalLog,
        { type, currency_id: currencyId, page: pageParam, limit: PAGE_SIZE },
        { signal, loading: false },
      ),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
}

export function transfersQuery() {
  return infiniteQueryOptions({
    queryKey: walletKeys.transfers(),
    queryFn: ({ pageParam, signal }) =>
      api.get<TransferPage>(Paths.walletTransfers, { page: pageParam, limit: PAGE_SIZE }, { signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
}

export function depositsQuery() {
  return infiniteQueryOptions({
    queryKey: walletKeys.deposits(),
    queryFn: ({ pageParam, signal }) =>
      api.get<DepositPage>(Paths.depositLog, { page: pageParam, limit: PAGE_SIZE }, { signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
}

export function withdrawalsQuery() {
  return infiniteQueryOptions({
    queryKey: walletKeys.withdrawals(),
    queryFn: ({ pageParam, signal }) =>
      api.get<WithdrawalPage>(Paths.withdrawLog, { page: pageParam, limit: PAGE_SIZE }, { signal }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
}

/** One withdrawal of the user by id (`log3?id=`); null when there is none. */
export function withdrawalQuery(id: number) {
  return queryOptions({
    queryKey: walletKeys.withdrawal(id),
    queryFn: async ({ signal }): Promise<WithdrawalRecord | null> => {
      const p = await api.get<WithdrawalPage>(Paths.withdrawLog, { id: String(id) }, { signal });
      return p.list[0] ?? null;
    },
  });
}

export function depositAddressQuery(currencyId: number, chain: string) {
  return queryOptions({
    queryKey: walletKeys.depositAddress(currencyId, chain),
    queryFn: ({ signal }) =>
      api.post<DepositAddress>(
        Paths.depositAddress,
        { currency_id: currencyId, chain: chain || undefined },
        { signal, loading: false },
      ),
    staleTime: 10 * 60_000,
  });
}

export function withdrawInfoQuery(currencyId: number) {
  return queryOptions({
    queryKey: walletKeys.withdrawInfo(currencyId),
    queryFn: ({ signal }) =>
      api.post<WithdrawInfo>(Paths.withdrawInfo, { currency_id: currencyId }, { signal, loading: false }),
    staleTime: 0,
  });
}

export function addressesQuery() {
  return queryOptions({
    queryKey: walletKeys.addresses(),
    queryFn: ({ signal }) =>
      api.post<WithdrawAddress[]>(Paths.withdrawAddresses, undefined, { signal, loading: false }),
  });
}

export function bankCardsQuery() {
  return queryOptions({
    queryKey: walletKeys.bankCards(),
    queryFn: ({ signal }) => api.post<BankCard[]>(Paths.bankCards, undefined, { signal, loading: false }),
  });
}

export function transfer(body: TransferBody) {
  return requestFull<TransferRecord>(Paths.walletChange, { body: { ...body }, ...form });
}

export function requestDeposit(body: DepositRequestBody) {
  return requestFull<DepositRecord>(Paths.depositRequest, { body: { ...body }, ...form });
}

export function addWithdrawAddress(body: AddWithdrawAddressBody) {
  return requestFull<WithdrawAddress>(Paths.addWithdrawAddress, { body: { ...body }, ...form });
}

export function deleteWithdrawAddress(id: number) {
  return requestFull<null>(Paths.deleteWithdrawAddress, { body: { id } });
}

export function withdraw(body: WithdrawBody) {
  return requestFull<WithdrawalRecord>(Paths.withdraw, { body: { ...body }, ...form });
}

export function saveBankCard(body: BankCardBody) {
  return requestFull<BankCard>(Paths.saveBankCard, { body: { ...body }, ...form });
}

export function deleteBankCard(id: number) {
  return requestFull<null>(Paths.deleteBankCard, { body: { id } });
}
