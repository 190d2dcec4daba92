import { LANGS } from '@verdant/api';
import { describe, expect, it } from 'vitest';

const files = import.meta.glob<Record<string, unknown>>('./*.json', { eager: true, import: 'default' });

function flatten(obj: Record<string, unknown>, prefix = '', out = new Map<string, unknown>()) {
  for (const [k, v] of Object.entries(obj)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v && typeof v === 'object') flatten(v as Record<string, unknown>, key, out);
    else out.set(key, v);
  }
  return out;
}

const locales = Object.fromEntries(
  LANGS.map((lang) => {
    const file = files[`./${lang}.json`];
    return [lang, file ? flatten(file) : null];
  }),
);
const english = locales.en ?? new Map<string, unknown>();

describe('locale files', () => {
  it('exist for all seven languages', () => {
    for (const lang of LANGS) expect(locales[lang], lang).not.toBeNull();
  });

  it.each(LANGS)('%s has exactly the keys of en', (lang) => {
    const keys = [...(locales[lang]?.keys() ?? [])].sort();
    expect(keys).toEqual([...english.keys()].sort());
  });

  it.each(LANGS)('%s has no empty or non-text values', (lang) => {
    const bad = [...(locales[lang]?.entries() ?? [])].filter(
      ([, v]) => typeof v !== 'string' || v.trim() === '',
    );
    expect(bad.map(([k]) => k)).toEqual([]);
  });

  it.each(LANGS)('%s keeps the same {{placeholders}} as en', (lang) => {
    const names = (v: unknown) => [...String(v).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    const wrong = [...english.entries()].filter(
      ([k, v]) => names(locales[lang]?.get(k)).join() !== names(v).join(),
    );
    expect(wrong.map(([k]) => k)).toEqual([]);
  });
});
