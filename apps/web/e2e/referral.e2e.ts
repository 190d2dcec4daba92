import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, fundUser, storeSession } from './accounts.ts';
import {
  createOperator,
  eventually,
  expectOk,
  launchBrowser,
  NO_MARKET_DATA,
  operatorToken,
  registerByEmail,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// The referral programme as people live it at 390 × 844: a referee opens the referrer's link and
// registers with the code already filled in, trades on the spot market against a second user, and
// the referrer opens the promotion page and sees the rebate on the referee's fee.

const th = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/th.json'), 'utf8'));
const en = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/en.json'), 'utf8'));
const OPERATOR = { username: 'e2e-referral-ops', password: 'operator-pass-1' };

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
const stamp = Date.now();
const referrerEmail = `alice.${stamp}@example.com`;
const refereeEmail = `bob.${stamp}@example.com`;
let referrerToken: string;
let refereeToken: string;
let inviteCode: string;

const api = apiOf(() => server);

/** A deposit the user declares with a voucher and an operator passes, as a real one goes. */
async function deposit(token: string, currencyId: string, chain: string, amount: string) {
  const op = await operatorToken(server!, OPERATOR);
  await fundUser(server!, token, op, { currency_id: currencyId, chain, amount });
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-referral-e2e-'));
  await createOperator(dataDir, OPERATOR);
  mailbox = await startOutbox();
  server = await startServer(
    { ...NO_MARKET_DATA, SMTP_URL: mailbox.smtpUrl, SMS_WEBHOOK_URL: mailbox.smsWebhookUrl },
    { dataDir },
  );
  ({ browser, page } = await launchBrowser(server.base));
});

screenshotFailures(() => page);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const go = (route: string) => page.goto(`${server?.base}/h5/#${route}`);

describe('referral, end to end in Chromium at 390 × 844', () => {
  it('the referee opens the link and registers with the code filled in', async () => {
    referrerToken = await registerByEmail(server!, mailbox, referrerEmail, 'referrer-pass-1');
    const invite = await expectOk(
      api<{ invite_code: string; link: string }>('user/invite', {}, referrerToken, 'GET'),
    );
    inviteCode = invite.invite_code;
    // the link as shared: the registration page with the code in it
    await page.goto(`${server?.base}${invite.link}`);
    const codeInput = page.getByPlaceholder(th.auth.inviteCodePlaceholder);
    await expect.poll(() => codeInput.inputValue()).toBe(inviteCode);
    await page.getByRole('tab', { name: th.auth.email }).click();
    await page.getByPlaceholder(th.auth.emailPlaceholder).fill(refereeEmail);
    await page.getByText(th.auth.sendCode, { exact: true }).click();
    await page.waitForResponse((r) => r.url().endsWith('/api/sms_mail'));
    const code = await eventually(() => mailbox.lastCode(refereeEmail));
    await page.getByPlaceholder(th.auth.codePlaceholder, { exact: true }).fill(code);
    await page.getByPlaceholder(th.auth.newPasswordPlaceholder, { exact: true }).fill('referee-pass-1');
    await page.getByPlaceholder(th.auth.confirmPlaceholder, { exact: true }).fill('referee-pass-1');
    await page.locator('.v-form__agree .adm-checkbox-icon').click();
    await page.getByRole('button', { name: th.auth.register, exact: true }).click();
    await page.waitForFunction(() => localStorage.getItem('token') !== null);
    refereeToken = (await page.evaluate(() => localStorage.getItem('token')))!;
    const mine = await expectOk(
      api<{ authorisation_code: string | null }>('user/invite', {}, refereeToken, 'GET'),
    );
    expect(mine.authorisation_code).toBe(inviteCode);
  });

  it('the referee sells 0.01 BTC to a second user and pays the fee', async () => {
    const buyerToken = await registerByEmail(server!, mailbox, `buyer.${stamp}@example.com`, 'buyer-pass-1');
    await deposit(refereeToken, '1', 'BTC', '0.1');
    await deposit(buyerToken, '3', 'TRC20', '1000');
    await expectOk(
      api(
        'coin/trade',
        { symbol: 'btcusdt', side: 'buy', type: 'limit', price: '60000', qty: '0.01' },
        buyerToken,
      ),
    );
    const sold = await expectOk(
      api<{ status: string; fee: string }>(
        'coin/trade',
        { symbol: 'btcusdt', side: 'sell', type: 'limit', price: '60000', qty: '0.01' },
        refereeToken,
      ),
    );
    // 600 USDT × 0.1 %
    expect(sold).toMatchObject({ status: 'completed', fee: '0.6' });
  });

  it('the referrer opens the promotion page and sees the referee and the rebate', async () => {
    // Home's share button leads to the promotion page
    await storeSession(page, server!, referrerToken);
    await page.reload();
    await page.getByRole('button', { name: en.home.quick.share, exact: true }).click();
    await page.waitForFunction(() => location.hash === '#/pages/promotion/index');
    await page.getByText(inviteCode, { exact: true }).waitFor();
    const stats = page.getByRole('region', { name: en.promotion.stats });
    // 20 % of the 0.6 USDT fee
    await stats.getByText('0.12 USDT').waitFor();
    await expect.poll(() => stats.textContent()).toContain(en.promotion.promoted);
    // the ranking shows the referrer, masked
    const ranking = page.getByRole('list', { name: en.promotion.ranking });
    await ranking.getByText('al***@example.com').waitFor();
    await page.getByRole('tab', { name: en.promotion.referees }).click();
    await page.getByRole('list', { name: en.promotion.referees }).getByText('bo***@example.com').waitFor();
    await page.getByRole('tab', { name: en.promotion.rebates }).click();
    const rebates = page.getByRole('list', { name: en.promotion.rebates });
    await rebates.getByText('+0.12 USDT').waitFor();
    await rebates.getByText(en.promotion.kind.spot, { exact: false }).waitFor();
  });

  it('shows the poster and saves it as a picture', async () => {
    await page.getByRole('button', { name: en.promotion.poster }).click();
    const img = page.getByAltText(en.promotion.posterAlt);
    await img.waitFor();
    await expect.poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth)).toBe(600);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: en.promotion.savePoster }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('verdant-invitation.png');
  });

  it('the side menu’s referral programme entry leads to the same page', async () => {
    await go('/');
    await page.getByRole('button', { name: en.menu.title }).click();
    await page.locator('.v-side-menu').getByText(en.menu.referral, { exact: true }).click();
    await page.waitForFunction(() => location.hash === '#/pages/promotion/index');
    await page.getByRole('region', { name: en.promotion.stats }).waitFor();
  });
});
