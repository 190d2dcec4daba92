import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * The top-level sections of `src/locales/<lang>.json` the first screen uses: the app shell (tab
 * bar, navigation bar, titles, the error page), Home, and the market list, chart and assets pages. `?first` on a locale file keeps only
 * these, `?rest` only the others: the app starts with the first part of one language and fetches
 * the rest beside the first page it opens that is not Home (src/shared/i18n.ts).
 * src/shared/i18n-first.test.tsx renders the shell and Home with the first part alone.
 */
export const FIRST_SCREEN_SECTIONS: readonly string[] = [
  'app',
  'common',
  'errors',
  'titles',
  'tabs',
  'home',
  'menu',
  'news',
  'market',
  'pull',
  // the pages measured on first load (first-pages.ts): the chart page's and the assets page's,
  // about 2 KB, so that none of them waits for the rest (10 KB) before it paints
  'trade',
  'assets',
  'wallet',
];

const PART = /[\\/]locales[\\/]\w+\.json\?(?:[^#]*&)?(first|rest)(?:&|$)/;
const VIRTUAL = '\0verdant-locale:';

/** Serves `<lang>.json?first` and `<lang>.json?rest`, the two parts of one language's texts. */
export function localeSplit(): Plugin {
  return {
    name: 'verdant:locale-split',
    enforce: 'pre',
    async resolveId(source, importer) {
      const part = PART.exec(source)?.[1];
      if (!part) return null;
      const file = await this.resolve(source.slice(0, source.indexOf('?')), importer, { skipSelf: true });
      // the part last: an id ending in .json would go through Vite's JSON plugin
      return file ? `${VIRTUAL}${file.id}:${part}` : null;
    },
    load(id) {
      if (!id.startsWith(VIRTUAL)) return null;
      const file = id.slice(VIRTUAL.length, id.lastIndexOf(':'));
      const part = id.slice(id.lastIndexOf(':') + 1);
      this.addWatchFile(file);
      const all = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      const picked = Object.fromEntries(
        Object.entries(all).filter(
          ([section]) => FIRST_SCREEN_SECTIONS.includes(section) === (part === 'first'),
        ),
      );
      // a JSON string parsed at run time: quicker for the engine than the same object literal
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});`;
    },
  };
}
