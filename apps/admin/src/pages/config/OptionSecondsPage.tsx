import { AdminConfigPaths, type ConfigOptionSeconds } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { ConfigTable, OnOff } from './ConfigTable';

/** Option delivery times per market: ratio, fee, stake range; add one or take it off sale. */
export default function OptionSecondsPage() {
  const { t } = useTranslation();
  return (
    <ConfigTable<ConfigOptionSeconds>
      titleKey="nav.configOptions"
      helpKey="config.options.help"
      listPath={AdminConfigPaths.optionSeconds}
      savePath={AdminConfigPaths.saveOptionSeconds}
      rowKey={(r) => `${r.symbol}:${r.seconds}`}
      rowName={(r) => `${r.name} · ${r.seconds}s`}
      columns={[
        { title: t('config.fields.symbol'), dataIndex: 'name' },
        { title: t('config.fields.seconds'), dataIndex: 'seconds' },
        { title: t('config.fields.profit_ratio'), dataIndex: 'profit_ratio' },
        { title: t('config.fields.fee_rate'), dataIndex: 'fee_rate' },
        { title: t('config.fields.min_amount'), dataIndex: 'min_amount' },
        { title: t('config.fields.max_amount'), dataIndex: 'max_amount' },
        { title: t('config.fields.enabled'), dataIndex: 'enabled', render: (v: boolean) => <OnOff on={v} /> },
      ]}
      fields={[
        { name: 'symbol', kind: 'text', fixed: true, helpKey: 'config.options.symbolHelp' },
        { name: 'seconds', kind: 'text', fixed: true, helpKey: 'config.options.secondsHelp' },
        { name: 'profit_ratio', kind: 'text', helpKey: 'config.options.ratioHelp' },
        { name: 'fee_rate', kind: 'text', helpKey: 'config.options.feeHelp' },
        { name: 'min_amount', kind: 'text' },
        { name: 'max_amount', kind: 'text' },
        { name: 'enabled', kind: 'flag', helpKey: 'config.options.enabledHelp' },
      ]}
      toForm={(r) => ({
        symbol: r.symbol,
        seconds: String(r.seconds),
        profit_ratio: r.profit_ratio,
        fee_rate: r.fee_rate,
        min_amount: r.min_amount,
        max_amount: r.max_amount,
        enabled: r.enabled,
      })}
      blank={{
        symbol: 'btcusdt',
        seconds: '',
        profit_ratio: '',
        fee_rate: '0.02',
        min_amount: '',
        max_amount: '',
        enabled: true,
      }}
    />
  );
}
