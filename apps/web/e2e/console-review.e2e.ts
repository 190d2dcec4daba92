// The operator console in Chromium at a desktop size (1280 × 800): the first sign-in (forced
// password change, TOTP enrolment from the QR code's key, codes computed as an authenticator
// does), the review queues passing an identity verification, a deposit with the amount that
// arrived and a withdrawal with its payout reference, and the user's balance after each.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import * as OTPAuth from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, declareDeposit } from './accounts.ts';
import {
  createOperator,
  eventually,
  expectOk,
  launchBrowser,
  NO_MARKET_DATA,
  registerByEmail,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

const OPERATOR = { username: 'console-admin', password: 'first-password-1' };
const NEW_PASSWORD = 'my-own-password-2';
const FUND_PASSWORD = '135790';
const BANK = '9999';
/** Where the console's pages are saved for a look (ADMIN_SHOTS overrides). */
const SHOTS = process.env.ADMIN_SHOTS || join(tmpdir(), 'verdant-console-shots');

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let userToken: string;
let secret = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-console-e2e-'));
  await createOperator(dataDir, OPERATOR);
  mailbox = await startOutbox();
  server = await startServer(
    { SMTP_URL: mailbox.smtpUrl, SMS_WEBHOOK_URL: mailbox.smsWebhookUrl, ...NO_MARKET_DATA },
    { dataDir },
  );
  ({ browser } = await launchBrowser(server.base));
  const desktop = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    // the console then animates nothing: screenshots show pages at rest
    reducedMotion: 'reduce',
  });
  page = await desktop.newPage();
});

screenshotFailures(() => page);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const api = apiOf(() => server);

/** A screenshot to look at, and axe-core's WCAG 2.1 AA checks of the page as it is: none may fail. */
async function shot(name: string) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  const found = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, name).toEqual([]);
}

