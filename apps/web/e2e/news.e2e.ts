import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, declareDeposit, storeSession } from './accounts.ts';
import {
  createOperator,
  expectOk,
  launchBrowser,
  NO_MARKET_DATA,
  operatorToken,
  registerByEmail,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// Notices and messages as a user meets them at 390 × 844: the notice bar on Home, the notices
// list and a notice; then an operator passes the user's deposit and the message shows up on the
// open messages tab without a reload.

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/en.json'), 'utf8'));
const OPERATOR = { username: 'e2e-news-ops', password: 'operator-pass-1' };

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let userToken: string;
let opToken: string;
const email = `news.${Date.now()}@example.com`;

const api = apiOf(() => server);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-news-e2e-'));
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

describe('notices and messages, end to end in Chromium at 390 × 844', () => {
  it('an operator publishes a notice; a logged-in user sees it in the notice bar on Home', async () => {
    opToken = await operatorToken(server!, OPERATOR);
    const created = await expectOk(
      api<{ id: number }>(
        'admin/news/create',
        {
          title_en: 'Trading hours this weekend',
          body_en: 'Markets stay open.\nDeposits are reviewed as usual.',
        },
        opToken,
      ),
    );
    await expectOk(api('admin/news/publish', { id: String(created.id) }, opToken));
    userToken = await registerByEmail(server!, mailbox, email, 'news-pass-1');
    await storeSession(page, server!, userToken);
    await page.reload();
    const bar = page.getByRole('region', { name: en.news.noticeBar });
    await bar.getByRole('button', { name: 'Trading hours this weekend' }).waitFor();
    // the bell says there is something unread
    await page.getByRole('button', { name: `${en.titles.notices}, ${en.news.unread}` }).waitFor();
  });

  it('the bell leads to the notices, newest first with unread marks; a notice opens with its paragraphs', async () => {
    await page.getByRole('button', { name: `${en.titles.notices}, ${en.news.unread}` }).click();
    // a row is named by what it shows, "unread" (said, and a dot) after the title until opened
    const row = page.getByRole('button', { name: `Trading hours this weekend ${en.news.unread}` });
    await row.waitFor();
    await page.getByRole('button', { name: `Welcome to Verdant ${en.news.unread}` }).waitFor();
    await row.click();
    await page.getByRole('heading', { name: 'Trading hours this weekend' }).waitFor();
    await page.getByText('Deposits are reviewed as usual.').waitFor();
    await page.goBack();
    // opened: no longer marked unread
    await page
      .getByRole('button', { name: /^Trading hours this weekend Notice Markets stay open/ })
      .waitFor();
  });

  it('the notice bar takes the user straight to a notice too', async () => {
    await go('/');
    const title = page
      .getByRole('region', { name: en.news.noticeBar })
      .getByRole('button', { name: 'Welcome to Verdant' });
    // the titles scroll; focus holds them still (as pointing at them does) so it can be tapped
    await title.focus();
    await title.click();
    await page.getByRole('heading', { name: 'Welcome to Verdant' }).waitFor();
  });

  it('an operator passes the deposit: the message appears on the open messages tab without a reload', async () => {
    await go('/pages/notice/index?tab=messages');
    await page.getByText(en.news.noMessages).waitFor();
    const deposit = await declareDeposit(server!, userToken, {
      currency_id: '3',
      chain: 'TRC20',
      amount: '500',
    });
    await expectOk(api('admin/deposits/approve', { id: String(deposit.id) }, opToken));
    const message = page.getByRole('article', { name: `Deposit credited, ${en.news.unread}` });
    await message.waitFor();
    await message
      .getByText(`Your deposit #${deposit.id} of 500 USDT was approved and credited to your spot account.`)
      .waitFor();
    await message.getByRole('button', { name: en.news.markRead }).click();
    await page.getByRole('article', { name: 'Deposit credited', exact: true }).waitFor();
    const counts = await expectOk(api<{ messages: number }>('news/messages/unread', {}, userToken));
    expect(counts.messages).toBe(0);
  });
});
