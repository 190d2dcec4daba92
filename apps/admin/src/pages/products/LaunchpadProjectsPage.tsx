import { type ConfigLaunchpadProject, ProductConfigPaths } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { ConfigTable } from '../config/ConfigTable';
import { langFields, langValues } from './TrustProductsPage';

/** New-coin projects: create one, or edit what does not touch subscriptions already made. */
export default function LaunchpadProjectsPage() {
  const { t, i18n } = useTranslation();
  const nameOf = (r: ConfigLaunchpadProject) => r.name[i18n.language] ?? r.name.en ?? r.coin;
  const time = { kind: 'text' as const, helpKey: 'config.products.timeHelp' };
  return (
    <ConfigTable<ConfigLaunchpadProject>
      titleKey="nav.configLaunchpad"
      helpKey="config.products.launchpadHelp"
      listPath={ProductConfigPaths.launchpadProjects}
      savePath={ProductConfigPaths.saveLaunchpadProject}
      rowKey={(r) => String(r.id)}
      rowName={nameOf}
      columns={[
        { title: t('config.fields.id'), dataIndex: 'id', width: 60 },
        { title: t('config.fields.name_en'), key: 'name', render: (_, r) => `${nameOf(r)} (${r.coin})` },
        {
          title: t('config.fields.issue_price'),
          key: 'price',
          render: (_, r) => `${r.issue_price} ${r.pay_currency}`,
        },
        { title: t('config.fields.total_supply'), dataIndex: 'total_supply' },
        { title: t('config.products.subscribed'), dataIndex: 'subscribed' },
        { title: t('config.fields.ends_at'), dataIndex: 'ends_at' },
        { title: t('config.fields.launch_at'), dataIndex: 'launch_at' },
        { title: t('config.products.orders'), key: 'orders', render: (_, r) => `${r.passed} / ${r.orders}` },
        {
          title: t('config.products.listed'),
          dataIndex: 'listed',
          render: (v: boolean) => t(v ? 'config.on' : 'config.off'),
        },
      ]}
      fields={[
        ...langFields('name'),
        ...langFields('intro'),
        { name: 'coin', kind: 'text', helpKey: 'config.products.coinHelp' },
        { name: 'pay_currency', kind: 'text' },
        { name: 'issue_price', kind: 'text', helpKey: 'config.products.fixedHelp' },
        { name: 'total_supply', kind: 'text' },
        { name: 'user_min', kind: 'text' },
        { name: 'user_max', kind: 'text' },
        { name: 'starts_at', ...time },
        { name: 'ends_at', ...time },
        { name: 'launch_at', kind: 'text', helpKey: 'config.products.launchHelp' },
        { name: 'lockup_days', kind: 'text' },
        { name: 'expected_return', kind: 'text' },
        { name: 'recommend', kind: 'flag' },
        { name: 'tick_size', kind: 'text' },
        { name: 'lot_size', kind: 'text' },
        { name: 'sort', kind: 'text' },
      ]}
      toForm={(r) => ({
        id: String(r.id),
        ...langValues('name', r.name),
        ...langValues('intro', r.intro),
        coin: r.coin,
        pay_currency: r.pay_currency,
        issue_price: r.issue_price,
        total_supply: r.total_supply,
        user_min: r.user_min,
        user_max: r.user_max,
        starts_at: r.starts_at,
        ends_at: r.ends_at,
        launch_at: r.launch_at,
        lockup_days: String(r.lockup_days),
        expected_return: r.expected_return,
        recommend: r.recommend,
        tick_size: r.tick_size,
        lot_size: r.lot_size,
        sort: String(r.sort),
      })}
      blank={{
        ...langValues('name', {}),
        ...langValues('intro', {}),
        coin: '',
        pay_currency: 'USDT',
        issue_price: '',
        total_supply: '',
        user_min: '',
        user_max: '',
        starts_at: '',
        ends_at: '',
        launch_at: '',
        lockup_days: '0',
        expected_return: '0',
        recommend: false,
        tick_size: '0.0001',
        lot_size: '0.01',
        sort: '0',
      }}
    />
  );
}
