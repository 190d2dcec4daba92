/**
 * `npm run bench`: Verdant's performance figures, each beside a reference measured or set in the
 * same run. `npm run bench -- --json` also prints every figure as one JSON object on its last line.
 *
 * Sections (later issues add more):
 *   first load — gzipped JS and CSS that /h5/ (Home) fetches before it is interactive, measured
 *                by loading the built app from a real server in headless Chromium.
 */
import { firstLoad } from './bench/first-load.ts';

const json = process.argv.includes('--json');
const figures: Record<string, number> = {};

const fl = await firstLoad();
figures.first_load_js_gzip_kb = fl.jsKb;
figures.first_load_css_gzip_kb = fl.cssKb;
console.log('\nFirst load of /h5/ (Home), gzipped, as fetched by Chromium at 390 × 844');
for (const f of fl.files) console.log(`  ${f.kb.toFixed(1).padStart(7)} KB  ${f.path}`);
console.log(`  JavaScript ${fl.jsKb.toFixed(1)} KB  (budget 170 KB: ${fl.jsKb <= 170 ? 'within' : 'OVER'})`);
console.log(`  CSS        ${fl.cssKb.toFixed(1)} KB`);
console.log(`  reference: React + ReactDOM alone ${fl.reactFloorKb.toFixed(1)} KB of that JavaScript`);
figures.react_floor_js_gzip_kb = fl.reactFloorKb;

if (json) console.log(JSON.stringify(figures));
