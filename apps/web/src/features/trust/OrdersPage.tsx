import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TRUST_ORDER_STATUSES, TrustEvents, type TrustOrder, type TrustOrderStatus } from '@verdant/api';
import { Button, Dialog, Tabs, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/datetime';
import { useLive } from '../../shared/live';
import { formatAmount, minusFloor } from '../../shared/money';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryView } from '../../shared/ui/QueryView';
import { percent, redeemTrust, trustOrdersQuery } from './api';
import '../../shared/ui/card.css';

function OrderCard({ o }: { o: TrustOrder }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const redeem = useMutation({
    mutationFn: () => redeemTrust(o.id),
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message });
      void queryClient.invalidateQueries({ queryKey: ['user'] });
    },
    onError: (e) => Toast.show({ content: e.message }),
  });
  const confirm = async () => {
    // principal − penalty, as the server will pay it back
    const back = formatAmount(minusFloor(o.amount, o.penalty), o.decimals);
    const ok = await Dialog.confirm({
      title: t('trust.redeemTitle'),
      content: t('trust.redeemConfirm', {
        penalty: formatAmount(o.penalty, o.decimals),
        symbol: o.currency,
        back,
      }),
      confirmText: t('trust.redeem'),
      cancelText: t('common.cancel'),
    });
    if (ok) redeem.mutate();
  };
  const row = (label: string, value: string) => (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
  return (
    <article className="v-card" aria-label={o.name}>
      <header className="v-card__head">
        <strong>{o.name}</strong>
        <span>{t(`trust.status.${o.status}`)}</span>
      </header>
      <dl className="v-card-dl">
        {row(t('trust.hostedAmount'), `${formatAmount(o.amount, o.decimals)} ${o.currency}`)}
        {row(t('trust.dailyRate'), `${percent(o.daily_rate)}%`)}
        {row(t('trust.currentIncome'), `${formatAmount(o.income, o.decimals)} ${o.currency}`)}
        {row(t('trust.remainingDays'), t('trust.days', { count: o.remaining_days }))}
        {row(t('trust.penalty'), `${formatAmount(o.penalty, o.decimals)} ${o.currency}`)}
        {o.payout_time && row(t('trust.payoutTime'), formatTime(o.payout_time))}
        {row(t('trust.completionTime'), formatTime(o.ended_at ?? o.matures_at))}
      </dl>
      {o.status === 'hosting' && (
        <Button
          size="small"
          color="warning"
          fill="outline"
          loading={redeem.isPending}
          onClick={() => void confirm()}
        >
          {t('trust.redeem')}
        </Button>
      )}
    </article>
  );
}

function OrderList({ status }: { status: TrustOrderStatus }) {
  const orders = useQuery(trustOrdersQuery(status));
  return (
    <QueryView query={orders} isEmpty={(d) => d.list.length === 0}>
      {(d) => d.list.map((o) => <OrderCard key={o.id} o={o} />)}
    </QueryView>
  );
}

/** pages/finance/ordersPage: hosting, completed and redeemed orders; early redemption shows its penalty first. */
export default function OrdersPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TrustOrderStatus>('hosting');
  // a day's interest, a maturity or a redemption elsewhere: the lists follow
  useLive([], {
    [TrustEvents.order]: () => void queryClient.invalidateQueries({ queryKey: ['user', 'trust'] }),
  });
  return (
    <PullToRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: ['user', 'trust'] })}>
      <div className="v-card-page">
        <Tabs activeKey={tab} onChange={(k) => setTab(k as TrustOrderStatus)}>
          {TRUST_ORDER_STATUSES.map((s) => (
            <Tabs.Tab key={s} title={t(`trust.status.${s}`)} />
          ))}
        </Tabs>
        <OrderList status={tab} />
      </div>
    </PullToRefresh>
  );
}
