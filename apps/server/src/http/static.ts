import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Hashed build files (`/h5/static/…`) never change under their name: kept a year, never revalidated. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html names the current hashed files: the browser asks again on every visit (a 304 when unchanged). */
export const REVALIDATE = 'no-cache';

/**
 * API answers smaller than this go uncompressed. Measured (docs/decisions.md, "Compression"):
 * below about one TCP segment compression cannot save a round trip, and our small envelopes shrink
 * by a few hundred bytes at most while the Content-Encoding and Vary headers add about 50.
 */
export const API_COMPRESS_THRESHOLD = 1400;

/**
 * The Content-Security-Policy sources (`'sha256-…'`) of the inline scripts of the built web app's
 * index.html: its early script (apps/web/vite.config.ts), inline so that what it starts does not
 * wait a round trip for a file of its own. The policy allows those exact scripts and no other
 * inline one. A data block (`type="application/json"`) runs nothing and needs none. Read once, at
 * start: a build made while the server runs has its early script refused (the app then asks for
 * its files itself) until the server restarts.
 */
export function inlineScriptHashes(webDist: string): string[] {
  let html: string;
  try {
    html = readFileSync(join(webDist, 'index.html'), 'utf8');
  } catch {
    return []; // not built: no page to allow anything for
  }
  const hashes: string[] = [];
  for (const [, attrs = '', body = ''] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (!body || /\bsrc\s*=/i.test(attrs) || /\btype\s*=\s*["']?application\/json/i.test(attrs)) continue;
    hashes.push(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return hashes;
}

/**
 * The built web app at /h5/: the brotli and gzip files written beside each asset at build time
 * (apps/web/vite.config.ts) are sent to clients that accept them (`Vary: Accept-Encoding`
 * either way), the original to the others; hashed files are cached for good, index.html is
 * revalidated.
 */
export async function serveWebApp(app: FastifyInstance, webDist: string, prefix = '/h5/'): Promise<boolean> {
  if (!existsSync(webDist)) return false;
  const hashed = `${sep}static${sep}`;
  await app.register(fastifyStatic, {
    root: webDist,
    prefix,
    decorateReply: false,
    preCompressed: true,
    // set below, per file: send's own `public, max-age=0` would make browsers revalidate every chunk
    cacheControl: false,
    setHeaders(reply, path) {
      reply.header('cache-control', path.includes(hashed) ? IMMUTABLE : REVALIDATE);
    },
  });
  return true;
}

/** The operator console at /admin/ (apps/admin, built the same way as the web app). */
export function serveAdminApp(app: FastifyInstance, adminDist: string): Promise<boolean> {
  return serveWebApp(app, adminDist, '/admin/');
}

/**
 * Compression of the API's answers (register inside the /api scope: the web app's files come
 * compressed from the build, and compressing them again per request would waste the CPU).
 * Brotli at quality 4 (the plugin's default for answers made per request: near gzip's speed,
 * smaller), gzip, then deflate, whichever the client prefers.
 */
export async function compressApi(api: FastifyInstance): Promise<void> {
  // Every answer says it depends on Accept-Encoding, compressed or not (small ones are not), so a
  // shared cache never hands one client's encoding to another.
  api.addHook('onRequest', async (_req, reply) => {
    reply.header('vary', 'accept-encoding');
  });
  await api.register(compress, {
    global: true,
    threshold: API_COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip', 'deflate'],
  });
}
