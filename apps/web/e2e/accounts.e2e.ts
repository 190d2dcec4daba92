import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  launchBrowser,
  NO_MARKET_DATA,
  passcode,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// Texts come from the app's own locale files, so the test reads the screen as a user would.
const locale = (l: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales', `${l}.json`), 'utf8'));
const th = locale('th');
const en = locale('en');

let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>>;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mailbox = await startOutbox();
  server = await startServer({
    ...NO_MARKET_DATA,
    SMTP_URL: mailbox.smtpUrl,
    SMS_WEBHOOK_URL: mailbox.smsWebhookUrl,
  });
  ({ browser, page } = await launchBrowser(server.base));
});

screenshotFailures(() => page);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

const go = (route: string) => page.goto(`${server.base}/h5/#${route}`);
const token = () => page.evaluate(() => localStorage.getItem('token'));
const hash = () => page.evaluate(() => location.hash);

const typePasscode = (n: number, digits: string) => passcode(page, n, digits);

describe('accounts, end to end in Chromium at 390 × 844', () => {
  const email = `e2e.${Date.now()}@example.com`;
  let password = 'first-pass-1';
  let oldToken: string | null = null;

  it('registers by e-mail with the code from the SMTP server, in Thai by default', async () => {
    await go('/pages/user/login/register');
    await page.getByRole('tab', { name: th.auth.email }).click();
    await page.getByPlaceholder(th.auth.emailPlaceholder).fill(email);
    await page.getByText(th.auth.sendCode, { exact: true }).click();
    await page.waitForResponse((r) => r.url().endsWith('/api/sms_mail'));
    const code = await eventually(() => mailbox.lastCode(email));
    await page.getByPlaceholder(th.auth.codePlaceholder, { exact: true }).fill(code);
    await page.getByPlaceholder(th.auth.newPasswordPlaceholder, { exact: true }).fill(password);
    await page.getByPlaceholder(th.auth.confirmPlaceholder, { exact: true }).fill(password);
    await page.locator('.v-form__agree .adm-checkbox-icon').click();
    await page.getByRole('button', { name: th.auth.register, exact: true }).click();
    await page.waitForFunction(() => localStorage.getItem('token') !== null);
    await page.waitForFunction(
      () => location.hash === '#/' || location.hash.startsWith('#/pages/index/index'),
    );
  });

  it('logs out from settings and logs back in with the password', async () => {
    await go('/pages/settings/index');
    await page.getByText(th.settings.logout, { exact: true }).click();
    await page.locator('.adm-dialog').getByText(th.settings.logout, { exact: true }).click();
    await page.waitForFunction(() => localStorage.getItem('token') === null);

    await go('/pages/user/login/login');
    await page.getByRole('tab', { name: th.auth.email }).click();
    await page.getByPlaceholder(th.auth.emailPlaceholder).fill(email);
    await page.getByPlaceholder(th.auth.passwordPlaceholder).fill(password);
    await page.getByRole('button', { name: th.auth.login, exact: true }).click();
    await page.waitForFunction(() => localStorage.getItem('token') !== null);
    // the app leaves the login page by itself: wait for that before going anywhere else
    await page.waitForFunction(
      () => location.hash === '#/' || location.hash.startsWith('#/pages/index/index'),
    );
    const me = await server.api<{ email: string }>('user/center', {}, (await token())!, 'GET');
    expect(me.data.email).toBe(email);
  });

  it('switches to English and keeps it after a reload', async () => {
    await go('/pages/settings/language/language');
    await page.getByText('English', { exact: true }).click();
    // the switch is done when the page speaks English (its bundle loads first); then reload
    await page.waitForFunction(
      () => localStorage.getItem('lang') === 'en' && document.documentElement.lang === 'en',
    );
    await page.reload();
    await go('/pages/settings/index');
    await page.getByText(en.settings.language, { exact: true }).first().waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
    // the account keeps the choice too
    const me = await server.api<{ lang: string }>('user/center', {}, (await token())!, 'GET');
    expect(me.data.lang).toBe('en');
  });

  it('sets a 6-digit fund password', async () => {
    await go('/pages/settings/security/changePayPassword');
    await typePasscode(0, '135790');
    await typePasscode(1, '135790');
    await page.getByRole('button', { name: en.common.confirm, exact: true }).click();
    await page.waitForFunction(() => !location.hash.includes('changePayPassword'));
    const has = await server.api<{ has_password: boolean }>('user/has_password', {}, (await token())!);
    expect(has.data.has_password).toBe(true);
  });

  it('changes the login password, and the old session is rejected', async () => {
    oldToken = await token();
    await go('/pages/settings/security/changePassword');
    await page.getByPlaceholder(en.security.oldPasswordPlaceholder).fill(password);
    const inputs = page.locator('input[type="password"]');
    await inputs.nth(1).fill('second-pass-2');
    await inputs.nth(2).fill('second-pass-2');
    await page.getByRole('button', { name: en.common.confirm, exact: true }).click();
    await page.waitForFunction(() => location.hash.includes('pages/user/login/login'));
    password = 'second-pass-2';
    expect(await token()).toBeNull();
    const rejected = await server.api('user/center', {}, oldToken!, 'GET');
    expect(rejected).toMatchObject({ type: '999', code: 999 });
  });

  it('sends a logged-out visitor of a protected page to login with backpage, and back after login', async () => {
    await go('/pages/settings/account/index');
    await page.waitForFunction(() => location.hash.includes('pages/user/login/login'));
    const h = await hash();
    expect(h).toContain(`backpage=${encodeURIComponent('/pages/settings/account/index')}`);
    expect(h).toContain('backtype=1');
    await page.getByRole('tab', { name: en.auth.email }).click();
    await page.getByPlaceholder(en.auth.emailPlaceholder).fill(email);
    await page.getByPlaceholder(en.auth.passwordPlaceholder).fill(password);
    await page.getByRole('button', { name: en.auth.login, exact: true }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/pages/settings/account/index'));
    await page.getByText(email).first().waitFor();
  });
});
