import { DEFAULT_LANG, isLang, type Lang } from '@verdant/api';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readStorage, StorageKey, writeStorage } from './storage';

type Bundle = Record<string, unknown>;

// Each language in two parts (locale-split.ts): the first screen's sections, which the app starts
// with, and the rest, fetched beside the first other page (lazy-page.ts) or at the first tap.
const firstParts = import.meta.glob<Bundle>('../locales/*.json', { import: 'default', query: '?first' });
const restParts = import.meta.glob<Bundle>('../locales/*.json', { import: 'default', query: '?rest' });

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

async function loadPart(parts: typeof firstParts, lang: Lang): Promise<Bundle> {
  const load = parts[`../locales/${lang}.json`];
  if (!load) throw new Error(`no locale file for ${lang}`);
  return load();
}

function applyHtmlLang(lang: Lang): void {
  document.documentElement.lang = HTML_LANG[lang];
}

// the languages whose every text i18next holds
const complete = new Set<Lang>();
async function completeTexts(lang: Lang): Promise<void> {
  if (complete.has(lang)) return;
  // the first part is in the module cache already when it was the start's
  const [first, rest] = await Promise.all([loadPart(firstParts, lang), loadPart(restParts, lang)]);
  await started; // added to the store init creates, not to one it would replace
  i18next.addResourceBundle(lang, 'translation', { ...first, ...rest }, true, true);
  complete.add(lang);
}

let markStarted: () => void = () => {};
const started = new Promise<void>((resolve) => {
  markStarted = resolve;
});

/**
 * Resolves once every text of the interface language (and of Thai, the fallback) is in: the
 * first screen starts with part of them, and pages other than Home wait for this before they
 * render (lazy-page.ts), so they never show a key.
 */
export async function loadAllTexts(): Promise<void> {
  const lang = currentLang(); // before the start, the stored language, which the start uses
  await Promise.all([completeTexts(lang), lang === DEFAULT_LANG ? null : completeTexts(DEFAULT_LANG)]);
}

/**
 * Starts i18next with the first screen's texts of the stored language: the first render is
 * already translated. The rest (and Thai, the fallback, for another language) comes with
 * loadAllTexts().
 */
export async function initI18n(lang: Lang = storedLang()): Promise<Lang> {
  const first = await loadPart(firstParts, lang);
  await i18next.use(initReactI18next).init({
    lng: lang,
    fallbackLng: DEFAULT_LANG,
    supportedLngs: [...Object.keys(LANG_NAMES)],
    resources: { [lang]: { translation: first } },
    partialBundledLanguages: true,
    interpolation: { escapeValue: false }, // React escapes already
    returnNull: false,
  });
  markStarted();
  applyHtmlLang(lang);
  return lang;
}

/** Switches the interface language; the choice is kept in localStorage `lang`. */
export async function changeLanguage(lang: Lang): Promise<void> {
  await Promise.all([completeTexts(lang), lang === DEFAULT_LANG ? null : completeTexts(DEFAULT_LANG)]);
  writeStorage(StorageKey.lang, lang);
  await i18next.changeLanguage(lang);
  applyHtmlLang(lang);
}
