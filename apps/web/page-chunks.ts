import { build, type Rolldown } from 'vite';
import { FIRST_PAGES } from './first-pages.ts';

/**
 * The modules the first paint of the market list, the chart page and the assets page needs
 * beyond the main chunk, in a few chunks of their own (vite.config.ts). Rolldown's own splitting
 * gave those pages 20–26 files of 0.1–20 KB after the main chunk (antd-mobile's components, their
 * hooks and icons, the pages' shared code); on a phone's link each file costs a round trip, six
 * at a time (docs/bench.md, issue 18).
 *
 * The set is what Rolldown's own splitting loads for those pages: a first build in memory without
 * the group, then the modules of every chunk the pages import statically, the main chunk's aside.
 * A walk of the import graph cannot tell: the packages' indexes (antd-mobile, its icons, ahooks,
 * the API package) import everything they re-export, and only tree-shaking knows what is used.
 */

/** The chunks `from` load with them: themselves and their static imports, transitively (file names). */
export function importClosure(
  byFile: ReadonlyMap<string, { imports: readonly string[] }>,
  from: Iterable<string>,
): Set<string> {
  const seen = new Set<string>();
  const todo = [...from];
  while (todo.length) {
    const f = todo.pop() as string;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...(byFile.get(f)?.imports ?? []));
  }
  return seen;
}

/** `from` and the chunks it imports, transitively, each after its own imports: the order Vite links their stylesheets in. */
export function importOrder(
  byFile: ReadonlyMap<string, { imports: readonly string[] }>,
  from: string,
): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    for (const i of byFile.get(f)?.imports ?? []) visit(i);
    order.push(f);
  };
  visit(from);
  return order;
}

/** Set during the first build, so vite.config.ts leaves the group (and the compression) out. */
export const FIRST_PASS_ENV = 'VERDANT_PAGE_CHUNKS_PASS';

/**
 * Module id → the chunk it goes in: named by the first pages that need it (`pages-market`,
 * `pages-assets-market`), so each page loads its own code and what it shares, not another page's
 * (one chunk for all three made the chart page fetch 47 KB of the other two before its first
 * paint). A page needs the modules of the chunks Rolldown's own splitting loads with it.
 */
export async function firstPageModules(root: string): Promise<Map<string, string>> {
  process.env[FIRST_PASS_ENV] = '1';
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({ root, logLevel: 'silent', build: { write: false, emptyOutDir: false } });
  } finally {
    delete process.env[FIRST_PASS_ENV];
  }
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = new Map<string, Rolldown.OutputChunk>();
  for (const o of outputs) for (const c of o.output) if (c.type === 'chunk') chunks.set(c.fileName, c);
  const reach = (from: Iterable<string>) => importClosure(chunks, from);
  const initial = reach([...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName));
  const users = new Map<string, Set<string>>();
  for (const file of Object.values(FIRST_PAGES)) {
    const id = `${root}/src/features/${file}`;
    const own = [...chunks.values()].find((c) => c.moduleIds.includes(id));
    if (!own) throw new Error(`page-chunks: ${file} in no chunk of the build`);
    for (const f of reach([own.fileName])) {
      if (initial.has(f)) continue;
      for (const m of chunks.get(f)?.moduleIds ?? []) {
        const set = users.get(m) ?? new Set<string>();
        set.add(pageKey(file));
        users.set(m, set);
      }
    }
  }
  const name = (set: Set<string>) => `pages-${[...set].sort().join('-')}`;
  const groups = new Map([...users].map(([m, set]) => [m, name(set)]));
  // A group of a few KB would cost a page a request of its own for little: it joins the group
  // every page loads (a page then fetches a few KB it does not run).
  const size = new Map<string, number>();
  for (const c of chunks.values())
    for (const [m, info] of Object.entries(c.modules)) {
      const g = groups.get(m);
      if (g) size.set(g, (size.get(g) ?? 0) + info.renderedLength);
    }
  const shared = name(new Set(Object.values(FIRST_PAGES).map(pageKey)));
  for (const [m, g] of groups) if ((size.get(g) ?? 0) < SMALL_GROUP_CHARS) groups.set(m, shared);
  return groups;
}

/** Below this (characters of code before minifying), a page group joins the one of every page. */
const SMALL_GROUP_CHARS = 8_000;

/** "market/MarketListPage.tsx" → "market", "wallet/AssetsPage.tsx" → "assets". */
export function pageKey(file: string): string {
  const name = file.slice(file.lastIndexOf('/') + 1).replace(/(ListPage|Page)?\.tsx$/, '');
  return name.toLowerCase();
}
