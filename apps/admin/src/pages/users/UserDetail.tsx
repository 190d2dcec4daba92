import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type AdminActivityRow,
  type AdminBalance,
  type AdminLedgerEntry,
  AdminPaths,
  type AdminReferralMember,
  AdminReferralPaths,
  type AdminUserDetail,
  type FreezeTargetName,
} from '@verdant/api';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Form,
  Input,
  Modal,
  Space,
  Spin,
  Switch,
  Table,
  Tabs,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSession } from '../../session';
import { UserTags } from './UsersPage';

interface Paged<T> {
  items: T[];
  total: number;
}

const when = (v: string | null) => (v ? new Date(v).toLocaleString() : '—');

/** One user: profile, controls (freezes, referral membership), balances, ledger and activity. */
export function UserDetail({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const isAdmin = useSession()?.operator.role === 'admin';
  const detail = useQuery({
    queryKey: ['admin', 'user', userId],
    queryFn: () => api.get<AdminUserDetail>(AdminPaths.userDetail, { user_id: userId }),
  });
  if (detail.isLoading) return <Spin />;
  if (detail.error) return <Alert type="error" showIcon title={detail.error.message} />;
  const d = detail.data!;
  const u = d.user;

  const activity = (rows: AdminActivityRow[]) => (
    <Table<AdminActivityRow>
      rowKey="id"
      size="small"
      dataSource={rows}
      pagination={{ pageSize: 10, showSizeChanger: false }}
      locale={{ emptyText: t('users.noActivity') }}
      columns={[
        { title: '#', dataIndex: 'id', width: 80 },
        { title: t('users.item'), dataIndex: 'title' },
        { title: t('users.status'), dataIndex: 'status' },
        { title: t('users.amount'), dataIndex: 'amount' },
        { title: t('users.what'), dataIndex: 'detail' },
        { title: t('users.time'), dataIndex: 'created_at', render: when },
      ]}
    />
  );

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Descriptions bordered size="small" column={2}>
        <Descriptions.Item label={t('users.id')}>{u.id}</Descriptions.Item>
        <Descriptions.Item label={t('users.account')}>{u.account}</Descriptions.Item>
        <Descriptions.Item label={t('users.nickname')}>{u.nickname}</Descriptions.Item>
        <Descriptions.Item label={t('users.inviteCode')}>{u.invite_code}</Descriptions.Item>
        <Descriptions.Item label={t('users.verification')}>
          {t(`users.kyc.${u.verification}`)} / {t(`users.kyc.${u.advanced_verification}`)}
        </Descriptions.Item>
        <Descriptions.Item label={t('users.controls')}>
          <UserTags user={u} />
        </Descriptions.Item>
        <Descriptions.Item label={t('users.registered')}>{when(u.created_at)}</Descriptions.Item>
        <Descriptions.Item label={t('users.lastLogin')}>
          {when(u.last_login_at)} {d.last_login_ip ?? ''}
        </Descriptions.Item>
        <Descriptions.Item label={t('users.invitedBy')}>{d.inviter_account ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('users.demoFunds')}>
          {d.demo_funds
            ? `${d.demo_funds.amount} ${d.demo_funds.symbol} · ${when(d.demo_funds.created_at)}`
            : '—'}
        </Descriptions.Item>
      </Descriptions>
      {isAdmin ? <FreezeControls detail={d} /> : null}
      {isAdmin ? <ReferralMember userId={userId} /> : null}
      <Tabs
        items={[
          {
            key: 'balances',
            label: t('users.balances'),
            children: (
              <Table<AdminBalance>
                rowKey={(b) => `${b.type}-${b.currency_id}`}
                size="small"
                pagination={false}
                dataSource={d.balances}
                locale={{ emptyText: t('users.noBalances') }}
                columns={[
                  {
                    title: t('users.accountType'),
                    dataIndex: 'type',
                    render: (v: string) => t(`users.accounts.${v}`),
                  },
                  { title: t('users.currency'), dataIndex: 'symbol' },
                  { title: t('users.available'), dataIndex: 'available' },
                  { title: t('users.frozen'), dataIndex: 'frozen' },
                  { title: t('users.total'), dataIndex: 'total' },
                ]}
              />
            ),
          },
          { key: 'ledger', label: t('users.ledger'), children: <LedgerEntries userId={userId} /> },
          { key: 'spot', label: t('users.spotOrders'), children: activity(d.spot_orders) },
          { key: 'contract', label: t('users.contracts'), children: activity(d.contract_positions) },
          { key: 'options', label: t('users.options'), children: activity(d.option_orders) },
          { key: 'trust', label: t('users.trust'), children: activity(d.trust_orders) },
          {
            key: 'referrals',
            label: t('users.referrals', { count: d.invitee_count }),
            children: (
              <Table
                rowKey="id"
                size="small"
                dataSource={d.invitees}
                pagination={{ pageSize: 10, showSizeChanger: false }}
                locale={{ emptyText: t('users.noReferrals') }}
                columns={[
                  { title: t('users.id'), dataIndex: 'id', width: 80 },
                  { title: t('users.account'), dataIndex: 'account' },
                  { title: t('users.registered'), dataIndex: 'created_at', render: when },
                ]}
              />
            ),
          },
        ]}
      />
    </Space>
  );
}

