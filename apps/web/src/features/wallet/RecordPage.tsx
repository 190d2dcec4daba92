import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import type { DepositRecord, LedgerFlow, WithdrawalRecord } from '@verdant/api';
import { Tabs } from 'antd-mobile';
import { RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { formatTime } from '../../shared/datetime';
import { formatAmount } from '../../shared/money';
import { href } from '../../shared/paths';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { depositsQuery, flowsQuery, walletKeys, withdrawalsQuery } from './api';
import { FlowRow } from './components/FlowRow';
import { useCurrencies } from './components/hooks';
import { PagedList } from './components/PagedList';
import { StatusTag } from './components/StatusTag';
import './wallet.css';
import './components/records.css';

const TABS = ['deposit', 'withdraw', 'flows'] as const;
type Tab = (typeof TABS)[number];

function DepositRow({ r, decimals }: { r: DepositRecord; decimals: number }) {
  const { t } = useTranslation();
  return (
    <div className="v-wallet-record" data-testid="deposit-record">
      <div className="v-wallet-record__top">
        <strong>
          {r.symbol}
          {r.chain && <small className="v-wallet-record__chain">{r.chain}</small>}
        </strong>
        <StatusTag code={r.status_code} text={r.status_text} />
      </div>
      <div className="v-wallet-record__bottom">
        <span className="v-wallet-record__amount">{formatAmount(r.amount, decimals)}</span>
        <span>{formatTime(r.created_at)}</span>
      </div>
      {r.reject_reason && (
        <p className="v-wallet-record__reason">
          {t('record.rejectReason')}: {r.reject_reason}
        </p>
      )}
    </div>
  );
}

function WithdrawRow({ r, decimals }: { r: WithdrawalRecord; decimals: number }) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      className="v-wallet-tile v-wallet-record v-wallet-record--link"
      data-testid="withdraw-record"
      onClick={() => navigate(href('withdrawDetail', { id: r.id }))}
    >
      <div className="v-wallet-record__top">
        <strong>
          {r.symbol}
          {r.chain && <small className="v-wallet-record__chain">{r.chain}</small>}
        </strong>
        <span className="v-wallet-record__status">
          <StatusTag code={r.status_code} text={r.status_text} />
          <RightOutline />
        </span>
      </div>
      <div className="v-wallet-record__bottom">
        <span className="v-wallet-record__amount">{formatAmount(r.amount, decimals)}</span>
        <span>{formatTime(r.created_at)}</span>
      </div>
    </button>
  );
}

function isTab(v: string | null): v is Tab {
  return (TABS as readonly string[]).includes(v ?? '');
}

/** pages/assets/record?tab=: deposits (log2), withdrawals (log3) and every account change. */
export default function RecordPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const raw = params.get('tab');
  const tab: Tab = isTab(raw) ? raw : 'deposit';
  const { byId } = useCurrencies();
  const decimals = (id: number) => byId(id)?.decimals ?? 8;

  const deposits = useInfiniteQuery({ ...depositsQuery(), enabled: tab === 'deposit' });
  const withdrawals = useInfiniteQuery({ ...withdrawalsQuery(), enabled: tab === 'withdraw' });
  const flows = useInfiniteQuery({ ...flowsQuery(), enabled: tab === 'flows' });

  const refresh = () => {
    const key =
      tab === 'deposit'
        ? walletKeys.deposits()
        : tab === 'withdraw'
          ? walletKeys.withdrawals()
          : walletKeys.allFlows();
    return queryClient.invalidateQueries({ queryKey: key });
  };

  return (
    <div className="v-wallet-page v-wallet-page--flush">
      <Tabs
        className="v-wallet-record-tabs"
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
      >
        {TABS.map((k) => (
          <Tabs.Tab key={k} title={t(`record.tab.${k}`)} />
        ))}
      </Tabs>
      <PullToRefresh onRefresh={refresh}>
        <div className="v-wallet-record-list">
          {tab === 'deposit' && (
            <PagedList
              query={deposits}
              keyOf={(r) => r.id}
              render={(r) => <DepositRow r={r} decimals={decimals(r.currency_id)} />}
            />
          )}
          {tab === 'withdraw' && (
            <PagedList
              query={withdrawals}
              keyOf={(r) => r.id}
              render={(r) => <WithdrawRow r={r} decimals={decimals(r.currency_id)} />}
            />
          )}
          {tab === 'flows' && (
            <PagedList
              query={flows}
              keyOf={(f: LedgerFlow) => f.id}
              render={(f) => <FlowRow flow={f} decimals={decimals(f.currency_id)} withAccount />}
            />
          )}
        </div>
      </PullToRefresh>
    </div>
  );
}
