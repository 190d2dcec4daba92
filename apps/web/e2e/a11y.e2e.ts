import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageName, paths } from '../src/shared/paths.ts';
import {
  expectOk,
  launchBrowser,
  registerByEmail,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// axe-core on every route of the app, logged in, in both themes, in Thai and in English: no
// serious or critical violation of WCAG 2.1 A/AA (contrast, names of buttons and inputs, zoom…).

/** Routes that need something in their query to show their real content. */
const QUERY: Partial<Record<PageName, string>> = {
  kline: '?symbol=btcusdt',
  notice: '?id=1',
};

let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let token: string;
let user: unknown;

beforeAll(async () => {
  mailbox = await startOutbox();
  // a day of chart history is enough for the chart page; prices on every screen as in use
  server = await startServer({
    SMTP_URL: mailbox.smtpUrl,
    SMS_WEBHOOK_URL: mailbox.smsWebhookUrl,
    BACKFILL_DAYS: '1',
  });
  token = await registerByEmail(server, mailbox, `a11y.${Date.now()}@example.com`, 'secret123');
  user = await expectOk(server.api('user/center', {}, token, 'GET'));
  ({ browser, page } = await launchBrowser(server.base));
  // axe measures colours as painted: a page still sliding in (opacity) blends text into its
  // background and reads as low contrast; the app turns the slide off under reduced motion.
  await page.emulateMedia({ reducedMotion: 'reduce' });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

screenshotFailures(() => page);

/** Waits until the page's chunk and its first data are in: no loading spinner or skeleton left. */
async function settled(p: Page) {
  await p.waitForFunction(
    () =>
      // index.html's placeholder bar ([data-boot]) is gone once the app has rendered
      !document.querySelector('.v-page-loading, .adm-skeleton, .v-skeleton, [data-boot]') &&
      document.querySelector('#root')?.childElementCount,
    undefined,
    { timeout: 20_000 },
  );
  // one more frame for what the data brought
  await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

describe.each([
  ['th', 'dark'],
  ['th', 'light'],
  ['en', 'dark'],
  ['en', 'light'],
] as const)('every route in %s, %s theme', (lang, theme) => {
  it('has no serious or critical accessibility violation', async () => {
    if (!server) throw new Error('no server');
    await page.goto(`${server.base}/h5/`);
    await page.evaluate(
      ([l, th, tk, u]) => {
        localStorage.setItem('lang', l);
        localStorage.setItem('theme', th);
        localStorage.setItem('token', tk);
        localStorage.setItem('user', u);
      },
      [lang, theme, token, JSON.stringify(user)] as const,
    );
    await page.reload();
    await settled(page);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
    const found: string[] = [];
    for (const [name, path] of Object.entries(paths) as [PageName, string][]) {
      await page.evaluate(
        (hash) => {
          window.location.hash = hash;
        },
        `#${path}${QUERY[name] ?? ''}`,
      );
      await settled(page);
      const { violations } = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      for (const v of violations) {
        if (v.impact !== 'serious' && v.impact !== 'critical') continue;
        for (const n of v.nodes)
          found.push(
            `${name} (${path}): ${v.id} [${v.impact}] ${n.target.join(' ')} — ${n.failureSummary ?? ''}`,
          );
      }
    }
    expect(found, found.join('\n')).toEqual([]);
  });
});
