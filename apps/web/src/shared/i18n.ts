import { DEFAULT_LANG, isLang, type Lang } from '@verdant/api';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, StorageKey, writeStorage } from './storage';

type Bundle = Record<string, unknown>;

// One chunk per language: only Thai (the fallback) and the chosen language load on start.
const loaders = import.meta.glob<Bundle>('../locales/*.json', { import: 'default' });

/** The languages in their own names: the same in every locale, so they are not translated. */
export const LANG_NAMES: Record<Lang, string> = {
  th: 'ไทย',
  en: 'English',
  ja: '日本語',
  ko: '한국어',
  es: 'Español',
  zh: '简体中文',
  hk: '繁體中文',
};

/** BCP 47 tags for <html lang>: hk is Traditional Chinese as written in Hong Kong. */
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
  const v = readStorage(StorageKey.lang);
  return isLang(v) ? v : DEFAULT_LANG;
}

/** The language of the interface right now; the `lang` header and socket query follow it. */
export function currentLang(): Lang {
  const l = i18next.language;
  return isLang(l) ? l : storedLang();
}

async function loadBundle(lang: Lang): Promise<Bundle> {
  const load = loaders[`../locales/${lang}.json`];
  if (!load) throw new Error(`no locale file for ${lang}`);
  return load();
}

function applyHtmlLang(lang: Lang): void {
  document.documentElement.lang = HTML_LANG[lang];
}

/** Loads Thai and the stored language, then starts i18next: the first render is already translated. */
export async function initI18n(lang: Lang = storedLang()): Promise<Lang> {
  const [base, chosen] = await Promise.all([
    loadBundle(DEFAULT_LANG),
    lang === DEFAULT_LANG ? null : loadBundle(lang),
  ]);
  const resources: Record<string, { translation: Bundle }> = { [DEFAULT_LANG]: { translation: base } };
  if (chosen) resources[lang] = { translation: chosen };
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: DEFAULT_LANG,
    supportedLngs: [...Object.keys(LANG_NAMES)],
    resources,
    partialBundledLanguages: true,
    interpolation: { escapeValue: false }, // React escapes already
    returnNull: false,
  });
  applyHtmlLang(lang);
  return lang;
}

/** Switches the interface language; the choice is kept in localStorage `lang`. */
export async function changeLanguage(lang: Lang): Promise<void> {
  if (!i18next.hasResourceBundle(lang, 'translation')) {
    i18next.addResourceBundle(lang, 'translation', await loadBundle(lang), true, true);
  }
  writeStorage(StorageKey.lang, lang);
  await i18next.changeLanguage(lang);
  applyHtmlLang(lang);
}
