import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'apps/web/dist');

export interface FirstLoad {
  jsKb: number;
  cssKb: number;
  reactFloorKb: number;
  files: { path: string; kb: number }[];
}

const gzKb = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length / 1024;

/** Serves the built app from a real server and records every script and style Chromium fetches. */
export async function firstLoad(): Promise<FirstLoad> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-bench-'));
  const app = await buildApp({
    config: loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }),
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const { chromium } = createRequire(join(root, 'apps/web/package.json'))(
    'playwright-core',
  ) as typeof import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  const seen = new Set<string>();
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (/\.(js|css)$/.test(path) && path.startsWith('/h5/')) seen.add(path);
    });
    await page.goto(`http://127.0.0.1:${port}/h5/`, { waitUntil: 'networkidle' });
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (seen.size === 0) throw new Error('no scripts loaded: is the web app built (npm run build)?');
  const files = [...seen]
    .sort()
    .map((path) => ({ path, kb: gzKb(readFileSync(join(dist, path.slice('/h5/'.length)))) }));
  const sum = (ext: string) => files.filter((f) => f.path.endsWith(ext)).reduce((a, f) => a + f.kb, 0);
  // React 19's CommonJS production files are not minified: minify them as the app's build does
  const floor = gzKb(
    Buffer.from(
      transformSync(
        [
          'react/cjs/react.production.js',
          'react-dom/cjs/react-dom.production.js',
          'react-dom/cjs/react-dom-client.production.js',
          'scheduler/cjs/scheduler.production.js',
        ]
          .map((p) => readFileSync(join(root, 'node_modules', p), 'utf8'))
          .join(';\n'),
        { minify: true, loader: 'js' },
      ).code,
    ),
  );
  const round = (n: number) => Math.round(n * 10) / 10;
  return { jsKb: round(sum('.js')), cssKb: round(sum('.css')), reactFloorKb: round(floor), files };
}
