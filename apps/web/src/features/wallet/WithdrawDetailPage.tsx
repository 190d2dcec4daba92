import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatTime } from '../../shared/datetime';
import { formatAmount } from '../../shared/money';
import { EmptyState } from '../../shared/ui/EmptyState';
import { QueryView } from '../../shared/ui/QueryView';
import { withdrawalQuery } from './api';
import { CopyValue } from './components/CopyValue';
import { idParam, useCurrencies } from './components/hooks';
import { InfoRows } from './components/InfoRows';
import { StatusTag } from './components/StatusTag';
import './wallet.css';
import './withdraw-detail.css';

/** pages/assets/withdraw/detail?id=: one withdrawal, its state and, once paid, its reference. */
export default function WithdrawDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = idParam(params.get('id'));
  const query = useQuery({ ...withdrawalQuery(id ?? 0), enabled: id !== null });
  const { byId } = useCurrencies();

  if (id === null) return <EmptyState text={t('common.noData')} />;
  return (
    <QueryView query={query} loading="spinner">
      {(w) => {
        if (!w) return <EmptyState text={t('common.noData')} />;
        const d = byId(w.currency_id)?.decimals ?? 8;
        const fmt = (v: string) => `${formatAmount(v, d)} ${w.symbol}`;

        return (
          <div className="v-wallet-page">
            <section className="v-wallet-card v-wallet-detail-head">
              <small>{t('withdraw.receive')}</small>
              <strong data-testid="withdraw-amount">{fmt(w.amount)}</strong>
              <StatusTag code={w.status_code} text={w.status_text} />
            </section>
            {w.status === 'pending' && (
              <p className="v-wallet-page-note v-wallet-page-note--top">{t('withdraw.frozenNote')}</p>
            )}
            <InfoRows
              className="v-wallet-card"
              rows={[
                { label: t('withdraw.fee'), value: fmt(w.fee) },
                { label: t('withdraw.total'), value: fmt(w.total), tone: 'strong' },
                w.chain ? { label: t('wallet.chain'), value: w.chain } : null,
                w.address ? { label: t('withdraw.to'), value: <CopyValue value={w.address} /> } : null,
                w.remark ? { label: t('withdraw.remark'), value: w.remark } : null,
                w.tx_ref ? { label: t('withdraw.txRef'), value: <CopyValue value={w.tx_ref} /> } : null,
                w.reject_reason
                  ? { label: t('record.rejectReason'), value: w.reject_reason, tone: 'danger' }
                  : null,
                { label: t('record.created'), value: formatTime(w.created_at) },
                w.reviewed_at ? { label: t('record.reviewed'), value: formatTime(w.reviewed_at) } : null,
              ]}
            />
          </div>
        );
      }}
    </QueryView>
  );
}
