import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CURRENCY_IDS, WALLET_ACCOUNT_TYPES, type WalletAccount, type WalletAccountType } from '@verdant/api';
import { Switch } from 'antd-mobile';
import {
  BillOutline,
  DownlandOutline,
  EyeInvisibleOutline,
  EyeOutline,
  LoopOutline,
  RightOutline,
  UploadOutline,
} from 'antd-mobile-icons';
import { startTransition, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { formatAmount, HIDDEN_AMOUNT, isLess, isZero, NO_VALUE } from '../../shared/money';
import { href, paths } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryView, SkeletonRows } from '../../shared/ui/QueryView';
import { TabRow } from '../../shared/ui/TabRow';
import { demoFundsQuery, walletKeys, walletListQuery } from './api';
import { CoinRow } from './components/CoinRow';
import { DemoFundsCard } from './components/DemoFundsCard';
import { isAccountType, useCurrencies, useStoredFlag } from './components/hooks';
import './wallet.css';
import './assets.css';

/** Coins worth less than this many USDT are "small" (spec §2: hide small coins). */
export const SMALL_COIN_USDT = '1';

/** Hidden by "hide small coins": nothing at all, or a priced balance under 1 USDT. */
export function isSmallCoin(c: WalletAccount['currencies'][number]): boolean {
  if (isZero(c.total)) return true;
  return c.usdt_value !== null && isLess(c.usdt_value, SMALL_COIN_USDT);
}

export default function AssetsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const list = useQuery(walletListQuery());
  // The demo-funds card, when offered, sits above the tabs: they and the list wait for the answer
  // (asked beside the list; answered once is enough, an error too), so the card never pushes
  // them down once they are drawn.
  const demo = useQuery(demoFundsQuery());
  const { byId } = useCurrencies();
  const [hidden, setHidden] = useStoredFlag('assets.hideAmounts');
  const [hideSmall, setHideSmall] = useStoredFlag('assets.hideSmallCoins');
  const rawType = params.get('type');
  const type: WalletAccountType = isAccountType(rawType) ? rawType : 'spot';
  const usdtDecimals = byId(CURRENCY_IDS.USDT)?.decimals ?? 6;

  const refresh = () => queryClient.invalidateQueries({ queryKey: walletKeys.all });
  const show = (v: string | null, decimals: number) => (hidden ? HIDDEN_AMOUNT : formatAmount(v, decimals));

  const data = list.data;
  // The card and the tabs come with the demo-funds answer (a small commit: the page's largest
  // paint), the balances' rows after them in a transition (rendered in slices): no task on a slow
  // phone's main thread is long enough to hold a tap.
  const ready = demo.isFetched;
  const [rowsOn, setRowsOn] = useState(false);
  useEffect(() => {
    if (ready) startTransition(() => setRowsOn(true));
  }, [ready]);
  const shown = rowsOn ? data : undefined;
  const account = shown?.accounts.find((a) => a.type === type);
  const coins = (account?.currencies ?? []).filter((c) => !hideSmall || !isSmallCoin(c));

  return (
    <PullToRefresh onRefresh={refresh}>
      <div className="v-wallet-assets">
        <section className="v-wallet-assets__hero" aria-labelledby="assets-total">
          <div className="v-wallet-assets__hero-label">
            <span id="assets-total">{t('assets.totalUsdt')}</span>
            <button
              type="button"
              className="v-wallet-assets__eye"
              aria-pressed={hidden}
              aria-label={hidden ? t('assets.showAmounts') : t('assets.hideAmounts')}
              onClick={() => setHidden(!hidden)}
            >
              {hidden ? <EyeInvisibleOutline /> : <EyeOutline />}
            </button>
          </div>
          <div className="v-wallet-assets__total" data-testid="assets-total">
            {data ? (
              <>
                {!hidden && <span className="v-wallet-assets__approx">≈</span>}
                {show(data.total_usdt, usdtDecimals)}
                <small>USDT</small>
              </>
            ) : (
              NO_VALUE
            )}
          </div>
          {data && !data.valued && <p className="v-wallet-assets__note">{t('assets.notValued')}</p>}
          <nav className="v-wallet-assets__actions" aria-label={t('assets.actions')}>
            <button type="button" onClick={() => navigate(paths.deposit)}>
              <DownlandOutline />
              <span>{t('assets.deposit')}</span>
            </button>
            <button type="button" onClick={() => navigate(paths.withdraw)}>
              <UploadOutline />
              <span>{t('assets.withdraw')}</span>
            </button>
            <button type="button" onClick={() => navigate(href('transfer', { from: type }))}>
              <LoopOutline />
              <span>{t('assets.transfer')}</span>
            </button>
            <button type="button" onClick={() => navigate(paths.record)}>
              <BillOutline />
              <span>{t('assets.records')}</span>
            </button>
          </nav>
        </section>

        {!ready ? (
          <SkeletonRows />
        ) : (
          <>
            <DemoFundsCard />

            {/* not antd-mobile's Tabs: they would bring its animation library before the first paint */}
            <TabRow<WalletAccountType>
              options={WALLET_ACCOUNT_TYPES}
              value={type}
              onChange={(key) => setParams({ type: key }, { replace: true })}
              labelOf={(a) => t(`wallet.account.${a}`)}
              className="v-wallet-assets__tabs"
              tabClassName="v-wallet-assets__tab"
            />

            <QueryView
              query={{
                isPending: list.isPending,
                isError: list.isError,
                error: list.error,
                refetch: list.refetch,
                data: shown,
              }}
            >
              {() => (
                <section className="v-wallet-assets__account" aria-label={t(`wallet.account.${type}`)}>
                  <button
                    type="button"
                    className="v-wallet-tile v-wallet-assets__account-head"
                    onClick={() => navigate(href('tradeAccount', { type }))}
                  >
                    <span>
                      <small>{t('assets.accountValue', { account: t(`wallet.account.${type}`) })}</small>
                      <strong data-testid="account-total">
                        {hidden
                          ? HIDDEN_AMOUNT
                          : `≈ ${formatAmount(account?.total_usdt ?? '0', usdtDecimals)}`}{' '}
                        USDT
                      </strong>
                    </span>
                    <span className="v-wallet-assets__details">
                      {t('assets.details')}
                      <RightOutline />
                    </span>
                  </button>
                  <div className="v-wallet-assets__small">
                    <span id="assets-hide-small">{t('assets.hideSmall')}</span>
                    <Switch checked={hideSmall} onChange={setHideSmall} aria-labelledby="assets-hide-small" />
                  </div>
                  {coins.length === 0 ? (
                    <EmptyState text={t('common.noData')} />
                  ) : (
                    <ul className="v-wallet-coins">
                      {coins.map((c) => (
                        <li key={c.currency_id}>
                          <CoinRow
                            coin={c}
                            hidden={hidden}
                            usdtDecimals={usdtDecimals}
                            onClick={() =>
                              navigate(href('tradeAccount', { type, currency_id: c.currency_id }))
                            }
                          />
                        </li>
                      ))}
                    </ul>
                  )}
                </section>
              )}
            </QueryView>
          </>
        )}
      </div>
    </PullToRefresh>
  );
}
