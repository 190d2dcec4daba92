/** The seven display languages; `hk` is Traditional Chinese. Thai is the default (spec §9). */
export const LANGS = ['th', 'en', 'ja', 'ko', 'es', 'zh', 'hk'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'th';

export function isLang(v: unknown): v is Lang {
  return typeof v === 'string' && (LANGS as readonly string[]).includes(v);
}

/** Header that carries the language mark on every request (spec §7). */
export const LANG_HEADER = 'lang';