function LedgerEntries({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['admin', 'user', userId, 'ledger', page],
    queryFn: () =>
      api.get<Paged<AdminLedgerEntry>>(AdminPaths.ledgerEntries, { user_id: userId, page, limit: 20 }),
  });
  if (list.error) return <Alert type="error" showIcon title={list.error.message} />;
  return (
    <Table<AdminLedgerEntry>
      rowKey="id"
      size="small"
      loading={list.isFetching}
      dataSource={list.data?.items ?? []}
      locale={{ emptyText: t('users.noActivity') }}
      pagination={{
        current: page,
        pageSize: 20,
        total: list.data?.total ?? 0,
        showSizeChanger: false,
        onChange: setPage,
      }}
      columns={[
        { title: t('users.time'), dataIndex: 'created_at', render: when },
        {
          title: t('users.accountType'),
          dataIndex: 'account_type',
          render: (v: string) => t(`users.accounts.${v}`),
        },
        { title: t('users.currency'), dataIndex: 'symbol' },
        { title: t('users.reason'), dataIndex: 'reason' },
        { title: t('users.available'), dataIndex: 'delta_available' },
        { title: t('users.frozen'), dataIndex: 'delta_frozen' },
        { title: t('users.after'), render: (_, r) => `${r.available_after} / ${r.frozen_after}` },
      ]}
    />
  );
}

/** Freeze or unfreeze login and withdrawals; each asks for a reason (kept in the audit log). */
function FreezeControls({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<{ target: FreezeTargetName; freeze: boolean } | null>(null);
  const [form] = Form.useForm<{ reason: string }>();
  const u = detail.user;
  const change = useMutation({
    mutationFn: (v: { target: FreezeTargetName; freeze: boolean; reason: string }) =>
      api.post<AdminUserDetail>(v.freeze ? AdminPaths.userFreeze : AdminPaths.userUnfreeze, {
        user_id: String(u.id),
        target: v.target,
        reason: v.reason,
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(['admin', 'user', String(u.id)], next);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
      setAsking(null);
      form.resetFields();
      void message.success(t('users.saved'));
    },
  });
  const button = (target: FreezeTargetName, frozen: boolean) => (
    <Button danger={!frozen} onClick={() => setAsking({ target, freeze: !frozen })}>
      {t(`users.${frozen ? 'unfreeze' : 'freeze'}.${target}`)}
    </Button>
  );
  return (
    <>
      <Space wrap>
        {button('login', u.status === 'disabled')}
        {button('withdraw', u.withdraw_frozen)}
      </Space>
      <Modal
        open={asking !== null}
        title={asking ? t(`users.${asking.freeze ? 'freeze' : 'unfreeze'}.${asking.target}`) : ''}
        okText={t('common.confirm')}
        cancelText={t('common.cancel')}
        confirmLoading={change.isPending}
        onCancel={() => {
          setAsking(null);
          change.reset();
        }}
        onOk={() => form.submit()}
      >
        <Typography.Paragraph>{asking ? t(`users.freezeHelp.${asking.target}`) : ''}</Typography.Paragraph>
        {change.error ? (
          <Alert type="error" showIcon title={change.error.message} style={{ marginBottom: 12 }} />
        ) : null}
        <Form
          form={form}
          layout="vertical"
          onFinish={(v) => asking && change.mutate({ ...asking, reason: v.reason })}
        >
          <Form.Item
            name="reason"
            label={t('users.reason')}
            rules={[{ required: true, whitespace: true, message: t('users.reasonRequired') }]}
          >
            <Input.TextArea rows={3} maxLength={200} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}

/** Exclusive referral status and rebate rate, through the referral module's operator API. */
function ReferralMember({ userId }: { userId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const key = ['admin', 'user', userId, 'referral'];
  const member = useQuery({
    queryKey: key,
    queryFn: () => api.get<AdminReferralMember>(AdminReferralPaths.member, { user_id: userId }),
  });
  const save = useMutation({
    mutationFn: (v: { exclusive: boolean; rate?: string }) =>
      api.post<AdminReferralMember>(AdminReferralPaths.member, {
        user_id: userId,
        exclusive: v.exclusive ? '1' : '0',
        rate: v.exclusive ? (v.rate ?? '').trim() : '',
      }),
    onSuccess: (next) => {
      queryClient.setQueryData(key, next);
      void message.success(t('users.saved'));
    },
  });
  if (member.error) return <Alert type="error" showIcon title={member.error.message} />;
  if (!member.data) return null;
  const m = member.data;
  return (
    <Form
      layout="inline"
      key={`${m.exclusive}-${m.rate}`}
      initialValues={{ exclusive: m.exclusive, rate: m.exclusive ? m.rate : undefined }}
      onFinish={(v: { exclusive: boolean; rate?: string }) => save.mutate(v)}
    >
      <Typography.Text strong style={{ marginRight: 12 }}>
        {t('users.referralMember', { rate: m.rate, count: m.promoted_count, earnings: m.total_earnings })}
      </Typography.Text>
      <Form.Item name="exclusive" label={t('users.exclusive')} valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item name="rate" label={t('users.rate')}>
        <Input inputMode="decimal" placeholder="0.3" style={{ width: 110 }} />
      </Form.Item>
      <Form.Item>
        <Button htmlType="submit" loading={save.isPending}>
          {t('common.save')}
        </Button>
      </Form.Item>
      {save.error ? <Alert type="error" showIcon title={save.error.message} /> : null}
    </Form>
  );
}
