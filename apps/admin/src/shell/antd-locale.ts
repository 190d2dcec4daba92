import type { Lang } from '@verdant/api';
import type { Locale } from 'antd/es/locale';
// English is antd's own default, in the main chunk anyway
import enUS from 'antd/es/locale/en_US';

// antd's own texts (pagination, pickers, empty states) in the console's language, one chunk each.
const loaders: Record<Lang, () => Promise<{ default: Locale }>> = {
  th: () => import('antd/es/locale/th_TH'),
  en: async () => ({ default: enUS }),
  ja: () => import('antd/es/locale/ja_JP'),
  ko: () => import('antd/es/locale/ko_KR'),
  es: () => import('antd/es/locale/es_ES'),
  zh: () => import('antd/es/locale/zh_CN'),
  hk: () => import('antd/es/locale/zh_HK'),
};

export async function loadAntdLocale(lang: Lang): Promise<Locale> {
  return (await loaders[lang]()).default;
}
