import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AdminPaths, type AdminVerification } from '@verdant/api';
import { Alert, Button, Descriptions, Popconfirm, Segmented, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { PrivateImage } from '../../ui/PrivateImage';
import { PAGE_SIZE, type Paged } from '../../ui/paged';
import { StatusFilter, StatusTag, TextDecisionModal, useDecision } from './shared';

const STATUSES = ['pending', 'verified', 'rejected', 'all'] as const;
type Status = (typeof STATUSES)[number];
const LEVELS = ['', 'basic', 'advanced'] as const;

/** Identity verifications: read the details, look at the photos, pass or reject with a reason. */
export default function KycPage() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<Status>('pending');
  const [level, setLevel] = useState<(typeof LEVELS)[number]>('');
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<AdminVerification | null>(null);
  const query = { status, level, page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['admin', 'verifications', query],
    queryFn: () => api.get<Paged<AdminVerification>>(AdminPaths.verifications, query),
    placeholderData: keepPreviousData,
  });
  const approve = useDecision<{ id: string }>(AdminPaths.approveVerification, 'verifications');
  const reject = useDecision<{ id: string; reason: string }>(AdminPaths.rejectVerification, 'verifications');

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
        {t('nav.kyc')}
      </Typography.Title>
      <Space wrap>
        <StatusFilter
          value={status}
          statuses={STATUSES}
          onChange={(s) => {
            setStatus(s);
            setPage(1);
          }}
        />
        <Segmented
          value={level}
          onChange={(l) => {
            setLevel(l);
            setPage(1);
          }}
          options={LEVELS.map((l) => ({ value: l, label: t(`review.level.${l || 'all'}`) }))}
        />
      </Space>
      {list.error ? <Alert type="error" showIcon title={list.error.message} /> : null}
      <Table<AdminVerification>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage }}
        expandable={{
          expandedRowRender: (v) => (
            <Space direction="vertical">
              <Descriptions size="small" column={2}>
                <Descriptions.Item label={t('review.country')}>{v.country_name}</Descriptions.Item>
                <Descriptions.Item label={t('review.address')}>{v.address || '—'}</Descriptions.Item>
                {v.reject_reason ? (
                  <Descriptions.Item label={t('review.reason')}>{v.reject_reason}</Descriptions.Item>
                ) : null}
              </Descriptions>
              {v.level === 'advanced' ? (
                <Space size="large" wrap>
                  {(['front', 'back', 'holding'] as const).map((side) => (
                    <Space key={side} direction="vertical" size={4}>
                      <Typography.Text type="secondary">{t(`review.photo.${side}`)}</Typography.Text>
                      <PrivateImage src={v[side]} alt={t(`review.photo.${side}`)} />
                    </Space>
                  ))}
                </Space>
              ) : null}
            </Space>
          ),
        }}
        columns={[
          { title: t('review.id'), dataIndex: 'id', width: 80 },
          { title: t('review.user'), dataIndex: 'user_account' },
          {
            title: t('review.levelTitle'),
            dataIndex: 'level',
            render: (l: string) => t(`review.level.${l}`),
          },
          { title: t('review.name'), dataIndex: 'name' },
          { title: t('review.idNumber'), dataIndex: 'id_number' },
          {
            title: t('review.submitted'),
            dataIndex: 'created_at',
            render: (d: string) => new Date(d).toLocaleString(),
          },
          { title: t('review.state'), dataIndex: 'status', render: (s: string) => <StatusTag status={s} /> },
          {
            title: t('review.actions'),
            // always in view: a wide row scrolls under it
            fixed: 'right',
            render: (_, v) =>
              v.status === 'pending' ? (
                <Space>
                  <Popconfirm
                    title={t('review.passVerification', { name: v.name })}
                    okText={t('review.pass')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ loading: approve.isPending, disabled: approve.isPending }}
                    onConfirm={() => approve.mutateAsync({ id: String(v.id) }).catch(() => undefined)}
                  >
                    <Button
                      type="primary"
                      disabled={approve.isPending && approve.variables?.id === String(v.id)}
                    >
                      {t('review.pass')}
                    </Button>
                  </Popconfirm>
                  <Button danger onClick={() => setRejecting(v)}>
                    {t('review.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <TextDecisionModal
        open={rejecting !== null}
        title={t('review.rejectVerification', { name: rejecting?.name })}
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
