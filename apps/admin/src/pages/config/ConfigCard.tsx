import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Spin } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { type ConfigField, ConfigFormItems, useConfigSave } from './ConfigTable';

type Values = Record<string, string | boolean>;

/** A configuration that is one record (the market maker, the bank account): a form in a card. */
export function ConfigCard<T>(p: {
  titleKey: string;
  helpKey: string;
  getPath: string;
  savePath: string;
  fields: ConfigField[];
  toForm: (v: T) => Values;
  footer?: (v: T) => ReactNode;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const current = useQuery({
    queryKey: ['admin', 'config', p.getPath],
    queryFn: () => api.get<T>(p.getPath),
  });
  const save = useConfigSave(p.savePath, p.getPath);
  const toForm = p.toForm;
  useEffect(() => {
    if (current.data) form.setFieldsValue(toForm(current.data));
  }, [current.data, form, toForm]);

  return (
    <Card title={t(p.titleKey)}>
      <p style={{ marginTop: 0 }}>{t(p.helpKey)}</p>
      {current.error ? <Alert type="error" showIcon title={current.error.message} /> : null}
      {current.isPending ? (
        <Spin aria-label={t('common.loading')} />
      ) : (
        <Form
          form={form}
          layout="vertical"
          style={{ maxWidth: 520 }}
          onFinish={(v) => void save(form, { ...v }, t(p.titleKey))}
        >
          <ConfigFormItems fields={p.fields} editing={false} />
          {current.data && p.footer ? p.footer(current.data) : null}
          <Button type="primary" htmlType="submit">
            {t('common.save')}
          </Button>
        </Form>
      )}
    </Card>
  );
}
