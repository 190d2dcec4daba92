import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { uploadPng } from '../modules/admin/testing.ts';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';
import { inlineScriptHashes } from './static.ts';

let h: Harness;
const EARLY = 'window.__verdantEarly = [];';
/** The CSP source a browser accepts the inline script above by (CSP 3: SHA-256 of its text, base64). */
const EARLY_HASH = `'sha256-${createHash('sha256').update(EARLY).digest('base64')}'`;
const webDist = mkdtempSync(join(tmpdir(), 'verdant-web-'));
beforeAll(async () => {
  // a stand-in for the built web app, so the test does not depend on `npm run build`: a data
  // block, an inline early script, the main script file
  writeFileSync(
    join(webDist, 'index.html'),
    `<!doctype html><html><head><script type="application/json" id="early-files">{"pages":{}}</script><script type="module" async>${EARLY}</script></head><body><div id="root"></div><script type="module" src="/h5/static/app.js"></script></body></html>`,
  );
  h = await startHarness({ webDist });
});
afterAll(async () => {
  await h.close();
  rmSync(webDist, { recursive: true, force: true });
});

/** The policy as directive → sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name = '', ...sources]) => [name, sources]),
  );
}

function expectSecurityHeaders(res: LightMyRequestResponse, what: string) {
  const policy = csp(res);
  // scripts only from the server's own files and the app's early script by its hash: no other
  // inline script, no eval
  expect(policy.get('script-src'), what).toEqual(["'self'", EARLY_HASH]);
  expect(policy.get('script-src-attr'), what).toEqual(["'none'"]);
  expect(policy.get('default-src'), what).toEqual(["'self'"]);
  expect(policy.get('object-src'), what).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['referrer-policy'], what).toBe('no-referrer');
  // plain HTTP here: no HSTS (see the TLS tests below)
  expect(res.headers['strict-transport-security'], what).toBeUndefined();
}

describe('security headers', () => {
  it('on the web app at /h5/ and on its redirects', async () => {
    const page = await h.inject({ method: 'GET', url: '/h5/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expectSecurityHeaders(page, '/h5/');
    const root = await h.inject({ method: 'GET', url: '/' });
    expect(root.statusCode).toBe(302);
    expectSecurityHeaders(root, '/');
  });

  it('on API answers: success, refusal, not logged in, not found', async () => {
    const answers = {
      ok: await h.inject({ method: 'GET', url: '/api/currency/quotation_new', headers: { lang: 'en' } }),
      refused: await h.inject({
        method: 'POST',
        url: '/api/user/login',
        headers: { 'content-type': 'application/json', lang: 'en' },
        payload: '{"account":"nobody@example.com","password":"x"}',
      }),
      notLoggedIn: await h.inject({ method: 'GET', url: '/api/user/center', headers: { lang: 'en' } }),
      notFound: await h.inject({ method: 'GET', url: '/api/no/such/thing' }),
    };
    expect(answers.ok.statusCode).toBe(200);
    expect(answers.refused.statusCode).toBe(400);
    expect(answers.notLoggedIn.statusCode).toBe(401);
    expect(answers.notFound.statusCode).toBe(404);
    for (const [what, res] of Object.entries(answers)) expectSecurityHeaders(res, what);
  });

  it("on the API documentation and on a user's uploaded picture", async () => {
    const docs = await h.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger-ui-bundle.js');
    expectSecurityHeaders(docs, '/api/docs/');

    const { token } = await registerByEmail(h);
    const name = await uploadPng(h, token);
    const file = await h.inject({
      method: 'GET',
      url: `/api/upload/${name}`,
      headers: { authorization: token },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    // the picture route may send a stricter policy of its own (nothing runs, nothing loads)
    const policy = csp(file);
    expect(["'self'", "'none'"]).toContain(
      (policy.get('script-src') ?? policy.get('default-src'))?.join(' '),
    );
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['referrer-policy']).toBe('no-referrer');
  });

  it('lets the page open its socket to its own host, and names no host it was not asked for', async () => {
    const res = await h.inject({ method: 'GET', url: '/h5/', headers: { host: 'exchange.example:8443' } });
    expect(csp(res).get('connect-src')).toEqual([
      "'self'",
      'ws://exchange.example:8443',
      'wss://exchange.example:8443',
    ]);
    const odd = await h.inject({
      method: 'GET',
      url: '/h5/',
      headers: { host: "x.example 'unsafe-inline'" },
    });
    expect(csp(odd).get('connect-src')).toEqual(["'self'"]);
    expect(csp(odd).get('script-src')).toEqual(["'self'", EARLY_HASH]);
  });

  it('the web app runs no inline script but those the policy names: script files, JSON data blocks (never run), hashed inline modules', () => {
    const pages = [resolve(__dirname, '../../../web/index.html')];
    const built = resolve(__dirname, '../../../web/dist/index.html');
    if (existsSync(built)) pages.push(built);
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      expect(scripts.length, page).toBeGreaterThan(0);
      for (const [, attrs = '', body = ''] of scripts) {
        // a data block (the build's list of files each opening page needs) is not executed, so
        // script-src does not apply to it; it must be JSON and nothing else
        if (/\btype="application\/json"/.test(attrs)) {
          expect(attrs, page).not.toMatch(/\bsrc=/);
          expect(() => JSON.parse(body), page).not.toThrow();
          continue;
        }
        if (/\bsrc=/.test(attrs)) {
          expect(body.trim(), page).toBe('');
          continue;
        }
        // the early script (apps/web/vite.config.ts): allowed by its hash, on the page it is in
        expect(attrs, page).toMatch(/\btype="module"/);
        const hash = `'sha256-${createHash('sha256').update(body).digest('base64')}'`;
        expect(inlineScriptHashes(dirname(page)), page).toContain(hash);
      }
      // no inline event handlers either (script-src-attr 'none')
      expect(html, page).not.toMatch(/\son[a-z]+\s*=/i);
    }
  });
});

describe('HSTS only over TLS', () => {
  let proxied: Harness;
  beforeAll(async () => {
    // behind a reverse proxy that terminates TLS (TRUST_PROXY=1 in production)
    vi.stubEnv('TRUST_PROXY', '1');
    try {
      proxied = await startHarness({ webDist });
    } finally {
      vi.unstubAllEnvs();
    }
  });
  afterAll(() => proxied.close());

  it('sent when the trusted proxy says the request came over HTTPS, on the app and the API', async () => {
    for (const url of ['/h5/', '/api/currency/quotation_new', '/api/user/center']) {
      const res = await proxied.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'https' } });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
    }
  });

  it('not sent for plain HTTP behind the proxy', async () => {
    const res = await proxied.inject({
      method: 'GET',
      url: '/h5/',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('not sent when the proxy is not trusted, whatever the request claims', async () => {
    const res = await h.inject({ method: 'GET', url: '/h5/', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });
});
