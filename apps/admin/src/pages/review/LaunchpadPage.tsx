import { type AdminLaunchpadOrder, AdminPaths } from '@verdant/api';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ReviewQueue } from './ReviewQueue';

/** New-coin subscriptions: allot (all, or part of the amount paid), or reject (the payment returns). */
export default function LaunchpadPage() {
  const { t } = useTranslation();
  return (
    <ReviewQueue<AdminLaunchpadOrder, 'review' | 'passed' | 'rejected'>
      title={t('nav.launchpad')}
      queue="launchpad"
      listPath={AdminPaths.launchpadOrders}
      statuses={['review', 'passed', 'rejected']}
      columns={[
        {
          title: t('review.user'),
          dataIndex: 'account',
          render: (a: string | null, o) => a ?? `#${o.user_id}`,
        },
        { title: t('review.project'), render: (_, o) => `${o.name} (${o.coin})` },
        { title: t('review.paid'), render: (_, o) => `${o.amount} ${o.pay_currency}` },
        { title: t('review.issuePrice'), render: (_, o) => `${o.issue_price} ${o.pay_currency}` },
        {
          title: t('review.allotted'),
          render: (_, o) => (o.quantity === null ? '—' : `${o.quantity} ${o.coin}`),
        },
      ]}
      passText={t('review.allot')}
      pass={{
        kind: 'text',
        path: AdminPaths.passLaunchpad,
        field: 'amount',
        max: 40,
        title: (o) => t('review.allotTitle', { id: o.id }),
        label: (o) => t('review.allotAmount', { currency: o.pay_currency }),
        initial: (o) => o.amount,
        extra: (o) => (
          <Typography.Paragraph>
            {t('review.allotHint', { amount: o.amount, currency: o.pay_currency, coin: o.coin })}
          </Typography.Paragraph>
        ),
      }}
      reject={{
        kind: 'text',
        path: AdminPaths.rejectLaunchpad,
        field: 'reason',
        title: (o) => t('review.rejectSubscription', { id: o.id }),
        label: () => t('review.reason'),
      }}
    />
  );
}
