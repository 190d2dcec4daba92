import { useQuery, useQueryClient } from '@tanstack/react-query';
import { List, Popup } from 'antd-mobile';
import {
  BillOutline,
  CalculatorOutline,
  DownlandOutline,
  EnvironmentOutline,
  LockOutline,
  MessageOutline,
  QuestionCircleOutline,
  RightOutline,
  SetOutline,
  TeamOutline,
  UploadOutline,
  UserCircleOutline,
  UserContactOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type en from '../locales/en.json';
import { customerUrlQuery, openCustomerService } from '../shared/customer';
import { href, paths } from '../shared/paths';
import { isLoggedIn, useSession } from '../shared/session';
import './side-menu.css';

type MenuKey = keyof typeof en.menu;

interface Item {
  key: MenuKey;
  icon: ReactNode;
  to?: string;
  action?: () => void;
}

interface Props {
  open: boolean;
  onClose: () => void;
}

/** The menu behind Home's header button (spec §2, in the spec's order). */
export default function SideMenu({ open, onClose }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const session = useSession();
  const loggedIn = isLoggedIn(session);

  // Fetched while the menu is open, so "contact us" can open its window straight from the tap.
  useQuery({ ...customerUrlQuery(), enabled: open });

  const go = (to: string) => {
    onClose();
    navigate(to);
  };

  const items: Item[] = [
    { key: 'deposit', icon: <DownlandOutline />, to: paths.deposit },
    { key: 'withdraw', icon: <UploadOutline />, to: paths.withdraw },
    { key: 'referral', icon: <TeamOutline />, to: paths.promotion },
    { key: 'verification', icon: <UserContactOutline />, to: paths.verification },
    { key: 'security', icon: <LockOutline />, to: paths.security },
    { key: 'addresses', icon: <EnvironmentOutline />, to: paths.addressList },
    {
      key: 'contact',
      icon: <MessageOutline />,
      action: () => {
        onClose();
        void openCustomerService(queryClient, navigate).catch(() => {});
      },
    },
    { key: 'help', icon: <QuestionCircleOutline />, to: paths.helpCenter },
    { key: 'pricing', icon: <CalculatorOutline />, to: href('helpDetail', { id: 'pricing' }) },
    { key: 'settings', icon: <SetOutline />, to: paths.settings },
    { key: 'records', icon: <BillOutline />, to: paths.record },
  ];

  return (
    <Popup
      visible={open}
      onMaskClick={onClose}
      onClose={onClose}
      position="left"
      bodyClassName="v-side-menu"
      aria-label={t('menu.title')}
    >
      <button
        type="button"
        className="v-side-menu__profile"
        onClick={() => go(loggedIn ? paths.account : paths.loginChoose)}
      >
        <UserCircleOutline className="v-side-menu__avatar" />
        <span className="v-side-menu__who">
          {loggedIn && session.user ? (
            <>
              <strong>{session.user.nickname || session.user.account}</strong>
              <small>{session.user.account}</small>
            </>
          ) : (
            <>
              <strong>{t('menu.loginPrompt')}</strong>
              <small>{t('menu.loginHint')}</small>
            </>
          )}
        </span>
        <RightOutline className="v-side-menu__chevron" />
      </button>
      <List className="v-side-menu__list">
        {items.map((item) => (
          <List.Item
            key={item.key}
            prefix={item.icon}
            arrowIcon
            onClick={() => (item.action ? item.action() : item.to && go(item.to))}
          >
            {t(`menu.${item.key}`)}
          </List.Item>
        ))}
      </List>
    </Popup>
  );
}
