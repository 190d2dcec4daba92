import { optimize } from 'svgo';
import type { Plugin } from 'vite';

/** antd-mobile-icons' modules: one React component per icon, its SVG written out as createElement calls. */
const ICON_MODULE = /[\\/]antd-mobile-icons[\\/]es[\\/]\w+\.js$/;
/** A path's data as the icons write it: `d: "M23.9986223,7.45929361 C28.0170746,…"`. */
const PATH_DATA = /\bd: "([^"]+)"/g;

/**
 * The path data of a 48 × 48 icon rewritten by SVGO's convertPathData: two decimals (a
 * hundredth of a unit, under a thousandth of a pixel at the sizes the app draws icons),
 * relative commands, repeated points dropped. The same shape.
 */
export function compactPath(d: string): string {
  const { data } = optimize(`<svg xmlns="http://www.w3.org/2000/svg"><path d="${d}"/></svg>`, {
    floatPrecision: 2,
    plugins: [{ name: 'convertPathData', params: { floatPrecision: 2 } }],
  });
  const out = /\bd="([^"]+)"/.exec(data)?.[1];
  if (!out) throw new Error(`icon-paths: no path back from SVGO for ${d.slice(0, 40)}…`);
  return out;
}

/**
 * antd-mobile-icons write their paths with seven decimals and each corner point twice: about a
 * third of every icon's bytes, and the app shows about twenty of them before its first pages paint
 * (the tab bar, Home's shortcuts, the assets page's actions). This rewrites the paths at build
 * time (docs/bench.md, sixth pass); everything else of the module is left as it is.
 */
export function compactIconPaths(): Plugin {
  return {
    name: 'verdant-compact-icon-paths',
    apply: 'build',
    transform(code, id) {
      if (!ICON_MODULE.test(id)) return null;
      return { code: code.replace(PATH_DATA, (_, d: string) => `d: "${compactPath(d)}"`), map: null };
    },
  };
}
