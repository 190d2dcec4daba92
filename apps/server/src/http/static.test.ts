import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../test/harness.ts';
import { API_COMPRESS_THRESHOLD, IMMUTABLE, REVALIDATE } from './static.ts';

// What Chromium sends over HTTPS (and what a phone's browser sends).
const CHROMIUM = 'gzip, deflate, br, zstd';

let h: Harness;
const webDist = mkdtempSync(join(tmpdir(), 'verdant-web-'));
const INDEX = `<!doctype html><html><head><script type="module" src="/h5/static/js/index-Ab12Cd.js"></script></head><body><div id="root"></div>${' '.repeat(600)}</body></html>`;
const SCRIPT = `export const app = ${JSON.stringify('verdant '.repeat(500))};`;

/** A built app as the web build leaves it: every file with its .br and .gz beside it. */
function writeWithCompressed(path: string, text: string) {
  const file = join(webDist, path);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  writeFileSync(`${file}.br`, brotliCompressSync(text));
  writeFileSync(`${file}.gz`, gzipSync(text));
}

beforeAll(async () => {
  writeWithCompressed('index.html', INDEX);
  writeWithCompressed('static/js/index-Ab12Cd.js', SCRIPT);
  h = await startHarness({ webDist });
});
afterAll(async () => {
  await h.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string, extra: Record<string, string> = {}) =>
  h.inject({
    method: 'GET',
    url,
    headers: { ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }), ...extra },
  });

function decoded(res: LightMyRequestResponse): string {
  const enc = res.headers['content-encoding'];
  if (enc === 'br') return brotliDecompressSync(res.rawPayload).toString();
  if (enc === 'gzip') return gunzipSync(res.rawPayload).toString();
  expect(enc).toBeUndefined();
  return res.rawPayload.toString();
}

const vary = (res: LightMyRequestResponse) =>
  String(res.headers.vary ?? '')
    .toLowerCase()
    .split(/\s*,\s*/);

describe('the web app at /h5/', () => {
  it('sends the brotli file to a browser that accepts it, and index.html is revalidated on every visit', async () => {
    const res = await get('/h5/', CHROMIUM);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(vary(res)).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe(REVALIDATE);
    expect(decoded(res)).toBe(INDEX);
    expect(res.rawPayload.length).toBeLessThan(INDEX.length / 2);
    // the next visit asks again and gets a 304 while the page has not changed
    const etag = String(res.headers.etag);
    const again = await get('/h5/', CHROMIUM, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
  });

  it('hashed files are cached for a year without revalidation, gzip for a client without brotli', async () => {
    const res = await get('/h5/static/js/index-Ab12Cd.js', 'gzip, deflate');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(vary(res)).toContain('accept-encoding');
    expect(decoded(res)).toBe(SCRIPT);
    const br = await get('/h5/static/js/index-Ab12Cd.js', CHROMIUM);
    expect(br.headers['content-encoding']).toBe('br');
    expect(decoded(br)).toBe(SCRIPT);
  });

  it('a client that accepts no encoding gets the file itself, still marked as varying', async () => {
    for (const accept of [undefined, 'identity']) {
      const page = await get('/h5/', accept);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-encoding']).toBeUndefined();
      expect(page.rawPayload.toString()).toBe(INDEX);
      expect(vary(page)).toContain('accept-encoding');
      const script = await get('/h5/static/js/index-Ab12Cd.js', accept);
      expect(script.headers['content-encoding']).toBeUndefined();
      expect(script.rawPayload.toString()).toBe(SCRIPT);
      expect(Number(script.headers['content-length'])).toBe(Buffer.byteLength(SCRIPT));
      expect(script.headers['cache-control']).toBe(IMMUTABLE);
    }
  });

  it('a file that does not exist is a 404, whatever the encoding', async () => {
    expect((await get('/h5/static/js/gone-0000.js', CHROMIUM)).statusCode).toBe(404);
    expect((await get('/h5/static/js/gone-0000.js')).statusCode).toBe(404);
  });
});

describe('API answers', () => {
  it(`are compressed from ${API_COMPRESS_THRESHOLD} bytes on, for a client that accepts it`, async () => {
    // every market's ticker: a few kilobytes of JSON
    const plain = await get('/api/currency/quotation_new');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(API_COMPRESS_THRESHOLD);
    expect(vary(plain)).toContain('accept-encoding');

    const br = await get('/api/currency/quotation_new', CHROMIUM);
    expect(br.headers['content-encoding']).toBe('br');
    expect(vary(br)).toContain('accept-encoding');
    expect(JSON.parse(decoded(br))).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);

    const gz = await get('/api/currency/quotation_new', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gz))).toEqual(plain.json());
  });

  it('small answers go as they are (compression would not pay)', async () => {
    const res = await get('/api/user/center', CHROMIUM);
    expect(res.statusCode).toBe(401);
    expect(res.rawPayload.length).toBeLessThan(API_COMPRESS_THRESHOLD);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(vary(res)).toContain('accept-encoding');
    expect(res.json()).toMatchObject({ code: 999 });
  });
});
