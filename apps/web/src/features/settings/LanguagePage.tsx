import { LANGS, type Lang } from '@verdant/api';
import { List, Toast } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLang, LANG_NAMES } from '../../shared/i18n';
import { isLoggedIn, useSession } from '../../shared/session';
import { saveServerLang } from './api';
import './settings.css';

export default function LanguagePage() {
  const { t } = useTranslation(); // re-renders on a language change
  const session = useSession();
  const [busy, setBusy] = useState<Lang | null>(null);
  const current = currentLang();

  const choose = async (lang: Lang) => {
    if (lang === current || busy) return;
    setBusy(lang);
    try {
      await changeLanguage(lang); // the `lang` header follows from here on
    } catch {
      setBusy(null);
      Toast.show({ content: t('common.error') });
      return;
    }
    setBusy(null);
    if (isLoggedIn(session)) saveServerLang(lang).catch(() => {}); // the client already showed why
  };

  return (
    <div className="v-settings">
      <List className="v-settings-list">
        {LANGS.map((lang) => (
          <List.Item
            key={lang}
            arrowIcon={false}
            onClick={() => void choose(lang)}
            extra={
              lang === current ? (
                <CheckOutline className="v-settings-check" aria-label={t('settings.selected')} />
              ) : null
            }
            aria-current={lang === current ? 'true' : undefined}
          >
            <span lang={lang === 'hk' ? 'zh-HK' : lang === 'zh' ? 'zh-CN' : lang}>{LANG_NAMES[lang]}</span>
          </List.Item>
        ))}
      </List>
    </div>
  );
}
