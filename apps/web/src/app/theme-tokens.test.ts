import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Every stylesheet of the app, as text, keyed like '/src/app/theme.css' (read from disk: the test
// runner hands CSS imports over empty).
const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '/');
const sheets: Record<string, string> = Object.fromEntries(
  readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.css'))
    .map((f) => [`/src/${f.split('\\').join('/')}`, readFileSync(SRC + f, 'utf8')]),
);
const THEME = '/src/app/theme.css';
const FEATURES = [
  ...new Set(Object.keys(sheets).flatMap((f) => /^\/src\/features\/([^/]+)\//.exec(f)?.[1] ?? [])),
];

interface Rule {
  selector: string;
  body: string;
}

function rulesOf(css: string): Rule[] {
  const plain = css.replace(/\/\*[\s\S]*?\*\//g, '');
  // innermost blocks only: @media and @keyframes wrappers fall away, their rules stay
  return [...plain.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({
    selector: (m[1] ?? '').trim(),
    body: m[2] ?? '',
  }));
}

function declarations(body: string): [string, string][] {
  return body
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d.includes(':'))
    .map((d) => [d.slice(0, d.indexOf(':')).trim(), d.slice(d.indexOf(':') + 1).trim()]);
}

const isTokenBlock = (selector: string) => selector.startsWith(':root[data-theme');

// ---------- the colour tokens of each theme ----------

function tokens(theme: 'dark' | 'light'): Map<string, string> {
  const out = new Map<string, string>();
  for (const rule of rulesOf(sheets[THEME] ?? '')) {
    if (rule.selector === ':root[data-theme]' || rule.selector === `:root[data-theme="${theme}"]`) {
      for (const [name, value] of declarations(rule.body)) out.set(name, value);
    }
  }
  return out;
}

type Rgba = [number, number, number, number];

function colour(theme: Map<string, string>, name: string): Rgba {
  let value = theme.get(name);
  for (let hops = 0; value?.startsWith('var('); hops++) {
    if (hops > 5) throw new Error(`${name}: var() chain too long`);
    value = theme.get(value.slice(4, -1).trim());
  }
  if (!value) throw new Error(`${name} is not defined`);
  const hex = /^#([0-9a-f]{6})$/i.exec(value);
  if (hex) {
    const n = Number.parseInt(hex[1] ?? '', 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, 1];
  }
  const rgba = /^rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)$/.exec(value);
  if (rgba) return [Number(rgba[1]), Number(rgba[2]), Number(rgba[3]), Number(rgba[4])];
  throw new Error(`${name}: cannot read colour ${value}`);
}

/** A translucent colour painted over an opaque one. */
function over(top: Rgba, under: Rgba): Rgba {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i]! * a + under[i]! * (1 - a)).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG 2 contrast ratio. */
function contrast(a: Rgba, b: Rgba): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

// Text colour on background, as the stylesheets pair them; a background may be a tint over a surface.
const SURFACES = ['--v-bg', '--v-card', '--v-card-raised', '--v-input-bg'];
const PAIRS: [text: string, background: string[]][] = [
  ...['--v-text', '--v-text-2', '--v-text-3'].flatMap((t) =>
    [...SURFACES, '--v-tabbar-bg'].map((s): [string, string[]] => [t, [s]]),
  ),
  ...['--v-primary', '--v-up', '--v-down', '--v-warning'].flatMap((t) =>
    SURFACES.map((s): [string, string[]] => [t, [s]]),
  ),
  // active chips and tabs, the depth book's bars, warning banners, the hero cards
  ...['--v-bg', '--v-card'].map((s): [string, string[]] => ['--v-primary', ['--v-primary-soft', s]]),
  ['--v-up', ['--v-up-soft', '--v-card']],
  ['--v-down', ['--v-down-soft', '--v-card']],
  ['--v-text', ['--v-up-soft', '--v-card']],
  ['--v-text', ['--v-down-soft', '--v-card']],
  ['--v-warning', ['--v-warning-soft', '--v-bg']],
  ['--v-warning', ['--v-warning-soft', '--v-card']],
  ['--v-text-2', ['--v-primary-soft', '--v-card']],
  ['--v-text-2', ['--v-primary-glow', '--v-card']],
  // white text on solid buttons and change chips
  ['--v-on-fill', ['--v-primary-fill']],
  ['--v-on-fill', ['--v-up-fill']],
  ['--v-on-fill', ['--v-down-fill']],
  ['--v-nav-text', ['--v-nav-bg']],
  ['--v-media-text', ['--v-media-bg']],
];

