import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AdminAdjustment,
  AdminPaths,
  type CurrencyInfo,
  Paths,
  WALLET_ACCOUNT_TYPES,
} from '@verdant/api';
import {
  Alert,
  App,
  Button,
  Form,
  Input,
  Modal,
  Segmented,
  Select,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSession } from '../../session';

interface Paged<T> {
  items: T[];
  total: number;
}
interface RequestForm {
  user_id: string;
  account_type: string;
  currency_id: string;
  amount: string;
  reason: string;
}

const STATUSES = ['pending', 'approved', 'rejected', 'all'] as const;
const COLORS: Record<string, string> = { pending: 'gold', approved: 'green', rejected: 'red' };

/**
 * Manual balance adjustments (issue 23): one operator asks, another admin approves or rejects;
 * only the approval moves money (a ledger entry against the house 'adjustments' account).
 */
export default function AdjustmentsPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const session = useSession();
  const isAdmin = session?.operator.role === 'admin';
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('pending');
  const [page, setPage] = useState(1);
  const [asking, setAsking] = useState(false);
  const [rejecting, setRejecting] = useState<AdminAdjustment | null>(null);
  const [form] = Form.useForm<RequestForm>();
  const [rejectForm] = Form.useForm<{ note: string }>();
  const list = useQuery({
    queryKey: ['admin', 'adjustments', status, page],
    queryFn: () => api.get<Paged<AdminAdjustment>>(AdminPaths.adjustments, { status, page, limit: 20 }),
    placeholderData: keepPreviousData,
  });
  const currencies = useQuery({
    queryKey: ['currencies'],
    queryFn: () => api.get<CurrencyInfo[]>(Paths.currencies),
    staleTime: 300_000,
  });
  const done = (text: string) => {
    void queryClient.invalidateQueries({ queryKey: ['admin', 'adjustments'] });
    void message.success(text);
  };
  const request = useMutation({
    mutationFn: (v: RequestForm) => api.post<AdminAdjustment>(AdminPaths.adjustmentRequest, { ...v }),
    onSuccess: () => {
      setAsking(false);
      form.resetFields();
      done(t('adjustments.requested'));
    },
  });
  const review = useMutation({
    mutationFn: (v: { decision: 'approve' | 'reject'; id: number; note?: string }) =>
      api.post<AdminAdjustment>(
        v.decision === 'approve' ? AdminPaths.adjustmentApprove : AdminPaths.adjustmentReject,
        {
          id: String(v.id),
          note: v.note ?? '',
        },
      ),
    onSuccess: (_, v) => {
      setRejecting(null);
      rejectForm.resetFields();
      done(t(v.decision === 'approve' ? 'adjustments.approved' : 'adjustments.rejected'));
    },
    onError: (e) => void message.error(e.message),
  });
  const approve = (a: AdminAdjustment) =>
    modal.confirm({
      title: t('adjustments.approveTitle'),
      content: t('adjustments.approveText', { amount: a.amount, symbol: a.symbol, account: a.user_account }),
      okText: t('adjustments.approve'),
      cancelText: t('common.cancel'),
      onOk: () => review.mutateAsync({ decision: 'approve', id: a.id }).catch(() => undefined),
    });

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
          {t('nav.adjustments')}
        </Typography.Title>
        <Button type="primary" onClick={() => setAsking(true)}>
          {t('adjustments.new')}
        </Button>
      </Space>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('adjustments.help')}
      </Typography.Paragraph>
      <Segmented
        value={status}
        onChange={(v) => {
          setStatus(v as (typeof STATUSES)[number]);
          setPage(1);
        }}
        options={STATUSES.map((s) => ({ value: s, label: t(`adjustments.status.${s}`) }))}
      />
      {list.error ? <Alert type="error" showIcon title={list.error.message} /> : null}
      <Table<AdminAdjustment>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: t('adjustments.none') }}
        pagination={{
          current: page,
          pageSize: 20,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          { title: '#', dataIndex: 'id', width: 60 },
          { title: t('adjustments.user'), render: (_, a) => `${a.user_account} (#${a.user_id})` },
          {
            title: t('adjustments.account'),
            dataIndex: 'account_type',
            render: (v: string) => t(`users.accounts.${v}`),
          },
          { title: t('adjustments.amount'), render: (_, a) => `${a.amount} ${a.symbol}` },
          { title: t('adjustments.reason'), dataIndex: 'reason' },
          { title: t('adjustments.requestedBy'), dataIndex: 'requested_by_name' },
          {
            title: t('adjustments.state'),
            render: (_, a) => (
              <Space direction="vertical" size={0}>
                <Tag color={COLORS[a.status]}>{t(`adjustments.status.${a.status}`)}</Tag>
                {a.reviewed_by_name ? (
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {a.reviewed_by_name}
                    {a.review_note ? `: ${a.review_note}` : ''}
                  </Typography.Text>
                ) : null}
              </Space>
            ),
          },
          {
            title: t('adjustments.time'),
            dataIndex: 'created_at',
            render: (v: string) => new Date(v).toLocaleString(),
          },
          {
            title: t('adjustments.actions'),
            render: (_, a) =>
              a.status === 'pending' && isAdmin && a.requested_by !== session?.operator.id ? (
                <Space>
                  <Button size="small" type="primary" onClick={() => approve(a)}>
                    {t('adjustments.approve')}
                  </Button>
                  <Button size="small" danger onClick={() => setRejecting(a)}>
                    {t('adjustments.reject')}
                  </Button>
                </Space>
              ) : a.status === 'pending' ? (
                <Typography.Text type="secondary">{t('adjustments.waiting')}</Typography.Text>
              ) : null,
          },
        ]}
      />
      <Modal
        open={asking}
        title={t('adjustments.new')}
        okText={t('adjustments.submit')}
        cancelText={t('common.cancel')}
        confirmLoading={request.isPending}
        onCancel={() => {
          setAsking(false);
          request.reset();
        }}
        onOk={() => form.submit()}
      >
        {request.error ? (
          <Alert type="error" showIcon title={request.error.message} style={{ marginBottom: 12 }} />
        ) : null}
        <Form<RequestForm>
          form={form}
          layout="vertical"
          initialValues={{ account_type: 'spot' }}
          onFinish={(v) => request.mutate(v)}
        >
          <Form.Item
            name="user_id"
            label={t('adjustments.userId')}
            rules={[{ required: true, message: t('adjustments.userIdRequired') }]}
          >
            <Input inputMode="numeric" />
          </Form.Item>
          <Form.Item name="account_type" label={t('adjustments.account')} rules={[{ required: true }]}>
            <Select
              options={WALLET_ACCOUNT_TYPES.map((a) => ({ value: a, label: t(`users.accounts.${a}`) }))}
            />
          </Form.Item>
          <Form.Item
            name="currency_id"
            label={t('adjustments.currency')}
            rules={[{ required: true, message: t('adjustments.currencyRequired') }]}
          >
            <Select
              loading={currencies.isLoading}
              options={(currencies.data ?? []).map((c) => ({ value: String(c.id), label: c.symbol }))}
            />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('adjustments.amount')}
            extra={t('adjustments.amountHelp')}
            rules={[{ required: true, message: t('adjustments.amountRequired') }]}
          >
            <Input inputMode="decimal" placeholder="-12.5" />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('adjustments.reason')}
            rules={[{ required: true, whitespace: true, message: t('adjustments.reasonRequired') }]}
          >
            <Input.TextArea rows={3} maxLength={200} showCount />
          </Form.Item>
        </Form>
      </Modal>
      <Modal
        open={rejecting !== null}
        title={t('adjustments.rejectTitle')}
        okText={t('adjustments.reject')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.cancel')}
        confirmLoading={review.isPending}
        onCancel={() => setRejecting(null)}
        onOk={() => rejectForm.submit()}
      >
        <Form
          form={rejectForm}
          layout="vertical"
          onFinish={(v) => rejecting && review.mutate({ decision: 'reject', id: rejecting.id, note: v.note })}
        >
          <Form.Item
            name="note"
            label={t('adjustments.note')}
            rules={[{ required: true, whitespace: true, message: t('adjustments.noteRequired') }]}
          >
            <Input.TextArea rows={3} maxLength={200} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
