import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { EARLY_FILES_ID, type EarlyFiles, FIRST_PAGES } from './first-pages.ts';
import { compactIconPaths } from './icon-paths.ts';
import { localeSplit } from './locale-split.ts';
import pkg from './package.json' with { type: 'json' };
import { FIRST_PASS_ENV, firstPageModules, importClosure, importOrder } from './page-chunks.ts';

const api = 'http://127.0.0.1:8080';

// antd-mobile's texts travel with the app's texts of the same language (antd-locale.ts, i18n.ts)
const ANTD_LOCALES: Record<string, string> = {
  'th-TH': 'th',
  'en-US': 'en',
  'ja-JP': 'ja',
  'ko-KR': 'ko',
  'es-ES': 'es',
  'zh-CN': 'zh',
  'zh-HK': 'hk',
};
function localeChunk(id: string): string | null {
  // the first part of a language (locale-split.ts) with antd-mobile's texts; the rest apart
  const app = /^\0verdant-locale:.*[\\/]src[\\/]locales[\\/](\w+)\.json:(first|rest)$/.exec(id);
  if (app) return app[2] === 'first' ? `locale-${app[1]}` : `locale-${app[1]}-rest`;
  const antd = /antd-mobile[\\/]es[\\/]locales[\\/]([\w-]+)\.js$/.exec(id);
  const lang = antd && ANTD_LOCALES[antd[1] ?? ''];
  return lang ? `locale-${lang}` : null;
}

// src/early.ts and the constants it shares with this file (first-pages.ts)
const EARLY_SCRIPT = /[\\/](src[\\/]early|first-pages)\.ts$/;

/**
 * antd-mobile's component styles in a cascade layer (declared in app/theme.css, below the app's own
 * rules): the app's overrides of a component (`.v-market-list__top .adm-tabs-header`, a tab
 * title's size) win by being the app's, not by coming later in the one stylesheet, whose order
 * follows the chunks'.
 */
function antdLayer(): Plugin {
  const COMPONENT_CSS = /[\\/]antd-mobile[\\/]es[\\/]components[\\/].+\.css$/;
  return {
    name: 'verdant-antd-layer',
    enforce: 'pre',
    transform: (code, id) => (COMPONENT_CSS.test(id) ? `@layer antd-mobile {\n${code}\n}\n` : null),
  };
}

/**
 * src/early.ts, built as an entry of its own (Vite would merge a second script of index.html into
 * the main one), then written inline in index.html's head as an `async` module: it runs while the
 * HTML is parsed, so what it starts goes out beside the main chunk, not a round trip for its own
 * file later (the server's CSP allows it by its hash, http/static.ts). Before it, in a data block
 * (no script runs from it), the files it preloads: the chunks of each page of first-pages.ts
 * beyond the main chunk, and the chunk of each language's first part of the texts.
 */
function earlyScript(): Plugin {
  let base = '/';
  let root = '';
  return {
    name: 'verdant-early-script',
    apply: 'build',
    config: () => ({ build: { rolldownOptions: { input: { index: 'index.html', early: 'src/early.ts' } } } }),
    configResolved(c) {
      base = c.base;
      root = c.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const reach = (from: string[]) => importClosure(byFile, from);
        const early = chunks.find((c) => c.isEntry && c.name === 'early');
        const main = chunks.find((c) => c.isEntry && c.name === 'index');
        if (!early || !main) throw new Error('early script: no chunk');
        // an import would make it wait for that file, the main chunk usually
        if (early.imports.length) throw new Error(`early script: imports ${early.imports.join(', ')}`);
        const code = early.code.replace(/\n\/\/# sourceMappingURL=.*$/, '').trim();
        if (/<\/script|<!--/i.test(code)) throw new Error('early script: cannot be written inline');
        delete ctx.bundle?.[early.fileName]; // inline only: no file of its own
        delete ctx.bundle?.[`${early.fileName}.map`];
        const initial = reach([main.fileName]);
        const files: EarlyFiles = { pages: {}, texts: {} };
        for (const [path, file] of Object.entries(FIRST_PAGES)) {
          const id = `${root}/src/features/${file}`;
          const own = chunks.find((c) => c.moduleIds.includes(id));
          if (!own) throw new Error(`early script: ${file} in no chunk`);
          const needed = importOrder(byFile, own.fileName).filter((f) => !initial.has(f));
          // their scripts, then the stylesheets of those chunks in Vite's order (cssCodeSplit below)
          const styles = needed.flatMap((f) => [...(byFile.get(f)?.viteMetadata?.importedCss ?? [])]);
          files.pages[path] = [...needed, ...new Set(styles)].map((f) => base + f);
        }
        for (const c of chunks) {
          const lang = /^locale-(\w+)$/.exec(c.name)?.[1]; // the first part, not locale-<lang>-rest
          if (lang) files.texts[lang] = base + c.fileName;
        }
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: EARLY_FILES_ID },
            children: JSON.stringify(files),
            injectTo: 'head-prepend',
          },
          {
            tag: 'script',
            attrs: { type: 'module', async: true },
            children: code,
            injectTo: 'head-prepend',
          },
        ];
      },
    },
  };
}

