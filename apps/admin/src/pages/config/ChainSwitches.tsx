import { useQuery } from '@tanstack/react-query';
import { AdminConfigPaths, type ConfigCurrency } from '@verdant/api';
import { Form, Space, Switch, Typography } from 'antd';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';

/** `chains_off` as the form keeps it: names separated by commas. */
const parse = (v: string | undefined) => (v ?? '').split(',').filter(Boolean);

/**
 * One switch per chain of the currency being edited (the form's `id`); the form's value is the
 * chains switched off, as the API reads them. The list is the currencies table's own query.
 */
export function ChainSwitches({
  value,
  onChange,
  ref,
}: {
  value?: string;
  onChange?: (v: string) => void;
  ref?: Ref<HTMLDivElement>;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const id = Form.useWatch((v: Record<string, unknown>) => v.id, { form, preserve: true });
  const list = useQuery({
    queryKey: ['admin', 'config', AdminConfigPaths.currencies],
    queryFn: () => api.get<ConfigCurrency[]>(AdminConfigPaths.currencies),
  });
  const chains = list.data?.find((c) => String(c.id) === String(id))?.chains ?? [];
  const off = parse(value);
  const toggle = (chain: string, on: boolean) => {
    const next = on ? off.filter((c) => c !== chain) : [...off, chain];
    onChange?.(chains.filter((c) => next.includes(c)).join(','));
  };
  return (
    <div ref={ref}>
      {chains.length === 0 ? (
        <Typography.Text type="secondary">{t('config.currencies.noChains')}</Typography.Text>
      ) : (
        <Space wrap size="large">
          {chains.map((chain) => (
            <Space key={chain}>
              <Switch
                checked={!off.includes(chain)}
                onChange={(on) => toggle(chain, on)}
                aria-label={t('config.currencies.chainSwitch', { chain })}
              />
              <span>{chain}</span>
            </Space>
          ))}
        </Space>
      )}
    </div>
  );
}
