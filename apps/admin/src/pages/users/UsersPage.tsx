import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AdminPaths, type AdminUser } from '@verdant/api';
import { Alert, Drawer, Input, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { api } from '../../api';
import { UserDetail } from './UserDetail';

interface Paged<T> {
  items: T[];
  total: number;
}

const PAGE_SIZE = 20;

/** Users (issue 23): search by account, phone, e-mail, invite code or id; a row opens the detail. */
export default function UsersPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [q, setQ] = useState(params.get('q') ?? '');
  const [page, setPage] = useState(1);
  const search = params.get('q') ?? '';
  const openId = params.get('id');
  const list = useQuery({
    queryKey: ['admin', 'users', search, page],
    queryFn: () => api.get<Paged<AdminUser>>(AdminPaths.users, { q: search, page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const set = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v) p.set(k, v);
      else p.delete(k);
    }
    setParams(p, { replace: true });
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
        {t('nav.users')}
      </Typography.Title>
      <Input.Search
        aria-label={t('users.search')}
        placeholder={t('users.search')}
        allowClear
        enterButton={t('common.search')}
        style={{ maxWidth: 520 }}
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onSearch={(v) => {
          setPage(1);
          set({ q: v.trim() || null });
        }}
      />
      {list.error ? <Alert type="error" showIcon title={list.error.message} /> : null}
      <Table<AdminUser>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        locale={{ emptyText: t('users.none') }}
        onRow={(r) => ({ onClick: () => set({ id: String(r.id) }), style: { cursor: 'pointer' } })}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          { title: t('users.id'), dataIndex: 'id', width: 80 },
          {
            title: t('users.account'),
            dataIndex: 'account',
            render: (v: string, r) => (
              <Typography.Link onClick={() => set({ id: String(r.id) })}>{v}</Typography.Link>
            ),
          },
          { title: t('users.nickname'), dataIndex: 'nickname' },
          { title: t('users.inviteCode'), dataIndex: 'invite_code' },
          {
            title: t('users.verification'),
            dataIndex: 'verification',
            render: (v: string) => t(`users.kyc.${v}`),
          },
          {
            title: t('users.controls'),
            render: (_, r) => <UserTags user={r} />,
          },
          {
            title: t('users.registered'),
            dataIndex: 'created_at',
            render: (v: string) => new Date(v).toLocaleString(),
          },
        ]}
      />
      <Drawer
        open={openId !== null}
        width={980}
        title={t('users.detail')}
        onClose={() => set({ id: null })}
        destroyOnHidden
      >
        {openId ? <UserDetail userId={openId} /> : null}
      </Drawer>
    </Space>
  );
}

export function UserTags({ user }: { user: Pick<AdminUser, 'status' | 'withdraw_frozen'> }) {
  const { t } = useTranslation();
  return (
    <Space size={4} wrap>
      {user.status === 'disabled' ? <Tag color="red">{t('users.loginFrozen')}</Tag> : null}
      {user.withdraw_frozen ? <Tag color="orange">{t('users.withdrawFrozen')}</Tag> : null}
      {user.status !== 'disabled' && !user.withdraw_frozen ? (
        <Tag color="green">{t('users.normal')}</Tag>
      ) : null}
    </Space>
  );
}
