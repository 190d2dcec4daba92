import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Form, Input, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api } from '../../api';

/** One editable field of a configuration form; its label is `config.fields.<name>`. */
export interface ConfigField {
  name: string;
  kind: 'text' | 'flag';
  /** Shown under the field: the rule the server checks. */
  helpKey?: string;
  /** Read-only when editing an existing row (a key such as the delivery time's seconds). */
  fixed?: boolean;
  /** An input of the area's own (given value and onChange by the form), instead of a text box. */
  control?: ReactNode;
}

type Values = Record<string, string | boolean>;

/** Form values as the API reads them: text, flags as 1/0. */
const toBody = (v: Values): Record<string, string> =>
  Object.fromEntries(
    Object.entries(v).map(([k, x]) => [k, typeof x === 'boolean' ? (x ? '1' : '0') : (x ?? '')]),
  );

/**
 * Saves `values` after the operator confirms; an error the server ties to a field is shown at
 * that field, any other as a message. Answers whether it was saved.
 */
export function useConfigSave(savePath: string, listKey: string) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Record<string, string>) => api.post<unknown>(savePath, body),
  });
  return (form: ReturnType<typeof Form.useForm<Values>>[0], values: Values, title: string) =>
    new Promise<boolean>((resolve) => {
      modal.confirm({
        title: t('config.confirmTitle'),
        content: t('config.confirmText', { name: title }),
        okText: t('common.save'),
        cancelText: t('common.cancel'),
        onCancel: () => resolve(false),
        onOk: async () => {
          try {
            await save.mutateAsync(toBody(values));
            void queryClient.invalidateQueries({ queryKey: ['admin', 'config', listKey] });
            void message.success(t('config.saved'));
            resolve(true);
          } catch (e) {
            if (e instanceof ApiError && e.field && form.getFieldInstance(e.field) !== undefined)
              form.setFields([{ name: e.field, errors: [e.message] }]);
            else void message.error((e as Error).message);
            resolve(false);
          }
        },
      });
    });
}

/** The form's fields, each labelled, with the server's rule as help. */
export function ConfigFormItems({ fields, editing }: { fields: ConfigField[]; editing: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {fields.map((f) => (
        <Form.Item
          key={f.name}
          name={f.name}
          label={t(`config.fields.${f.name}`)}
          extra={f.helpKey ? t(f.helpKey) : undefined}
          valuePropName={f.kind === 'flag' ? 'checked' : 'value'}
        >
          {f.control ? (
            f.control
          ) : f.kind === 'flag' ? (
            <Switch aria-label={t(`config.fields.${f.name}`)} />
          ) : (
            <Input disabled={editing && f.fixed} autoComplete="off" />
          )}
        </Form.Item>
      ))}
    </>
  );
}

export interface ConfigTableProps<T> {
  titleKey: string;
  helpKey: string;
  listPath: string;
  savePath: string;
  rowKey: (row: T) => string;
  /** What the drawer's title and the confirmation name the row by. */
  rowName: (row: T) => string;
  columns: ColumnsType<T>;
  fields: ConfigField[];
  /** The form's values for a row (every field as text or a flag). */
  toForm: (row: T) => Values;
  /** Values of a new row ("Add"), when the area allows adding. */
  blank?: Values;
  extra?: ReactNode;
}

/**
 * One configuration area: its rows in a table, an edit drawer per row (and "Add" where the area
 * has new rows), a confirmation before saving, and the server's errors at their fields.
 */
export function ConfigTable<T extends object>(p: ConfigTableProps<T>) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [open, setOpen] = useState<{ row: T | null } | null>(null);
  const list = useQuery({
    queryKey: ['admin', 'config', p.listPath],
    queryFn: () => api.get<T[]>(p.listPath),
  });
  const save = useConfigSave(p.savePath, p.listPath);
  const edit = (row: T | null) => {
    form.resetFields();
    form.setFieldsValue(row ? p.toForm(row) : (p.blank ?? {}));
    setOpen({ row });
  };
  const title = open?.row ? p.rowName(open.row) : t('config.new');
  const submit = async () => {
    const values = { ...(open?.row ? p.toForm(open.row) : {}), ...form.getFieldsValue(true) };
    if (await save(form, values, title)) setOpen(null);
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
          {t(p.titleKey)}
        </Typography.Title>
        {p.blank ? (
          <Button type="primary" onClick={() => edit(null)}>
            {t('config.add')}
          </Button>
        ) : null}
      </Space>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t(p.helpKey)}
      </Typography.Paragraph>
      {p.extra}
      {list.error ? <Alert type="error" showIcon title={list.error.message} /> : null}
      <Table<T>
        rowKey={p.rowKey}
        size="small"
        loading={list.isFetching}
        dataSource={list.data ?? []}
        locale={{ emptyText: t('config.none') }}
        pagination={false}
        columns={[
          ...p.columns,
          {
            title: '',
            key: 'edit',
            width: 90,
            render: (_, row) => (
              <Button
                size="small"
                onClick={() => edit(row)}
                aria-label={`${t('config.edit')} ${p.rowName(row)}`}
              >
                {t('config.edit')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer
        open={open !== null}
        onClose={() => setOpen(null)}
        title={title}
        size="large"
        forceRender
        extra={
          <Space>
            <Button onClick={() => setOpen(null)}>{t('common.cancel')}</Button>
            <Button type="primary" onClick={() => void submit()}>
              {t('common.save')}
            </Button>
          </Space>
        }
      >
        <Form form={form} layout="vertical" onFinish={() => void submit()}>
          <ConfigFormItems fields={p.fields} editing={!!open?.row} />
        </Form>
      </Drawer>
    </Space>
  );
}

/** A yes/no cell. */
export function OnOff({ on }: { on: boolean }) {
  const { t } = useTranslation();
  return <Tag color={on ? 'green' : 'default'}>{t(on ? 'config.on' : 'config.off')}</Tag>;
}
