import type { AccountType } from '@verdant/api';
import { Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

interface Props {
  value: AccountType;
  onChange: (type: AccountType) => void;
}

/** Phone / E-mail switch of the login, register and recovery forms. */
export function AccountTypeTabs({ value, onChange }: Props) {
  const { t } = useTranslation();
  return (
    <Tabs
      className="v-user-account-tabs"
      activeKey={value}
      onChange={(key) => onChange(key === 'email' ? 'email' : 'mobile')}
    >
      <Tabs.Tab key="mobile" title={t('auth.phone')} />
      <Tabs.Tab key="email" title={t('auth.email')} />
    </Tabs>
  );
}
