import { useQuery } from '@tanstack/react-query';
import { type AdminSupportContext, AdminSupportPaths } from '@verdant/api';
import { Card, Descriptions, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';

/** The user beside the chat: account, verification, freezes and balances (admin/support/context). */
export function UserContext({ conversationId }: { conversationId: number }) {
  const { t } = useTranslation();
  const ctx = useQuery({
    queryKey: ['admin', 'support', 'context', conversationId],
    queryFn: () =>
      api.get<AdminSupportContext>(AdminSupportPaths.context, { conversation_id: conversationId }),
  });
  const u = ctx.data;
  return (
    <Card className="v-inbox__context" title={t('support.user')} loading={ctx.isPending}>
      {u && (
        <>
          <Descriptions column={1} size="small">
            <Descriptions.Item label={t('support.account')}>{u.account}</Descriptions.Item>
            <Descriptions.Item label={t('support.userId')}>{u.user_id}</Descriptions.Item>
            <Descriptions.Item label={t('support.language')}>{u.lang}</Descriptions.Item>
            <Descriptions.Item label={t('support.verification')}>
              <Tag>{u.verification}</Tag> <Tag>{u.advanced_verification}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('support.freezes')}>
              {u.status === 'frozen' && <Tag color="red">{t('support.loginFrozen')}</Tag>}
              {u.withdraw_frozen && <Tag color="red">{t('support.withdrawFrozen')}</Tag>}
              {u.status !== 'frozen' && !u.withdraw_frozen && t('support.none')}
            </Descriptions.Item>
            <Descriptions.Item label={t('support.registered')}>
              {new Date(u.created_at).toLocaleString()}
            </Descriptions.Item>
          </Descriptions>
          <Table
            size="small"
            pagination={false}
            rowKey={(b) => `${b.type}:${b.symbol}`}
            dataSource={u.balances}
            locale={{ emptyText: t('support.noBalances') }}
            columns={[
              { title: t('support.accountType'), dataIndex: 'type' },
              { title: t('support.coin'), dataIndex: 'symbol' },
              { title: t('support.available'), dataIndex: 'available', align: 'right' },
              { title: t('support.frozen'), dataIndex: 'frozen', align: 'right' },
            ]}
          />
        </>
      )}
    </Card>
  );
}