export default defineConfig(async ({ command }): Promise<UserConfig> => {
  // page-chunks.ts: a first build in memory, which runs this file again with FIRST_PASS_ENV set
  const firstPass = Boolean(process.env[FIRST_PASS_ENV]);
  const firstPages = command === 'build' && !firstPass ? await firstPageModules(import.meta.dirname) : null;
  return {
    base: '/h5/',
    plugins: [
      localeSplit(),
      antdLayer(),
      compactIconPaths(),
      react(),
      earlyScript(),
      // Every text file also as .br (brotli 11) and .gz (gzip 9) beside it: compressed once here at
      // the highest levels, sent by the server as is to clients that accept them (http/static.ts).
      ...(firstPass ? [] : [compression({ algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' })]),
    ],
    define: {
      __APP_VERSION__: JSON.stringify(pkg.version),
    },
    resolve: {
      // One React 19 at the repository root today; dedupe keeps every library on that one copy
      // should a dependency ever bring its own (two Reacts break hooks).
      dedupe: ['react', 'react-dom'],
    },
    server: {
      proxy: {
        '/api': { target: api, changeOrigin: true },
        '/socket.io': { target: api, ws: true, changeOrigin: true },
      },
    },
    build: {
      // A stylesheet per chunk: index.html links the main chunk's (4.5 KB brotli: the shell and
      // Home), the early script the first pages' own (1–2 KB each, with their chunks, before they
      // render), Vite's loader every other page's before its chunk runs. One stylesheet for the
      // whole app made every first load wait for the other pages' 13 KB; split before the first
      // pages' chunks were grouped, a page received about ten, each arrival a restyle of the whole
      // page (docs/bench.md, third and sixth passes).
      cssCodeSplit: true,
      outDir: 'dist',
      emptyOutDir: true,
      // Spec §7: static chunks load from /h5/static/js.
      rolldownOptions: {
        output: {
          entryFileNames: 'static/js/[name]-[hash].js',
          chunkFileNames: 'static/js/[name]-[hash].js',
          // Rolldown alone split the first screen into about twenty files, fifteen of them 0.1–4 KB
          // (modules shared by the entry and some pages, each costing about 1 KB of headers). Home
          // now needs five files: the document, the stylesheet, this chunk, Rolldown's runtime and
          // the language.
          codeSplitting: {
            groups: [
              // everything the entry imports, Home's page among it (routes.tsx), in one chunk;
              // antd-mobile's zh-CN (its config provider's default) and en-US (the base of every
              // language, antd-locale.ts) with it
              // (src/early.ts, index.html's other script, stays apart: it must not wait for this one)
              { name: 'app', tags: ['$initial'], test: (id) => !EARLY_SCRIPT.test(id), priority: 2 },
              // one language's texts, the app's and antd-mobile's, in one file
              { name: (id) => localeChunk(id), priority: 1 },
              // what the market list, the chart page's first paint and the assets page need beyond
              // the main chunk, in two or three files each instead of 20–26, by the pages that need
              // them (page-chunks.ts); the modules were
              // chosen by Rolldown's tree-shaking already, so their imports stay where they are
              ...(firstPages
                ? [
                    {
                      name: (id: string) => firstPages.get(id) ?? null,
                      includeDependenciesRecursively: false,
                      priority: 1,
                    },
                  ]
                : []),
            ],
          },
          assetFileNames: (info) =>
            info.names.some((n) => n.endsWith('.css'))
              ? 'static/css/[name]-[hash][extname]'
              : 'static/media/[name]-[hash][extname]',
        },
      },
    },
  };
});
