import TabBar from 'antd-mobile/es/components/tab-bar';
import {
  AppOutline,
  BankcardOutline,
  ClockCircleOutline,
  HistogramOutline,
  PieOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type PageName, paths, TAB_PAGES } from '../shared/paths';

type TabName = (typeof TAB_PAGES)[number];

const ICONS: Record<TabName, ReactNode> = {
  home: <AppOutline />,
  trade: <HistogramOutline />,
  option: <ClockCircleOutline />,
  template: <PieOutline />,
  assets: <BankcardOutline />,
};

export function AppTabBar({ current }: { current: PageName | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const active = current === 'homeAlias' ? 'home' : current;

  return (
    <nav className="v-tabbar" aria-label={t('tabs.label')}>
      <TabBar
        activeKey={active}
        safeArea={false}
        // Tabs replace each other, as in a native tab bar: switching tabs does not pile up history.
        onChange={(key) => navigate(paths[key as TabName], { replace: true })}
      >
        {TAB_PAGES.map((name) => (
          <TabBar.Item key={name} icon={ICONS[name]} title={t(`tabs.${name}`)} />
        ))}
      </TabBar>
    </nav>
  );
}
