import { AdminConfigPaths, type ConfigMarket } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { ConfigTable } from './ConfigTable';

/** Spot markets: tick, lot, minimum order value and fees (new orders; resting orders keep theirs). */
export default function MarketsPage() {
  const { t } = useTranslation();
  return (
    <ConfigTable<ConfigMarket>
      titleKey="nav.configMarkets"
      helpKey="config.markets.help"
      listPath={AdminConfigPaths.markets}
      savePath={AdminConfigPaths.saveMarket}
      rowKey={(r) => String(r.id)}
      rowName={(r) => r.name}
      columns={[
        { title: t('config.fields.symbol'), dataIndex: 'name' },
        { title: t('config.fields.tick_size'), dataIndex: 'tick_size' },
        { title: t('config.fields.lot_size'), dataIndex: 'lot_size' },
        { title: t('config.fields.min_amount'), dataIndex: 'min_amount' },
        { title: t('config.fields.maker_fee'), dataIndex: 'maker_fee' },
        { title: t('config.fields.taker_fee'), dataIndex: 'taker_fee' },
      ]}
      fields={[
        { name: 'tick_size', kind: 'text', helpKey: 'config.markets.stepHelp' },
        { name: 'lot_size', kind: 'text', helpKey: 'config.markets.stepHelp' },
        { name: 'min_amount', kind: 'text' },
        { name: 'maker_fee', kind: 'text', helpKey: 'config.markets.feeHelp' },
        { name: 'taker_fee', kind: 'text', helpKey: 'config.markets.feeHelp' },
      ]}
      toForm={(r) => ({
        id: String(r.id),
        tick_size: r.tick_size,
        lot_size: r.lot_size,
        min_amount: r.min_amount,
        maker_fee: r.maker_fee,
        taker_fee: r.taker_fee,
      })}
    />
  );
}
