import { AdminConfigPaths, type ConfigMarketMaker } from '@verdant/api';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ConfigCard } from './ConfigCard';

const toForm = (v: ConfigMarketMaker) => ({ spread_bps: String(v.spread_bps), size_quote: v.size_quote });

/** The house market maker's spread and quote size. */
export default function MarketMakerPage() {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
        {t('nav.configMaker')}
      </Typography.Title>
      <ConfigCard<ConfigMarketMaker>
        titleKey="config.maker.title"
        helpKey="config.maker.help"
        getPath={AdminConfigPaths.marketMaker}
        savePath={AdminConfigPaths.saveMarketMaker}
        fields={[
          { name: 'spread_bps', kind: 'text', helpKey: 'config.maker.spreadHelp' },
          { name: 'size_quote', kind: 'text', helpKey: 'config.maker.sizeHelp' },
        ]}
        toForm={toForm}
        footer={(v) =>
          v.from_environment ? (
            <Typography.Paragraph type="secondary">{t('config.maker.fromEnvironment')}</Typography.Paragraph>
          ) : null
        }
      />
    </Space>
  );
}
