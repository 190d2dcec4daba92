import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AdminPaths, type AdminWithdrawal } from '@verdant/api';
import { Alert, Button, Descriptions, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { PAGE_SIZE, type Paged } from '../../ui/paged';
import { StatusFilter, StatusTag, TextDecisionModal, useDecision } from './shared';

const STATUSES = ['pending', 'approved', 'rejected', 'all'] as const;
type Status = (typeof STATUSES)[number];

function bankLines(snapshot: unknown): [string, string][] {
  if (!snapshot || typeof snapshot !== 'object') return [];
  return Object.entries(snapshot as Record<string, unknown>)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
    .map(([k, v]) => [k, String(v)]);
}

/** Withdrawal requests: pay out and pass with the transaction reference, or reject (the money returns). */
export default function WithdrawalsPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('pending');
  const [page, setPage] = useState(1);
  const [passing, setPassing] = useState<AdminWithdrawal | null>(null);
  const [rejecting, setRejecting] = useState<AdminWithdrawal | null>(null);
  const query = { status, page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['admin', 'withdrawals', query],
    queryFn: () => api.get<Paged<AdminWithdrawal>>(AdminPaths.withdrawals, query),
    placeholderData: keepPreviousData,
  });
  const approve = useDecision<{ id: string; tx_ref: string }>(AdminPaths.approveWithdrawal, 'withdrawals');
  const reject = useDecision<{ id: string; reason: string }>(AdminPaths.rejectWithdrawal, 'withdrawals');

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
        {t('nav.withdrawals')}
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
      <Table<AdminWithdrawal>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage }}
        expandable={{
          expandedRowRender: (w) => (
            <Descriptions size="small" column={2}>
              <Descriptions.Item label={t('review.chain')}>{w.chain ?? t('review.bank')}</Descriptions.Item>
              <Descriptions.Item label={t('review.address')}>
                <Typography.Text copyable={Boolean(w.address)}>{w.address ?? '—'}</Typography.Text>
              </Descriptions.Item>
              {bankLines(w.bank_snapshot).map(([k, v]) => (
                <Descriptions.Item key={k} label={k}>
                  {v}
                </Descriptions.Item>
              ))}
              {w.remark ? <Descriptions.Item label={t('review.remark')}>{w.remark}</Descriptions.Item> : null}
              {w.tx_ref ? <Descriptions.Item label={t('review.txRef')}>{w.tx_ref}</Descriptions.Item> : null}
              {w.reject_reason ? (
                <Descriptions.Item label={t('review.reason')}>{w.reject_reason}</Descriptions.Item>
              ) : null}
            </Descriptions>
          ),
        }}
        columns={[
          { title: t('review.id'), dataIndex: 'id', width: 80 },
          { title: t('review.user'), dataIndex: 'user_account' },
          {
            title: t('review.amount'),
            render: (_, w) => (
              <Typography.Text strong>
                {w.amount} {w.symbol}
              </Typography.Text>
            ),
          },
          { title: t('review.fee'), render: (_, w) => `${w.fee} ${w.symbol}` },
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
            render: (_, w) =>
              w.status === 'pending' ? (
                <Space>
                  <Button type="primary" onClick={() => setPassing(w)}>
                    {t('review.pass')}
                  </Button>
                  <Button danger onClick={() => setRejecting(w)}>
                    {t('review.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <TextDecisionModal
        open={passing !== null}
        title={t('review.passWithdrawal', { id: passing?.id })}
        label={t('review.txRef')}
        field="tx_ref"
        extra={
          <Typography.Paragraph>
            {t('review.passWithdrawalHint', {
              amount: passing?.amount,
              symbol: passing?.symbol,
              to: passing?.address ?? t('review.bank'),
            })}
          </Typography.Paragraph>
        }
        okText={t('review.pass')}
        busy={approve.isPending}
        onCancel={() => setPassing(null)}
        onSubmit={async (txRef) => {
          if (!passing) return;
          await approve.mutateAsync({ id: String(passing.id), tx_ref: txRef });
          setPassing(null);
        }}
      />
      <TextDecisionModal
        open={rejecting !== null}
        title={t('review.rejectWithdrawal', { id: rejecting?.id })}
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
