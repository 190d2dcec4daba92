import type { Lang } from '@verdant/api';
import type { Locale } from 'antd-mobile/es/locales/base';

// antd-mobile's own texts (pull-to-refresh, dialogs, pickers) in each language, one chunk apiece.
const loaders: Record<Lang, () => Promise<{ default: Locale }>> = {
  th: () => import('antd-mobile/es/locales/th-TH'),
  en: () => import('antd-mobile/es/locales/en-US'),
  ja: () => import('antd-mobile/es/locales/ja-JP'),
  ko: () => import('antd-mobile/es/locales/ko-KR'),
  es: () => import('antd-mobile/es/locales/es-ES'),
  zh: () => import('antd-mobile/es/locales/zh-CN'),
  hk: () => import('antd-mobile/es/locales/zh-HK'),
};

export async function loadAntdLocale(lang: Lang): Promise<Locale> {
  return (await loaders[lang]()).default;
}
