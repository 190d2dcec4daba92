import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshotFailures, startServer } from './support.ts';

// The server's Content-Security-Policy (no inline script, no eval, sockets to its own host only)
// must not break anything a visitor opens: the app with its live prices and chart, and the API
// documentation. Chromium reports every blocked load or script as a violation event.

let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
const errors: string[] = [];

/** Violations the current document has reported (recorded by an init script, which CSP can't block). */
const violations = () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp);

beforeAll(async () => {
  server = await startServer();
  ({ browser, page } = await launchBrowser(server.base));
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __csp: string[] }).__csp = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
    );
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
});

screenshotFailures(() => page);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the Content-Security-Policy in Chromium', () => {
  it('the app loads under it: home with live prices over the socket, then the chart', async () => {
    const res = await page.goto(`${server?.base}/h5/`);
    expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByTestId('price-btcusdt').waitFor();
    // the socket connected through connect-src, and prices arrive over it
    const socket = page.waitForEvent('websocket');
    await page.goto(`${server?.base}/h5/#/pages/trade/kline?symbol=btcusdt`);
    await page.waitForFunction(() => location.hash.includes('/pages/trade/kline'));
    expect((await socket).url()).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/socket\.io\//);
    await page.locator('canvas').first().waitFor();
    expect(await violations()).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });

  it('the API documentation page loads under it and lists the operations', async () => {
    const res = await page.goto(`${server?.base}/api/docs/`);
    expect(res?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    await page.locator('.opblock').first().waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);
    expect(await violations()).toEqual([]);
    expect(errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });
});
