/**
 * What compressing the API's answers saves and costs, on real answers of a server with market
 * data and a funded user: each answer's size as JSON, with brotli at quality 4 and gzip at level 6
 * (the server's settings, @fastify/compress's defaults), the CPU time each takes, and the time the
 * saved bytes take on Lighthouse's mobile link (1.6 Mbit/s). Where the saving stops paying is the
 * server's compression threshold (apps/server/src/http/static.ts).
 */
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Lighthouse's simulated slow 4G: 1,638.4 kbit/s, i.e. bytes per millisecond. */
const MOBILE_BYTES_PER_MS = (1638.4 * 1000) / 8 / 1000;

export interface ApiCompressionRow {
  path: string;
  bytes: number;
  brBytes: number;
  gzipBytes: number;
  brUs: number;
  gzipUs: number;
  /** Time the brotli answer saves on the mobile link, in milliseconds. */
  savedMs: number;
}

function medianUs(f: () => void, n = 200): number {
  const t: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    f();
    t.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  t.sort((a, b) => a - b);
  return t[n >> 1]!;
}

export async function apiCompression(base: string, token: string): Promise<ApiCompressionRow[]> {
  const paths = [
    'user/center',
    'wallet/currencies',
    'wallet/list',
    'currency/quotation_new',
    'currency/deal?symbol=btcusdt',
    'currency/new_timeshar?symbol=btcusdt&interval=1min&limit=30',
    'currency/new_timeshar?symbol=btcusdt&interval=1min',
    'currency/new_timeshar?symbol=btcusdt&interval=1min&limit=1000',
  ];
  // the smallest answers: an error and a one-line success
  const rows: ApiCompressionRow[] = [];
  const samples: [string, Buffer][] = [
    ['(401 not logged in)', Buffer.from(await (await fetch(`${base}/api/user/center`)).arrayBuffer())],
  ];
  for (const p of paths) {
    const r = await fetch(`${base}/api/${p}`, { headers: { authorization: token, lang: 'en' } });
    samples.push([p, Buffer.from(await r.arrayBuffer())]);
  }
  const brParams = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
  for (const [path, body] of samples) {
    const br = brotliCompressSync(body, brParams).length;
    rows.push({
      path,
      bytes: body.length,
      brBytes: br,
      gzipBytes: gzipSync(body).length,
      brUs: medianUs(() => brotliCompressSync(body, brParams)),
      gzipUs: medianUs(() => gzipSync(body)),
      savedMs: (body.length - br) / MOBILE_BYTES_PER_MS,
    });
  }
  return rows.sort((a, b) => a.bytes - b.bytes);
}
