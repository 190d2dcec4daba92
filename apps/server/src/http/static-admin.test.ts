import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test/harness.ts';
import { IMMUTABLE, REVALIDATE } from './static.ts';

// The operator console (apps/admin) is served like the phone app, from its own folder.
let h: Harness;
const adminDist = mkdtempSync(join(tmpdir(), 'verdant-admin-'));
const INDEX = `<!doctype html><html><head><script type="module" src="/admin/static/js/index-Zz99.js"></script></head><body><div id="root"></div>${' '.repeat(600)}</body></html>`;
const SCRIPT = `export const consoleApp = ${JSON.stringify('console '.repeat(400))};`;

function write(path: string, text: string) {
  const file = join(adminDist, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

beforeAll(async () => {
  write('index.html', INDEX);
  write('static/js/index-Zz99.js', SCRIPT);
  h = await startHarness({ adminDist });
});
afterAll(async () => {
  await h.close();
  rmSync(adminDist, { recursive: true, force: true });
});

describe('the operator console at /admin/', () => {
  it('/admin sends the browser to /admin/, whose index.html is revalidated on every visit', async () => {
    const bare = await h.inject({ method: 'GET', url: '/admin' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/admin/');
    const res = await h.inject({ method: 'GET', url: '/admin/', headers: { 'accept-encoding': 'gzip, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe(REVALIDATE);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(INDEX);
  });

  it('hashed files are kept for a year; a missing one is a 404, not the phone app', async () => {
    const res = await h.inject({ method: 'GET', url: '/admin/static/js/index-Zz99.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body).toBe(SCRIPT);
    const missing = await h.inject({ method: 'GET', url: '/admin/static/js/nothing.js' });
    expect(missing.statusCode).toBe(404);
  });
});
