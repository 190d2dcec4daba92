import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { LANGS } from '@verdant/api';
import { describe, expect, it } from 'vitest';
import { t } from './index.ts';

const src = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

function keys(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('server messages', () => {
  const catalogs = Object.fromEntries(
    LANGS.map((l) => [
      l,
      JSON.parse(readFileSync(join(src, 'locales', `${l}.json`), 'utf8')) as Record<string, unknown>,
    ]),
  );

  it('has the same keys in all seven languages, none empty', () => {
    const en = keys(catalogs.en!).sort();
    for (const l of LANGS) {
      expect(keys(catalogs[l]!).sort(), l).toEqual(en);
      for (const k of en) expect(t(l, k), `${l}:${k}`).not.toBe('');
    }
  });

  it('has every message the code can send', () => {
    const used = new Set<string>();
    for (const f of files(src)) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/'((?:errors|validation|codes|account|fund|common)\.[A-Za-z.]+)'/g))
        used.add(m[1]!);
      // keys built from a channel name
      for (const m of text.matchAll(/`(account)\.\$\{[\w.]+\}(\w+)`/g)) {
        used.add(`${m[1]}.mobile${m[2]}`);
        used.add(`${m[1]}.email${m[2]}`);
      }
    }
    expect(used.size).toBeGreaterThan(40);
    const en = new Set(keys(catalogs.en!));
    expect([...used].filter((k) => !en.has(k))).toEqual([]);
  });

  it('names every ledger reason the code posts, so the funds record never shows a bare code', () => {
    const reasons = new Set<string>();
    for (const f of files(src)) {
      for (const m of readFileSync(f, 'utf8').matchAll(/\breason: '([a-z_]+)'/g)) reasons.add(m[1]!);
    }
    expect(reasons).toContain('spot_fill');
    const en = new Set(keys(catalogs.en!));
    expect([...reasons].filter((r) => !en.has(`wallet.reason.${r}`))).toEqual([]);
  });

  it('fills in parameters and falls back to English for a missing key', () => {
    expect(t('th', 'errors.rateLimited', { seconds: 30 })).toBe('ลองหลายครั้งเกินไป กรุณาลองใหม่ในอีก 30 วินาที');
    expect(t('en', 'no.such.key')).toBe('no.such.key');
  });
});
