import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AdminDeposit, AdminPaths } from '@verdant/api';
import { Alert, Button, Descriptions, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { PrivateImage } from '../../ui/PrivateImage';
import { PAGE_SIZE, type Paged } from '../../ui/paged';
import { StatusFilter, StatusTag, TextDecisionModal, useDecision } from './shared';

const STATUSES = ['pending', 'approved', 'rejected', 'all'] as const;
type Status = (typeof STATUSES)[number];

/** Deposit requests: look at the voucher, pass with the amount that arrived, or reject with a reason. */
export default function DepositsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('pending');
  const [page, setPage] = useState(1);
  const [passing, setPassing] = useState<AdminDeposit | null>(null);
  const [rejecting, setRejecting] = useState<AdminDeposit | null>(null);
  const query = { status, page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['admin', 'deposits', query],
    queryFn: () => api.get<Paged<AdminDeposit>>(AdminPaths.deposits, query),
    placeholderData: keepPreviousData,
  });
  const approve = useDecision<{ id: string; amount: string }>(AdminPaths.approveDeposit, 'deposits');
  const reject = useDecision<{ id: string; reason: string }>(AdminPaths.rejectDeposit, 'deposits');

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
        {t('nav.deposits')}
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
      <Table<AdminDeposit>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage }}
        expandable={{
          expandedRowRender: (d) => (
            <Space align="start" size="large">
              <PrivateImage src={d.image} alt={t('review.voucher')} />
              <Descriptions size="small" column={1}>
                <Descriptions.Item label={t('review.chain')}>{d.chain ?? t('review.bank')}</Descriptions.Item>
                <Descriptions.Item label={t('review.address')}>{d.address ?? '—'}</Descriptions.Item>
                {d.reject_reason ? (
                  <Descriptions.Item label={t('review.reason')}>{d.reject_reason}</Descriptions.Item>
                ) : null}
              </Descriptions>
            </Space>
          ),
        }}
        columns={[
          { title: t('review.id'), dataIndex: 'id', width: 80 },
          { title: t('review.user'), dataIndex: 'user_account' },
          {
            title: t('review.amount'),
            render: (_, d) => (
              <Typography.Text strong>
                {d.amount} {d.symbol}
              </Typography.Text>
            ),
          },
          {
            title: t('review.submitted'),
            dataIndex: 'created_at',
            render: (v: string) => new Date(v).toLocaleString(),
          },
          { title: t('review.state'), dataIndex: 'status', render: (s: string) => <StatusTag status={s} /> },
          {
            title: t('review.actions'),
            // always in view: a wide row scrolls under it
            fixed: 'right',
            render: (_, d) =>
              d.status === 'pending' ? (
                <Space>
                  <Button type="primary" onClick={() => setPassing(d)}>
                    {t('review.pass')}
                  </Button>
                  <Button danger onClick={() => setRejecting(d)}>
                    {t('review.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <TextDecisionModal
        open={passing !== null}
        title={t('review.passDeposit', { id: passing?.id })}
        label={t('review.creditedAmount', { symbol: passing?.symbol ?? '' })}
        field="amount"
        max={40}
        initial={passing?.amount}
        extra={
          <Typography.Paragraph>
            {t('review.passDepositHint', {
              amount: passing?.amount,
              symbol: passing?.symbol,
              user: passing?.user_account,
            })}
          </Typography.Paragraph>
        }
        okText={t('review.pass')}
        busy={approve.isPending}
        onCancel={() => setPassing(null)}
        onSubmit={async (amount) => {
          if (!passing) return;
          await approve.mutateAsync({ id: String(passing.id), amount });
          setPassing(null);
        }}
      />
      <TextDecisionModal
        open={rejecting !== null}
        title={t('review.rejectDeposit', { id: rejecting?.id })}
        label={t('review.reason')}
        field="reason"
        okText={t('review.reject')}
        danger
        busy={reject.isPending}
        onCancel={() => setRejecting(null)}
        onSubmit={async (reason) => {
          if (!rejecting) return;
          await reject.mutateAsync({ id: String(rejecting.id), reason });
          setRejecting(null);
        }}
      />
    </Space>
  );
}
