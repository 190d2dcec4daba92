import { useQuery } from '@tanstack/react-query';
import type { CurrencyInfo } from '@verdant/api';
import { CURRENCY_IDS } from '@verdant/api';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { formatAmount } from '../../shared/money';
import { href } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';
import { QueryView } from '../../shared/ui/QueryView';
import { depositAddressQuery } from './api';
import { BankDetails } from './components/BankDetails';
import { Chips } from './components/Chips';
import { copyWithToast } from './components/CopyValue';
import { idParam, useCurrencies } from './components/hooks';
import { QrCode } from './components/QrCode';
import './wallet.css';
import './deposit.css';
import { RecordsAction } from './components/RecordsAction';

function DepositTarget({ cur, chain }: { cur: CurrencyInfo; chain: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const target = useQuery(depositAddressQuery(cur.id, chain));
  return (
    <QueryView query={target} loading="spinner">
      {(d) => {
        const min = formatAmount(d.min_deposit, cur.decimals);

        return (
          <>
            {d.bank ? (
              <BankDetails bank={d.bank} />
            ) : d.address ? (
              <section className="v-wallet-card v-wallet-deposit-address">
                <QrCode value={d.address} title={t('deposit.qrTitle')} />
                <p className="v-wallet-deposit-address__label">
                  {t('deposit.address', { symbol: cur.symbol, chain: d.chain ?? '' })}
                </p>
                <p
                  className="v-wallet-deposit-address__value v-wallet-mono v-selectable"
                  data-testid="deposit-address"
                >
                  {d.address}
                </p>
                <CopyButton value={d.address} />
              </section>
            ) : (
              <EmptyState text={t('common.noData')} />
            )}
            <ul className="v-wallet-tips">
              <li>{t('deposit.minTip', { min, symbol: cur.symbol })}</li>
              {d.bank ? (
                <li>{t('deposit.bankTip')}</li>
              ) : (
                <li>{t('deposit.chainTip', { symbol: cur.symbol, chain: d.chain ?? '' })}</li>
              )}
              <li>{t('deposit.proofTip')}</li>
            </ul>
            <div className="v-wallet-actions">
              <Button
                block
                color="primary"
                size="large"
                onClick={() => navigate(href('depositCharge', { currency_id: cur.id, chain: d.chain }))}
              >
                {t('deposit.submitProof')}
              </Button>
            </div>
          </>
        );
      }}
    </QueryView>
  );
}

function CopyButton({ value }: { value: string }) {
  const { t } = useTranslation();
  return (
    <Button
      size="small"
      color="primary"
      fill="outline"
      shape="rounded"
      onClick={() => void copyWithToast(value, t)}
    >
      {t('deposit.copyAddress')}
    </Button>
  );
}

/** pages/assets/deposit/index: a coin and chain, its deposit address with a QR code, or the bank details. */
export default function DepositPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const currencies = useCurrencies();

  return (
    <QueryView query={currencies}>
      {(list) => {
        const options = list.filter((c) => c.can_deposit);
        if (options.length === 0) return <EmptyState text={t('common.noData')} />;

        const wanted = idParam(params.get('currency_id'), CURRENCY_IDS.USDT);
        const cur = options.find((c) => c.id === wanted) ?? options[0];
        if (!cur) return <EmptyState text={t('common.noData')} />;
        const wantedChain = params.get('chain') ?? '';
        const chain = cur.chains.includes(wantedChain) ? wantedChain : (cur.chains[0] ?? '');

        const choose = (currencyId: number, nextChain?: string) => {
          const next = options.find((c) => c.id === currencyId);
          setParams(
            {
              currency_id: String(currencyId),
              ...(next?.chains[0] ? { chain: nextChain ?? next.chains[0] } : {}),
            },
            { replace: true },
          );
        };

        return (
          <div className="v-wallet-page">
            <RecordsAction to={href('record', { tab: 'deposit' })} label={t('titles.record')} />
            <section className="v-wallet-card">
              <Chips
                legend={t('wallet.coin')}
                options={options.map((c) => ({ value: c.id, label: c.symbol }))}
                value={cur.id}
                onChange={(id) => choose(id)}
              />
              {cur.chains.length > 0 && (
                <Chips
                  legend={t('wallet.chain')}
                  options={cur.chains.map((c) => ({ value: c, label: c }))}
                  value={chain}
                  onChange={(c) => choose(cur.id, c)}
                />
              )}
            </section>
            <DepositTarget key={`${cur.id}-${chain}`} cur={cur} chain={chain} />
          </div>
        );
      }}
    </QueryView>
  );
}
