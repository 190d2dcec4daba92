import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { transformSync } from 'esbuild';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { CHROMIUM_ARGS } from './shared.ts';

const root = resolve(import.meta.dirname, '../..');
const dist = join(root, 'apps/web/dist');

/** What Chromium sends to a site over HTTPS, as a phone's browser does. */
export const CHROMIUM_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

export interface FirstLoadFile {
  path: string;
  /** Bytes on the wire: status line, headers and the body as sent. */
  wireKb: number;
  /** The file itself, uncompressed: what the server sent before issue 18. */
  rawKb: number;
  /** gzip -9 of the file, the bench's figure before issue 18. */
  gzipKb: number;
  encoding: string;
}

export interface FirstLoad {
  /** Everything Home fetches before it is interactive (document, JS, CSS), bytes on the wire. */
  transferKb: number;
  jsTransferKb: number;
  cssTransferKb: number;
  /** The same files uncompressed. */
  rawKb: number;
  jsKb: number;
  cssKb: number;
  reactFloorKb: number;
  files: FirstLoadFile[];
}

const gzKb = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length / 1024;

/** One GET as a browser would send it; the bytes that came over the socket for the answer. */
function wireGet(port: number, path: string): Promise<{ bytes: number; encoding: string; status: number }> {
  return new Promise((res, rej) => {
    const req = http.get(
      { host: '127.0.0.1', port, path, headers: { 'accept-encoding': CHROMIUM_ACCEPT_ENCODING } },
      (r) => {
        // status line and headers as they were sent (raw, before Node parsed them)
        let bytes = `HTTP/1.1 ${r.statusCode} ${r.statusMessage}\r\n`.length + 2;
        for (let i = 0; i < r.rawHeaders.length; i += 2)
          bytes += Buffer.byteLength(`${r.rawHeaders[i]}: ${r.rawHeaders[i + 1]}\r\n`);
        r.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        r.on('end', () =>
          res({
            bytes,
            encoding: String(r.headers['content-encoding'] ?? 'identity'),
            status: r.statusCode ?? 0,
          }),
        );
      },
    );
    req.on('error', rej);
  });
}

/**
 * Serves the built app from a real server, records every document, script and style Chromium
 * fetches for Home, then fetches each again with Chromium's Accept-Encoding and counts the bytes
 * the server sends.
 */
export async function firstLoad(): Promise<FirstLoad> {
  const dataDir = mkdtempSync(join(tmpdir(), 'verdant-bench-'));
  // no chart history or market maker: which files Home loads does not depend on them
  const app = await buildApp({
    config: loadConfig({
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      BACKFILL_DAYS: '0',
      MARKET_MAKER: '0',
    }),
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
    args: [...CHROMIUM_ARGS],
  });
  const seen = new Set<string>(['/h5/']);
  const files: FirstLoadFile[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (/\.(js|css)$/.test(path) && path.startsWith('/h5/')) seen.add(path);
    });
    await page.goto(`http://127.0.0.1:${port}/h5/`, { waitUntil: 'networkidle' });
    if (seen.size === 1) throw new Error('no scripts loaded: is the web app built (npm run build)?');
    for (const path of [...seen].sort()) {
      const wire = await wireGet(port, path);
      if (wire.status !== 200) throw new Error(`${path}: HTTP ${wire.status}`);
      const raw = readFileSync(join(dist, path === '/h5/' ? 'index.html' : path.slice('/h5/'.length)));
      files.push({
        path,
        wireKb: wire.bytes / 1024,
        rawKb: raw.length / 1024,
        gzipKb: gzKb(raw),
        encoding: wire.encoding,
      });
    }
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const sum = (f: (x: FirstLoadFile) => number, ext?: string) =>
    files.filter((x) => !ext || x.path.endsWith(ext)).reduce((a, x) => a + f(x), 0);
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
  return {
    transferKb: round(sum((x) => x.wireKb)),
    jsTransferKb: round(sum((x) => x.wireKb, '.js')),
    cssTransferKb: round(sum((x) => x.wireKb, '.css')),
    rawKb: round(sum((x) => x.rawKb)),
    jsKb: round(sum((x) => x.gzipKb, '.js')),
    cssKb: round(sum((x) => x.gzipKb, '.css')),
    reactFloorKb: round(floor),
    files: files.map((f) => ({
      ...f,
      wireKb: round(f.wireKb),
      rawKb: round(f.rawKb),
      gzipKb: round(f.gzipKb),
    })),
  };
}
