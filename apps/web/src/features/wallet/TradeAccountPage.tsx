import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { CURRENCY_IDS, WALLET_ACCOUNT_TYPES, type WalletAccountType } from '@verdant/api';
import { Button, Segmented } from 'antd-mobile';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { formatAmount, NO_VALUE } from '../../shared/money';
import { href } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryView } from '../../shared/ui/QueryView';
import { flowsQuery, walletDetailQuery, walletKeys, walletListQuery } from './api';
import { CoinBadge, CoinRow } from './components/CoinRow';
import { FlowRow } from './components/FlowRow';
import { idParam, isAccountType, useCurrencies } from './components/hooks';
import { PagedList } from './components/PagedList';
import './wallet.css';
import './assets.css';
import './components/coin-row.css';
import './components/records.css';
import './trade-account.css';

/** One coin of one account: balance, actions and its changes from the ledger. */
function CoinDetail({ type, currencyId }: { type: WalletAccountType; currencyId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const detail = useQuery(walletDetailQuery(type, currencyId));
  const flows = useInfiniteQuery(flowsQuery(type, currencyId));
  const { byId } = useCurrencies();
  const usdtDecimals = byId(CURRENCY_IDS.USDT)?.decimals ?? 6;

  return (
    <QueryView query={detail}>
      {(d) => {
        const cur = byId(currencyId);

        return (
          <>
            <section className="v-wallet-card v-wallet-coin-detail">
              <div className="v-wallet-coin-detail__head">
                <CoinBadge symbol={d.symbol} />
                <span>
                  <strong>{d.symbol}</strong>
                  <small>
                    {d.name} · {t(`wallet.account.${type}`)}
                  </small>
                </span>
              </div>
              <div className="v-wallet-coin-detail__total">
                <small>{t('wallet.total')}</small>
                <strong data-testid="detail-total">{formatAmount(d.total, d.decimals)}</strong>
                <small>
                  {d.usdt_value === null ? NO_VALUE : `≈ ${formatAmount(d.usdt_value, usdtDecimals)} USDT`}
                </small>
              </div>
              <div className="v-wallet-coin__split">
                <span>
                  <small>{t('wallet.available')}</small>
                  <span data-testid="detail-available">{formatAmount(d.available, d.decimals)}</span>
                </span>
                <span>
                  <small>{t('wallet.frozen')}</small>
                  <span data-testid="detail-frozen">{formatAmount(d.frozen, d.decimals)}</span>
                </span>
              </div>
              <div className="v-wallet-coin-detail__actions">
                {type === 'spot' && cur?.can_deposit && (
                  <Button
                    size="small"
                    color="primary"
                    onClick={() => navigate(href('deposit', { currency_id: currencyId }))}
                  >
                    {t('assets.deposit')}
                  </Button>
                )}
                {type === 'spot' && cur?.can_withdraw && (
                  <Button
                    size="small"
                    color="primary"
                    fill="outline"
                    onClick={() =>
                      navigate(
                        cur.is_fiat ? href('withdrawBank') : href('withdraw', { currency_id: currencyId }),
                      )
                    }
                  >
                    {t('assets.withdraw')}
                  </Button>
                )}
                <Button
                  size="small"
                  fill="outline"
                  onClick={() => navigate(href('transfer', { from: type, currency_id: currencyId }))}
                >
                  {t('assets.transfer')}
                </Button>
              </div>
            </section>
            <h2 className="v-wallet-section-title">{t('wallet.flows')}</h2>
            <PagedList
              query={flows}
              keyOf={(f) => f.id}
              render={(f) => <FlowRow flow={f} decimals={d.decimals} />}
              className="v-wallet-card v-wallet-records--flush"
            />
          </>
        );
      }}
    </QueryView>
  );
}

/** One account's coins. */
function AccountCoins({ type }: { type: WalletAccountType }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useQuery(walletListQuery());
  const { byId } = useCurrencies();
  const usdtDecimals = byId(CURRENCY_IDS.USDT)?.decimals ?? 6;
  return (
    <QueryView query={list}>
      {(wallet) => {
        const account = wallet.accounts.find((a) => a.type === type);
        return (
          <>
            <section className="v-wallet-card v-wallet-account-summary">
              <small>{t('assets.accountValue', { account: t(`wallet.account.${type}`) })}</small>
              <strong data-testid="account-total">
                ≈ {formatAmount(account?.total_usdt ?? '0', usdtDecimals)} USDT
              </strong>
              {account && !account.valued && <p className="v-wallet-assets__note">{t('assets.notValued')}</p>}
            </section>
            {!account || account.currencies.length === 0 ? (
              <EmptyState text={t('common.noData')} />
            ) : (
              <ul className="v-wallet-coins">
                {account.currencies.map((c) => (
                  <li key={c.currency_id}>
                    <CoinRow
                      coin={c}
                      usdtDecimals={usdtDecimals}
                      onClick={() => navigate(href('tradeAccount', { type, currency_id: c.currency_id }))}
                    />
                  </li>
                ))}
              </ul>
            )}
          </>
        );
      }}
    </QueryView>
  );
}

/** pages/assets/tradeAccount?type=spot[&currency_id=3]: an account's coins, or one coin's flows. */
export default function TradeAccountPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const raw = params.get('type');
  const type: WalletAccountType = isAccountType(raw) ? raw : 'spot';
  const currencyId = idParam(params.get('currency_id'));
  const segmented = useRef<HTMLDivElement>(null);
  // rc-segmented wraps each radio input in role=option, which no role of the box may hold: the
  // box becomes a radiogroup and the radios name themselves (after every render, as React sets
  // aria-selected again when the choice changes)
  useEffect(() => {
    const box = segmented.current;
    if (!box) return;
    box.setAttribute('role', 'radiogroup');
    for (const o of box.querySelectorAll('[role="option"]')) {
      o.removeAttribute('role');
      o.removeAttribute('aria-selected');
    }
  });

  return (
    <PullToRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: walletKeys.all })}>
      <div className="v-wallet-page">
        {currencyId === null && (
          <Segmented
            ref={segmented}
            aria-label={t('titles.account')}
            block
            className="v-wallet-segmented"
            value={type}
            onChange={(v) => setParams({ type: String(v) }, { replace: true })}
            options={WALLET_ACCOUNT_TYPES.map((a) => ({ value: a, label: t(`wallet.account.${a}`) }))}
          />
        )}
        {currencyId === null ? (
          <AccountCoins type={type} />
        ) : (
          <CoinDetail type={type} currencyId={currencyId} />
        )}
      </div>
    </PullToRefresh>
  );
}
