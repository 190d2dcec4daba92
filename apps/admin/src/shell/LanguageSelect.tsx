import { LANGS, type Lang } from '@verdant/api';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage, currentLang, LANG_NAMES } from '../i18n';

export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  return (
    <Select<Lang>
      aria-label={t('shell.language')}
      value={(i18n.language as Lang) || currentLang()}
      onChange={(l) => void changeLanguage(l)}
      options={LANGS.map((l) => ({ value: l, label: LANG_NAMES[l] }))}
      style={{ width: 130 }}
    />
  );
}