/** The authenticator's code `stepsAhead` 30-second steps from now (the server accepts one step of drift). */
const code = (stepsAhead = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

async function bankBalance(): Promise<{ available: string; frozen: string }> {
  type WalletList = {
    accounts: { type: string; currencies: { currency_id: number; available: string; frozen: string }[] }[];
  };
  const list = await expectOk(api<WalletList>('wallet/list', {}, userToken));
  const c = list.accounts
    .find((a) => a.type === 'spot')
    ?.currencies.find((x) => x.currency_id === Number(BANK));
  return { available: c?.available ?? '0', frozen: c?.frozen ?? '0' };
}

/** The row of a table that holds `text`. */
const row = (text: string) => page.locator('tr.ant-table-row').filter({ hasText: text }).first();

describe('the operator console, end to end in Chromium at 1280 × 800', () => {
  it('first sign-in: password, a new password, then TOTP enrolment from the QR code', async () => {
    userToken = await registerByEmail(server!, mailbox, `console.${Date.now()}@example.com`, 'user-pass-12');
    await expectOk(
      api('safe/update_password', { password: FUND_PASSWORD, re_password: FUND_PASSWORD }, userToken),
    );
    await expectOk(
      api('user/real_name', { country: 'TH', name: 'Somchai Jaidee', id_number: 'CD987654' }, userToken),
    );

    await page.goto(`${server!.base}/admin`);
    await page.waitForFunction(() => location.pathname === '/admin/' && location.hash.startsWith('#/login'));
    await page.getByLabel('Username').fill(OPERATOR.username);
    await page.getByLabel('Password').fill(OPERATOR.password);
    await shot('01-login');
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('Current password').fill(OPERATOR.password);
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill('something-else-3');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The two passwords differ.').waitFor();
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();

    await page.getByRole('heading', { name: 'Set up two-factor authentication' }).waitFor();
    await page.locator('svg[role="img"], main svg').first().waitFor();
    secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shot('02-enrol');
    await page.getByLabel('Six-digit code').fill('000000' === code() ? '111111' : '000000');
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();
    await page.getByText('This code is not right', { exact: false }).waitFor();
    await page.getByLabel('Six-digit code').fill(code());
    await page.getByRole('button', { name: 'Confirm and sign in' }).click();

    await page.getByTestId('operator-name').filter({ hasText: OPERATOR.username }).waitFor();
    await page.getByText('Admin', { exact: true }).first().waitFor();
  });

  it('passes the identity verification from its queue; the menu counts it', async () => {
    const kycMenu = page.getByRole('menuitem', { name: /Identity verification/ });
    await kycMenu.locator('.ant-badge').filter({ hasText: '1' }).waitFor();
    await kycMenu.click();
    await row('Somchai Jaidee').waitFor();
    await shot('03-kyc');
    await row('Somchai Jaidee').getByRole('button', { name: 'Pass' }).click();
    await page.locator('.ant-popconfirm').getByRole('button', { name: 'Pass' }).click();
    await row('Somchai Jaidee').waitFor({ state: 'detached' });
    // the count is read again after the decision: nothing waits any more
    await kycMenu.locator('.ant-badge').waitFor({ state: 'detached' });
    const center = await expectOk(api<{ verification: string }>('user/center', {}, userToken, 'GET'));
    expect(JSON.stringify(center)).toMatch(/verified/);
  });

  it('passes a deposit with the amount that arrived: the user is credited that amount', async () => {
    await declareDeposit(server!, userToken, { currency_id: BANK, amount: '1000' });
    expect(await bankBalance()).toEqual({ available: '0', frozen: '0' });

    await page.getByRole('menuitem', { name: /Deposits/ }).click();
    await row('1000').waitFor();
    // the voucher is fetched with the operator's token
    await row('1000').locator('.ant-table-row-expand-icon').click();
    await page.locator('.ant-image img').first().waitFor();
    await row('1000').getByRole('button', { name: 'Pass' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('textbox').inputValue()).toBe('1000');
    await dialog.getByRole('textbox').fill('990');
    await shot('04-deposit-pass');
    await dialog.getByRole('button', { name: 'Pass' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await eventually(async () => expect(await bankBalance()).toEqual({ available: '990', frozen: '0' }));
  });

  it('passes a withdrawal with the payout reference: the frozen amount leaves the account', async () => {
    const card = await expectOk(
      api<{ id: number }>(
        'user/cash_save',
        {
          name: 'Somchai',
          card_number: '123456789012',
          bank_name: 'Bangkok Bank',
          swift: 'BKKBTHBK',
          holder_name: 'SOMCHAI JAIDEE',
        },
        userToken,
      ),
    );
    await expectOk(
      api(
        'wallet/out',
        { currency_id: BANK, bank_card_id: String(card.id), amount: '300', fund_password: FUND_PASSWORD },
        userToken,
      ),
    );
    const held = await bankBalance();
    expect(Number(held.frozen)).toBeGreaterThanOrEqual(300);

    await page.getByRole('menuitem', { name: /Withdrawals/ }).click();
    await row('300').waitFor();
    await row('300').getByRole('button', { name: 'Pass' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Pass' }).click();
    await dialog.getByText('Please fill this in.').waitFor();
    await dialog.getByRole('textbox').fill('BBL-20261125-0001');
    await shot('05-withdrawal-pass');
    await dialog.getByRole('button', { name: 'Pass' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await eventually(async () =>
      expect(await bankBalance()).toEqual({ available: held.available, frozen: '0' }),
    );
    await page.locator('.ant-segmented-item').filter({ hasText: 'Approved' }).click();
    await row('300').waitFor();
  });

  it('a later sign-in asks for a code; the audit log shows every step', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForFunction(() => location.hash.startsWith('#/login'));
    await page.getByLabel('Username').fill(OPERATOR.username);
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Two-factor authentication' }).waitFor();
    // the enrolment used this step's code: the next step's code is the one an authenticator shows next
    await page.getByLabel('Six-digit code').fill(code(1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByTestId('operator-name').waitFor();

    await page.getByRole('menuitem', { name: /Audit log/ }).click();
    for (const action of [
      'operator.totp_verify',
      'withdrawal.approve',
      'deposit.approve',
      'verification.approve',
    ])
      await page.getByRole('cell', { name: action, exact: true }).first().waitFor();
    await shot('06-audit');
    await page.getByRole('menuitem', { name: /Operators/ }).click();
    await row(OPERATOR.username).waitFor();
    await shot('07-operators');

    // the language switch: the console and the server's messages in Thai, kept for the next visit
    await page.getByLabel('Language').click();
    await page.getByTitle('ไทย').click();
    await page.getByRole('menuitem', { name: /การยืนยันตัวตน/ }).click();
    await page.getByRole('heading', { name: 'การยืนยันตัวตน' }).waitFor();
    await shot('08-kyc-thai');
    await page.reload();
    await page.getByRole('button', { name: 'ออกจากระบบ' }).waitFor();
  });

  it('a session ended elsewhere sends the operator to login, keeping the page to return to', async () => {
    const stored = await page.evaluate(() => localStorage.getItem('verdant-admin-session'));
    const { token } = JSON.parse(stored ?? '{}') as { token: string };
    await expectOk(api('admin/logout', {}, token));
    await page.getByRole('menuitem', { name: /ผู้ปฏิบัติงาน/ }).click();
    await page.waitForFunction(() => location.hash === '#/login?next=%2Foperators');
    await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).waitFor();
  });
});
