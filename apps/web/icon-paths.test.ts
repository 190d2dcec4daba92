import { describe, expect, it } from 'vitest';
import { compactIconPaths, compactPath } from './icon-paths';

// The start of EyeOutline's outline, as antd-mobile-icons write it: seven decimals, a point twice.
const EYE = `M23.9986223,7.45929361 C28.0170746,7.45929361 31.6957209,8.93641589 34.5365549,11.3850414 L34.8936772,11.6973364 L35.2891034,12.0521655 L35.2891034,12.0521655 Z`;

describe('icon paths at build time', () => {
  it('writes an outline with two decimals, relative commands and no repeated point', () => {
    expect(compactPath(EYE)).toBe('M24 7.46c4.02 0 7.7 1.48 10.54 3.93l.35.3.4.36Z');
  });

  it("rewrites the path data of antd-mobile-icons' modules and nothing else", () => {
    const plugin = compactIconPaths();
    const transform = plugin.transform as (code: string, id: string) => { code: string } | null;
    const icon = `React.createElement("path", {\n  d: "${EYE}",\n  id: "EyeOutline-\\u8DEF\\u5F84",\n  fill: "currentColor"\n})`;
    const out = transform(icon, '/repo/node_modules/antd-mobile-icons/es/EyeOutline.js');
    expect(out?.code).toBe(icon.replace(EYE, 'M24 7.46c4.02 0 7.7 1.48 10.54 3.93l.35.3.4.36Z'));
    expect(transform(icon, '/repo/apps/web/src/features/home/HomePage.tsx')).toBeNull();
  });
});
