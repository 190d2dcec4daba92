import { type ConfigTrustProduct, LANGS, ProductConfigPaths } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { type ConfigField, ConfigTable } from '../config/ConfigTable';

/** Name per language as form fields (name_en…): English required, the others fall back to it. */
export const langFields = (prefix: string): ConfigField[] =>
  LANGS.map((l) => ({ name: `${prefix}_${l}`, kind: 'text' as const }));
export const langValues = (prefix: string, texts: Record<string, string>) =>
  Object.fromEntries(LANGS.map((l) => [`${prefix}_${l}`, texts[l] ?? '']));

/** Locked deposit products: create one, or change its terms (orders keep the terms they were bought with). */
export default function TrustProductsPage() {
  const { t, i18n } = useTranslation();
  const nameOf = (r: ConfigTrustProduct) => r.name[i18n.language] ?? r.name.en ?? String(r.id);
  return (
    <ConfigTable<ConfigTrustProduct>
      titleKey="nav.configTrust"
      helpKey="config.products.trustHelp"
      listPath={ProductConfigPaths.trustProducts}
      savePath={ProductConfigPaths.saveTrustProduct}
      rowKey={(r) => String(r.id)}
      rowName={nameOf}
      columns={[
        { title: t('config.fields.id'), dataIndex: 'id', width: 60 },
        { title: t('config.fields.name_en'), key: 'name', render: (_, r) => nameOf(r) },
        { title: t('config.fields.currency'), dataIndex: 'currency' },
        { title: t('config.fields.term_days'), dataIndex: 'term_days' },
        { title: t('config.fields.daily_rate'), dataIndex: 'daily_rate' },
        { title: t('config.fields.min_amount'), dataIndex: 'min_amount' },
        {
          title: t('config.fields.capacity'),
          key: 'capacity',
          render: (_, r) => `${r.sold} / ${r.capacity}`,
        },
        {
          title: t('config.fields.state'),
          dataIndex: 'state',
          render: (v: string) => t(`config.products.state.${v}`),
        },
        {
          title: t('config.fields.penalty_rule'),
          key: 'rule',
          render: (_, r) => `${r.penalty_rule} × ${r.penalty_rate}`,
        },
        { title: t('config.products.orders'), dataIndex: 'orders' },
      ]}
      fields={[
        ...langFields('name'),
        { name: 'currency', kind: 'text', helpKey: 'config.products.currencyHelp' },
        { name: 'term_days', kind: 'text' },
        { name: 'min_amount', kind: 'text' },
        { name: 'daily_rate', kind: 'text', helpKey: 'config.products.rateHelp' },
        { name: 'state', kind: 'text', helpKey: 'config.products.stateHelp' },
        { name: 'capacity', kind: 'text', helpKey: 'config.products.capacityHelp' },
        { name: 'penalty_rule', kind: 'text', helpKey: 'config.products.ruleHelp' },
        { name: 'penalty_rate', kind: 'text' },
        { name: 'sort', kind: 'text' },
      ]}
      toForm={(r) => ({
        id: String(r.id),
        ...langValues('name', r.name),
        currency: r.currency,
        term_days: String(r.term_days),
        min_amount: r.min_amount,
        daily_rate: r.daily_rate,
        state: r.state,
        capacity: r.capacity,
        penalty_rule: r.penalty_rule,
        penalty_rate: r.penalty_rate,
        sort: String(r.sort),
      })}
      blank={{
        ...langValues('name', {}),
        currency: 'USDT',
        term_days: '',
        min_amount: '',
        daily_rate: '',
        state: 'soon',
        capacity: '',
        penalty_rule: 'daily_interest',
        penalty_rate: '1.5',
        sort: '0',
      }}
    />
  );
}
