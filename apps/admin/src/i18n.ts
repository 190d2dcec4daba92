import { isLang, type Lang } from '@verdant/api';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

type Bundle = Record<string, unknown>;

// One chunk per language: English (the console's default and fallback) and the chosen one load.
const loaders = import.meta.glob<Bundle>('./locales/*.json', { import: 'default' });

/** Operators read the console in English unless they choose otherwise. */
export const CONSOLE_DEFAULT_LANG: Lang = 'en';
const KEY = 'verdant-admin-lang';

export const LANG_NAMES: Record<Lang, string> = {
  th: 'ไทย',
  en: 'English',
  ja: '日本語',
  ko: '한국어',
  es: 'Español',
  zh: '简体中文',
  hk: '繁體中文',
};

const HTML_LANG: Record<Lang, string> = {
  th: 'th',
  en: 'en',
  ja: 'ja',
  ko: 'ko',
  es: 'es',
  zh: 'zh-CN',
  hk: 'zh-HK',
};

export function storedLang(): Lang {
  try {
    const v = localStorage.getItem(KEY);
    return isLang(v) ? v : CONSOLE_DEFAULT_LANG;
  } catch {
    return CONSOLE_DEFAULT_LANG;
  }
}

export function currentLang(): Lang {
  const l = i18next.language;
  return isLang(l) ? l : storedLang();
}

async function loadBundle(lang: Lang): Promise<Bundle> {
  const load = loaders[`./locales/${lang}.json`];
  if (!load) throw new Error(`no locale file for ${lang}`);
  return load();
}

export async function initI18n(lang: Lang = storedLang()): Promise<void> {
  const [base, chosen] = await Promise.all([
    loadBundle(CONSOLE_DEFAULT_LANG),
    lang === CONSOLE_DEFAULT_LANG ? null : loadBundle(lang),
  ]);
  const resources: Record<string, { translation: Bundle }> = {
    [CONSOLE_DEFAULT_LANG]: { translation: base },
  };
  if (chosen) resources[lang] = { translation: chosen };
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: CONSOLE_DEFAULT_LANG,
    supportedLngs: Object.keys(LANG_NAMES),
    resources,
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = HTML_LANG[lang];
}

export async function changeLanguage(lang: Lang): Promise<void> {
  if (!i18next.hasResourceBundle(lang, 'translation')) {
    i18next.addResourceBundle(lang, 'translation', await loadBundle(lang), true, true);
  }
  try {
    localStorage.setItem(KEY, lang);
  } catch {
    // private mode: the choice lasts for this visit only
  }
  await i18next.changeLanguage(lang);
  document.documentElement.lang = HTML_LANG[lang];
}
