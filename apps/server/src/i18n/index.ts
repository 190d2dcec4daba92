import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LANG, LANGS, type Lang } from '@verdant/api';

type Flat = Map<string, string>;

function flatten(obj: Record<string, unknown>, prefix = '', out: Flat = new Map()): Flat {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') flatten(v as Record<string, unknown>, key, out);
    else out.set(key, String(v));
  }
  return out;
}

const catalogs = new Map<Lang, Flat>(
  LANGS.map((l) => [
    l,
    flatten(JSON.parse(readFileSync(join(import.meta.dirname, '../locales', `${l}.json`), 'utf8'))),
  ]),
);

export type MessageParams = Record<string, string | number>;

/** The server's message for `key` in `lang`, falling back to English, then to the key itself. */
export function t(lang: Lang, key: string, params: MessageParams = {}): string {
  const text = catalogs.get(lang)?.get(key) ?? catalogs.get('en')?.get(key) ?? key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

export function hasMessage(key: string): boolean {
  return catalogs.get('en')?.has(key) ?? false;
}

/** BCP 47 tag for Intl APIs: `hk` is Traditional Chinese as written in Hong Kong. */
export function intlLocale(lang: Lang): string {
  return lang === 'hk' ? 'zh-Hant-HK' : lang === 'zh' ? 'zh-Hans-CN' : lang;
}

export { DEFAULT_LANG };
