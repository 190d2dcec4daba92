import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eventually,
  expectOk,
  launchBrowser,
  NO_MARKET_DATA,
  registerByEmail,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// The account page's second contact: an account registered by e-mail binds a phone number with
// the code the SMS hook receives, and the page shows it; a wrong code is refused. In Thai, the
// default language.

const th = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/th.json'), 'utf8'));

let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>>;
let browser: Browser;
let page: Page;
let token: string;
const email = `bind.${Date.now()}@example.com`;
const mobile = '898765432';

beforeAll(async () => {
  mailbox = await startOutbox();
  server = await startServer({
    ...NO_MARKET_DATA,
    SMTP_URL: mailbox.smtpUrl,
    SMS_WEBHOOK_URL: mailbox.smsWebhookUrl,
  });
  ({ browser, page } = await launchBrowser(server.base));
  token = await registerByEmail(server, mailbox, email, 'bind-pass-1');
  const user = await expectOk(server.api('user/center', {}, token, 'GET'));
  // logged in, as the app itself stores it
  await page.goto(`${server.base}/h5/`);
  // the app listens for address changes once it has rendered (HashRouter): wait for Home's tab bar
  await page.locator('.adm-tab-bar').waitFor();
  await page.evaluate(
    ({ t, u }) => {
      localStorage.setItem('token', t);
      localStorage.setItem('user', u);
    },
    { t: token, u: JSON.stringify(user) },
  );
});

screenshotFailures(() => page);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
});

const phoneRow = () => page.locator('.adm-list-item').filter({ hasText: th.account.phone });

describe('binding the second contact, end to end in Chromium at 390 × 844', () => {
  it('refuses a wrong code under the code field and binds nothing', async () => {
    await page.goto(`${server.base}/h5/#/pages/settings/account/index`);
    await phoneRow().getByText(th.account.bindNow).click();
    await page.getByPlaceholder(th.auth.phonePlaceholder).fill(mobile);
    await page.getByRole('button', { name: th.auth.sendCode }).click();
    await page.waitForResponse((r) => r.url().endsWith('/api/sms_send'));
    const code = await eventually(() => mailbox.lastCode(`+66 ${mobile}`));
    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByPlaceholder(th.auth.codePlaceholder).fill(wrong);
    await page.getByRole('button', { name: th.account.bindSubmit, exact: true }).click();
    await page.locator('.adm-form-item-feedback-error').first().waitFor();
    const me = await expectOk(server.api<{ mobile: string | null }>('user/center', {}, token, 'GET'));
    expect(me.mobile).toBeNull();
    await page.locator('.adm-popup-close-icon').click();
  });

  it('binds the phone with the code sent to it, and the account page shows it', async () => {
    await phoneRow().getByText(th.account.bindNow).click();
    await page.getByPlaceholder(th.auth.phonePlaceholder).fill(mobile);
    // the code sent for the first test is still valid (one new code a minute per target)
    const code = await eventually(() => mailbox.lastCode(`+66 ${mobile}`));
    await page.getByPlaceholder(th.auth.codePlaceholder).fill(code);
    await page.getByRole('button', { name: th.account.bindSubmit, exact: true }).click();
    await eventually(async () => expect(await phoneRow().textContent()).toContain('+66 898'));
    expect(await phoneRow().textContent()).not.toContain(th.account.bindNow);

    const me = await expectOk(
      server.api<{ mobile: string; area_code: string }>('user/center', {}, token, 'GET'),
    );
    expect(me).toMatchObject({ mobile, area_code: '66' });
  });
});
