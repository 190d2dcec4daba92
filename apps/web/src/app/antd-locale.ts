import type { Lang } from '@verdant/api';
import type { Locale } from 'antd-mobile/es/locales/base';
import enUS from 'antd-mobile/es/locales/en-US';

// antd-mobile's own texts (pull-to-refresh, dialogs, pickers) in each language, with the app's
// texts of that language (vite.config.ts). English is antd-mobile's base, which every other
// language extends: it comes with the app's code rather than in a file of its own.
const loaders: Record<Lang, () => Promise<{ default: Locale }>> = {
  th: () => import('antd-mobile/es/locales/th-TH'),
  en: async () => ({ default: enUS }),
  ja: () => import('antd-mobile/es/locales/ja-JP'),
  ko: () => import('antd-mobile/es/locales/ko-KR'),
  es: () => import('antd-mobile/es/locales/es-ES'),
  zh: () => import('antd-mobile/es/locales/zh-CN'),
  hk: () => import('antd-mobile/es/locales/zh-HK'),
};

export async function loadAntdLocale(lang: Lang): Promise<Locale> {
  return (await loaders[lang]()).default;
}
