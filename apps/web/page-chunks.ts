import { build, type Rolldown } from 'vite';
import { FIRST_PAGES } from './first-pages.ts';

/**
 * The modules the first paint of the market list, the chart page and the assets page needs
 * beyond the main chunk, for one chunk of their own (vite.config.ts). Rolldown's own splitting
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

/** Set during the first build, so vite.config.ts leaves the group (and the compression) out. */
export const FIRST_PASS_ENV = 'VERDANT_PAGE_CHUNKS_PASS';

export async function firstPageModules(root: string): Promise<Set<string>> {
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
  const pages = Object.values(FIRST_PAGES).map((p) => `${root}/src/features/${p}`);
  const pageChunks = [...chunks.values()].filter((c) => c.moduleIds.some((id) => pages.includes(id)));
  if (pageChunks.length === 0) throw new Error(`page-chunks: none of ${pages.join(', ')} in the build`);
  const out = new Set<string>();
  for (const f of reach(pageChunks.map((c) => c.fileName))) {
    if (initial.has(f)) continue;
    for (const id of chunks.get(f)?.moduleIds ?? []) out.add(id);
  }
  return out;
}
