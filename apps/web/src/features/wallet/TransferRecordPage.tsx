import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { TransferRecord } from '@verdant/api';
import { RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/datetime';
import { formatAmount } from '../../shared/money';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { transfersQuery, walletKeys } from './api';
import { useCurrencies } from './components/hooks';
import { PagedList } from './components/PagedList';
import './wallet.css';
import './components/records.css';

function Row({ r, decimals }: { r: TransferRecord; decimals: number }) {
  const { t } = useTranslation();
  return (
    <div className="v-wallet-tile v-wallet-record">
      <div className="v-wallet-record__top">
        <strong>{r.symbol}</strong>
        <strong className="v-wallet-record__amount">{formatAmount(r.amount, decimals)}</strong>
      </div>
      <div className="v-wallet-record__bottom">
        <span className="v-wallet-record__route">
          {t(`wallet.account.${r.from}`)}
          <RightOutline />
          {t(`wallet.account.${r.to}`)}
        </span>
        <span>{formatTime(r.created_at)}</span>
      </div>
    </div>
  );
}

/** pages/assets/transfer/record: the user's transfers, newest first. */
export default function TransferRecordPage() {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery(transfersQuery());
  const { byId } = useCurrencies();
  return (
    <PullToRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: walletKeys.transfers() })}>
      <div className="v-wallet-page">
        <PagedList
          query={query}
          keyOf={(r) => r.id}
          render={(r) => <Row r={r} decimals={byId(r.currency_id)?.decimals ?? 8} />}
        />
      </div>
    </PullToRefresh>
  );
}