describe('theme colours', () => {
  for (const theme of ['dark', 'light'] as const) {
    it(`every text colour reaches 4.5:1 on its background in the ${theme} theme`, () => {
      const t = tokens(theme);
      const failures: string[] = [];
      for (const [text, layers] of PAIRS) {
        const background = layers
          .map((l) => colour(t, l))
          .reduceRight((under, top) => (top[3] < 1 ? over(top, under) : top));
        const ratio = contrast(colour(t, text), background);
        if (ratio < 4.5) failures.push(`${text} on ${layers.join(' over ')}: ${ratio.toFixed(2)}`);
      }
      expect(failures).toEqual([]);
    });
  }

  it('reads the contrast the way WCAG defines it', () => {
    expect(contrast([0, 0, 0, 1], [255, 255, 255, 1])).toBeCloseTo(21, 5);
    // the secondary text of issue 18 on the dark card
    expect(contrast([0x6d, 0x7d, 0x97, 1], [0x13, 0x20, 0x3a, 1])).toBeCloseTo(3.88, 2);
  });
});

// ---------- stylesheets use the tokens and stay in their feature ----------

const COLOUR_LITERAL = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?)\(/i;

describe('stylesheets', () => {
  it('write colours, font sizes and radii as tokens (literals only in the theme tokens)', () => {
    const found: string[] = [];
    for (const [file, css] of Object.entries(sheets)) {
      for (const rule of rulesOf(css)) {
        if (file === THEME && isTokenBlock(rule.selector)) continue;
        for (const [prop, value] of declarations(rule.body)) {
          const where = `${file} ${rule.selector} { ${prop}: ${value} }`;
          if (COLOUR_LITERAL.test(value)) found.push(where);
          if (/font-size$/.test(prop) && /\d(px|rem)\b/.test(value)) found.push(where);
          if (/radius$/.test(prop) && value.split(/\s+/).some((v) => /^[1-9][\d.]*px$/.test(v)))
            found.push(where);
        }
      }
    }
    expect(found).toEqual([]);
  });

  it("scope every rule of a feature's stylesheet with the feature's class prefix (v-<feature>)", () => {
    const unscoped: string[] = [];
    for (const [file, css] of Object.entries(sheets)) {
      const feature = /^\/src\/features\/([^/]+)\//.exec(file)?.[1];
      if (!feature) continue;
      const own = new RegExp(`\\.v-${feature}(?:-|__|(?![\\w-]))`);
      for (const rule of rulesOf(css)) {
        for (const part of rule.selector.split(',').map((p) => p.trim())) {
          if (/^(from|to|\d+%)$/.test(part)) continue;
          if (!own.test(part)) unscoped.push(`${file}: ${part}`);
        }
      }
    }
    expect(unscoped).toEqual([]);
  });

  it('keep feature prefixes out of shared and app stylesheets, and style each class in one file', () => {
    const foreign: string[] = [];
    const owners = new Map<string, Set<string>>();
    for (const [file, css] of Object.entries(sheets)) {
      const feature = /^\/src\/features\/([^/]+)\//.exec(file)?.[1];
      for (const rule of rulesOf(css)) {
        for (const part of rule.selector.split(',').map((p) => p.trim())) {
          const classes = [...part.matchAll(/\.(v-[\w-]+)/g)].map((m) => m[1] ?? '');
          if (!feature) {
            for (const c of classes) {
              const prefix = FEATURES.find((f) => new RegExp(`^v-${f}(?:-|__|$)`).test(c));
              if (prefix) foreign.push(`${file}: .${c} belongs to features/${prefix}`);
            }
          }
          // the classes of the styled element (the last compound) that this file owns
          const subject = part.split(/[\s>+~]+/).pop() ?? '';
          for (const [, c = ''] of subject.matchAll(/\.(v-[\w-]+)/g)) {
            if (feature && !c.startsWith(`v-${feature}`)) continue;
            owners.set(c, (owners.get(c) ?? new Set()).add(file));
          }
        }
      }
    }
    const twice = [...owners]
      .filter(([, files]) => files.size > 1)
      .map(([c, files]) => `.${c}: ${[...files]}`);
    expect(foreign).toEqual([]);
    expect(twice).toEqual([]);
  });
});
