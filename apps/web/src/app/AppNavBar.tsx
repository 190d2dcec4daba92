import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NAVBAR_SLOT_ID } from '../shared/ui/NavBarAction';

interface Props {
  title: string;
  onBack: () => void;
  right?: ReactNode;
}

/** The custom dark navigation bar of every non-tab page: back arrow, centred title. */
export function AppNavBar({ title, onBack, right }: Props) {
  const { t } = useTranslation();
  return (
    <header className="v-navbar">
      <button type="button" className="v-navbar__back" aria-label={t('common.back')} onClick={onBack}>
        <LeftOutline />
      </button>
      <h1 className="v-navbar__title">{title}</h1>
      <div id={NAVBAR_SLOT_ID} className="v-navbar__action">
        {right}
      </div>
    </header>
  );
}
