import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AdminLaunchpadOrder, AdminPaths } from '@verdant/api';
import { Alert, Button, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { PAGE_SIZE, type Paged } from '../../ui/paged';
import { StatusFilter, StatusTag, TextDecisionModal, useDecision } from './shared';

const STATUSES = ['review', 'passed', 'rejected'] as const;
type Status = (typeof STATUSES)[number];

/** New-coin subscriptions: allot (all, or part of the amount paid), or reject (the payment returns). */
export default function LaunchpadPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('review');
  const [page, setPage] = useState(1);
  const [passing, setPassing] = useState<AdminLaunchpadOrder | null>(null);
  const [rejecting, setRejecting] = useState<AdminLaunchpadOrder | null>(null);
  const query = { status, page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['admin', 'launchpad', query],
    queryFn: () => api.get<Paged<AdminLaunchpadOrder>>(AdminPaths.launchpadOrders, query),
    placeholderData: keepPreviousData,
  });
  const pass = useDecision<{ id: string; amount: string }>(AdminPaths.passLaunchpad, 'launchpad');
  const reject = useDecision<{ id: string; reason: string }>(AdminPaths.rejectLaunchpad, 'launchpad');

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
        {t('nav.launchpad')}
      </Typography.Title>
      <StatusFilter
        value={status}
        statuses={STATUSES}
        onChange={(s) => {
          setStatus(s);
          setPage(1);
        }}
      />
      {list.error ? <Alert type="error" showIcon title={list.error.message} /> : null}
      <Table<AdminLaunchpadOrder>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage }}
        columns={[
          { title: t('review.id'), dataIndex: 'id', width: 80 },
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
          { title: t('review.state'), dataIndex: 'status', render: (s: string) => <StatusTag status={s} /> },
          {
            title: t('review.actions'),
            // always in view: a wide row scrolls under it
            fixed: 'right',
            render: (_, o) =>
              o.status === 'review' ? (
                <Space>
                  <Button type="primary" onClick={() => setPassing(o)}>
                    {t('review.allot')}
                  </Button>
                  <Button danger onClick={() => setRejecting(o)}>
                    {t('review.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <TextDecisionModal
        open={passing !== null}
        title={t('review.allotTitle', { id: passing?.id })}
        label={t('review.allotAmount', { currency: passing?.pay_currency ?? '' })}
        field="amount"
        max={40}
        initial={passing?.amount}
        extra={
          <Typography.Paragraph>
            {t('review.allotHint', {
              amount: passing?.amount,
              currency: passing?.pay_currency,
              coin: passing?.coin,
            })}
          </Typography.Paragraph>
        }
        okText={t('review.allot')}
        busy={pass.isPending}
        onCancel={() => setPassing(null)}
        onSubmit={async (amount) => {
          if (!passing) return;
          await pass.mutateAsync({ id: passing.id, amount });
          setPassing(null);
        }}
      />
      <TextDecisionModal
        open={rejecting !== null}
        title={t('review.rejectSubscription', { id: rejecting?.id })}
        label={t('review.reason')}
        field="reason"
        okText={t('review.reject')}
        danger
        busy={reject.isPending}
        onCancel={() => setRejecting(null)}
        onSubmit={async (reason) => {
          if (!rejecting) return;
          await reject.mutateAsync({ id: rejecting.id, reason });
          setRejecting(null);
        }}
      />
    </Space>
  );
}
