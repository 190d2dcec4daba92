import { AdminConfigPaths, type ConfigCurrency } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { ChainSwitches } from './ChainSwitches';
import { ConfigTable, OnOff } from './ConfigTable';

/** Currencies and their chains: minimums, withdrawal fee, deposits and withdrawals on or off. */
export default function CurrenciesPage() {
  const { t } = useTranslation();
  return (
    <ConfigTable<ConfigCurrency>
      titleKey="nav.configCurrencies"
      helpKey="config.currencies.help"
      listPath={AdminConfigPaths.currencies}
      savePath={AdminConfigPaths.saveCurrency}
      rowKey={(r) => String(r.id)}
      rowName={(r) => r.symbol}
      columns={[
        { title: t('config.currencies.symbol'), render: (_, r) => `${r.symbol} · ${r.name}` },
        {
          title: t('config.currencies.chains'),
          render: (_, r) =>
            r.chains
              .map((c) => (r.chains_off.includes(c) ? t('config.currencies.chainOff', { chain: c }) : c))
              .join(', ') || '—',
        },
        { title: t('config.fields.min_deposit'), dataIndex: 'min_deposit' },
        { title: t('config.fields.min_withdraw'), dataIndex: 'min_withdraw' },
        { title: t('config.fields.withdraw_fee'), dataIndex: 'withdraw_fee' },
        {
          title: t('config.fields.can_deposit'),
          dataIndex: 'can_deposit',
          render: (v: boolean) => <OnOff on={v} />,
        },
        {
          title: t('config.fields.can_withdraw'),
          dataIndex: 'can_withdraw',
          render: (v: boolean) => <OnOff on={v} />,
        },
      ]}
      fields={[
        { name: 'min_deposit', kind: 'text' },
        { name: 'min_withdraw', kind: 'text' },
        { name: 'withdraw_fee', kind: 'text', helpKey: 'config.currencies.feeHelp' },
        { name: 'can_deposit', kind: 'flag' },
        { name: 'can_withdraw', kind: 'flag' },
        {
          name: 'chains_off',
          kind: 'text',
          helpKey: 'config.currencies.chainsHelp',
          control: <ChainSwitches />,
        },
      ]}
      toForm={(r) => ({
        id: String(r.id),
        min_deposit: r.min_deposit,
        min_withdraw: r.min_withdraw,
        withdraw_fee: r.withdraw_fee,
        can_deposit: r.can_deposit,
        can_withdraw: r.can_withdraw,
        chains_off: r.chains_off.join(','),
      })}
    />
  );
}
