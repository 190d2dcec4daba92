import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AdminPaths, OPERATOR_ROLES, type OperatorRow } from '@verdant/api';
import {
  Alert,
  App,
  Button,
  Form,
  Input,
  Modal,
  Popconfirm,
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
import { TONE } from '../../ui/tone';

type Dialog = { kind: 'create' } | { kind: 'password'; op: OperatorRow } | null;

/** Operators (admins): create with a role, disable or enable, reset a password or the second factor. */
export default function OperatorsPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const me = useSession()?.operator;
  const client = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [form] = Form.useForm<Record<string, string>>();
  const list = useQuery({
    queryKey: ['admin', 'operators'],
    queryFn: () => api.get<OperatorRow[]>(AdminPaths.operators),
  });
  const act = useMutation({
    mutationFn: ({ path, body }: { path: string; body: Record<string, string> }) =>
      api.post<OperatorRow>(path, body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['admin', 'operators'] });
      void message.success(t('operators.done'));
    },
    onError: (e: Error) => void message.error(e.message),
  });
  const run = (path: string, body: Record<string, string>) =>
    act.mutateAsync({ path, body }).catch(() => undefined);

  const submitDialog = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v || !dialog) return;
    const ok =
      dialog.kind === 'create'
        ? await run(AdminPaths.createOperator, {
            username: v.username ?? '',
            password: v.password ?? '',
            role: v.role ?? '',
          })
        : await run(AdminPaths.resetOperatorPassword, {
            id: String(dialog.op.id),
            password: v.password ?? '',
          });
    if (ok) setDialog(null);
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
          {t('nav.operators')}
        </Typography.Title>
        <Button type="primary" onClick={() => setDialog({ kind: 'create' })}>
          {t('operators.create')}
        </Button>
      </Space>
      {list.error ? <Alert type="error" showIcon title={list.error.message} /> : null}
      <Table<OperatorRow>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={list.isFetching}
        dataSource={list.data ?? []}
        pagination={false}
        columns={[
          { title: t('review.id'), dataIndex: 'id', width: 70 },
          { title: t('login.username'), dataIndex: 'username' },
          { title: t('operators.role'), dataIndex: 'role', render: (r: string) => t(`roles.${r}`) },
          {
            title: t('review.state'),
            render: (_, o) => (
              <Space size={4} wrap>
                {o.disabled ? (
                  <Tag style={TONE.red}>{t('operators.disabled')}</Tag>
                ) : (
                  <Tag style={TONE.green}>{t('operators.active')}</Tag>
                )}
                {o.totp_enabled ? (
                  <Tag style={TONE.grey}>{t('operators.totpOn')}</Tag>
                ) : (
                  <Tag style={TONE.gold}>{t('operators.totpOff')}</Tag>
                )}
                {o.must_change_password ? <Tag style={TONE.gold}>{t('operators.mustChange')}</Tag> : null}
              </Space>
            ),
          },
          {
            title: t('operators.created'),
            dataIndex: 'created_at',
            render: (v: string) => new Date(v).toLocaleDateString(),
          },
          {
            title: t('review.actions'),
            // always in view: a wide row scrolls under it
            fixed: 'right',
            render: (_, o) => (
              <Space wrap>
                {o.id === me?.id ? null : (
                  <Popconfirm
                    title={
                      o.disabled
                        ? t('operators.enableConfirm', { name: o.username })
                        : t('operators.disableConfirm', { name: o.username })
                    }
                    okText={t('common.confirm')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ loading: act.isPending }}
                    onConfirm={() =>
                      run(AdminPaths.disableOperator, { id: String(o.id), disabled: o.disabled ? '0' : '1' })
                    }
                  >
                    <Button size="small" danger={!o.disabled}>
                      {o.disabled ? t('operators.enable') : t('operators.disable')}
                    </Button>
                  </Popconfirm>
                )}
                <Button size="small" onClick={() => setDialog({ kind: 'password', op: o })}>
                  {t('operators.resetPassword')}
                </Button>
                {o.totp_enabled ? (
                  <Popconfirm
                    title={t('operators.resetTotpConfirm', { name: o.username })}
                    okText={t('common.confirm')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ loading: act.isPending }}
                    onConfirm={() => run(AdminPaths.resetOperatorTotp, { id: String(o.id) })}
                  >
                    <Button size="small">{t('operators.resetTotp')}</Button>
                  </Popconfirm>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={dialog !== null}
        title={
          dialog?.kind === 'create'
            ? t('operators.create')
            : t('operators.resetPasswordOf', { name: dialog?.op.username })
        }
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: act.isPending, disabled: act.isPending }}
        onCancel={() => setDialog(null)}
        onOk={submitDialog}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" preserve={false} initialValues={{ role: 'reviewer' }}>
          {dialog?.kind === 'create' ? (
            <>
              <Form.Item
                name="username"
                label={t('login.username')}
                rules={[{ required: true, message: t('login.usernameRequired') }]}
              >
                <Input autoComplete="off" />
              </Form.Item>
              <Form.Item name="role" label={t('operators.role')} rules={[{ required: true }]}>
                <Select options={OPERATOR_ROLES.map((r) => ({ value: r, label: t(`roles.${r}`) }))} />
              </Form.Item>
            </>
          ) : null}
          <Form.Item
            name="password"
            label={t('operators.temporaryPassword')}
            extra={t('operators.temporaryHint')}
            rules={[{ required: true, min: 10, message: t('login.newPasswordRule') }]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Form>
      </Modal>
    </Space>
  );
}
