import { AdminConfigPaths, type ConfigContract } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { ConfigTable } from './ConfigTable';

/** Contract markets: lot value, leverage multiples, fees, maintenance rate (new positions only). */
export default function ContractsPage() {
  const { t } = useTranslation();
  return (
    <ConfigTable<ConfigContract>
      titleKey="nav.configContracts"
      helpKey="config.contracts.help"
      listPath={AdminConfigPaths.contracts}
      savePath={AdminConfigPaths.saveContract}
      rowKey={(r) => String(r.id)}
      rowName={(r) => r.name}
      columns={[
        { title: t('config.fields.symbol'), dataIndex: 'name' },
        { title: t('config.fields.lot_value'), dataIndex: 'lot_value' },
        { title: t('config.fields.multiples'), render: (_, r) => r.multiples.map((m) => `${m}×`).join(' ') },
        { title: t('config.fields.open_fee_rate'), dataIndex: 'open_fee_rate' },
        { title: t('config.fields.close_fee_rate'), dataIndex: 'close_fee_rate' },
        { title: t('config.fields.maintenance_rate'), dataIndex: 'maintenance_rate' },
      ]}
      fields={[
        { name: 'lot_value', kind: 'text' },
        { name: 'multiples', kind: 'text', helpKey: 'config.contracts.multiplesHelp' },
        { name: 'open_fee_rate', kind: 'text' },
        { name: 'close_fee_rate', kind: 'text' },
        { name: 'maintenance_rate', kind: 'text', helpKey: 'config.contracts.maintenanceHelp' },
      ]}
      toForm={(r) => ({
        id: String(r.id),
        lot_value: r.lot_value,
        multiples: r.multiples.join(','),
        open_fee_rate: r.open_fee_rate,
        close_fee_rate: r.close_fee_rate,
        maintenance_rate: r.maintenance_rate,
      })}
    />
  );
}
