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
  runNode,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// Locked deposit products and a new coin as a funded user lives them at 390 × 844: buy a product,
// watch interest arrive (a day lasts 3 s here: TRUST_DAY_MS), redeem early and see the penalty
// first; subscribe to a new coin, have an operator pass it, and redeem it once it has launched.

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/en.json'), 'utf8'));
const OPERATOR = { username: 'e2e-trust-ops', password: 'operator-pass-1' };
const DAY_MS = 3000;
// the seeded project closes 90 s after the server data is made and launches 5 s later
const CLOSE_S = 90;
const LAUNCH_S = 95;

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let userToken: string;
let opToken: string;
const email = `trust.${Date.now()}@example.com`;

const api = apiOf(() => server);

type Balance = { currency_id: number; available: string; frozen: string };
type WalletList = { accounts: { type: string; currencies: Balance[] }[] };
async function balance(type: string, currencyId: number): Promise<Balance> {
  const list = await expectOk(api<WalletList>('wallet/list', {}, userToken));
  const b = list.accounts.find((a) => a.type === type)?.currencies.find((c) => c.currency_id === currencyId);
  return b ?? { currency_id: currencyId, available: '0', frozen: '0' };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-trust-e2e-'));
  await createOperator(dataDir, OPERATOR);
  const seeded = await runNode([join(import.meta.dirname, 'seed-launch.ts')], {
    DATA_DIR: dataDir,
    CLOSE_S: String(CLOSE_S),
    LAUNCH_S: String(LAUNCH_S),
  });
  expect(seeded.code, seeded.out).toBe(0);
  mailbox = await startOutbox();
  server = await startServer(
    {
      ...NO_MARKET_DATA,
      SMTP_URL: mailbox.smtpUrl,
      SMS_WEBHOOK_URL: mailbox.smsWebhookUrl,
      TRUST_DAY_MS: String(DAY_MS),
    },
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
const dialog = () => page.locator('.adm-dialog');

describe('locked deposits and new coins, end to end in Chromium at 390 × 844', () => {
  it('a user deposits 3000 USDT and moves 1500 to the trust account', async () => {
    userToken = await registerByEmail(server!, mailbox, email, 'trust-pass-1');
    opToken = await operatorToken(server!, OPERATOR);
    await fundUser(server!, userToken, opToken, { currency_id: '3', chain: 'TRC20', amount: '3000' });
    await expectOk(
      api('wallet/change', { currency_id: '3', from: 'spot', to: 'trust', amount: '1500' }, userToken),
    );
    expect((await balance('trust', 3)).available).toBe('1500');
    await storeSession(page, server!, userToken);
  });

  it('the Finance tab lists the products; buying checks amount and agreement, then confirms', async () => {
    await go('/pages/template/index');
    await page.reload();
    const card = page.getByRole('article', { name: 'USDT 15-day hosting' });
    await card.getByText('0.4%').waitFor();
    await card.getByRole('link', { name: en.trust.buy }).click();
    await page.locator('#trust-amount').waitFor();
    const buy = page.getByRole('button', { name: en.trust.buy });
    await buy.click();
    await page.getByRole('alert').filter({ hasText: en.trust.amountRequired }).waitFor();
    await page.locator('#trust-amount').fill('50');
    await buy.click();
    await page.getByRole('alert').filter({ hasText: 'The minimum escrow is 100 USDT' }).waitFor();
    await page.locator('#trust-amount').fill('1000');
    await buy.click();
    await page.getByRole('alert').filter({ hasText: en.trust.agreementRequired }).waitFor();
    await page.getByText(en.trust.agreement).click();
    await buy.click();
    await dialog().getByText('Lock 1,000 USDT in USDT 15-day hosting for 15 days?').waitFor();
    await dialog().getByRole('button', { name: en.common.confirm }).click();
    // on to the orders, hosting
    await page.getByRole('article', { name: 'USDT 15-day hosting' }).waitFor();
    expect(await balance('trust', 3)).toMatchObject({ frozen: '1000' });
  });

  it('income accrues day by day (4 USDT a day on 1,000 at 0.4 %)', async () => {
    const income = () =>
      page.getByRole('article', { name: 'USDT 15-day hosting' }).locator('dd').nth(2).textContent();
    await eventually(async () => {
      await page.reload();
      const text = (await income()) ?? '';
      expect(Number(text.replace(/[^\d.]/g, ''))).toBeGreaterThanOrEqual(8);
    }, 100);
  });

  it('redeeming early shows the penalty (1.5 × 4 = 6) before it confirms, then pays principal − 6', async () => {
    const before = await balance('trust', 3);
    await page.getByRole('button', { name: en.trust.redeem }).click();
    await dialog()
      .getByText(/penalty of 6 USDT: 994 USDT of the principal comes back/)
      .waitFor();
    await dialog().getByRole('button', { name: en.trust.redeem }).click();
    await page.getByRole('tab', { name: en.trust.status.redeemed }).click();
    await page.getByText(en.trust.status.redeemed, { exact: true }).last().waitFor();
    const after = await balance('trust', 3);
    expect(after.frozen).toBe('0');
    // 994 of the principal back, plus whatever day was paid between the two reads
    expect(Number(after.available) - Number(before.available)).toBeGreaterThanOrEqual(994);
    expect((Number(after.available) - 500 - 994) % 4).toBe(0);
  });

  it('subscribes to a new coin from its details page, with a confirmation sheet', async () => {
    await go('/pages/publication/index');
    await page.getByRole('link', { name: 'E2E Coin' }).click();
    await page.getByText('A coin made for the end-to-end test.').waitFor();
    await page.getByRole('button', { name: en.launchpad.subscribe }).click();
    await page.locator('#lp-amount').fill('100');
    await page.getByRole('button', { name: en.launchpad.subscribe }).click();
    await dialog()
      .getByText(/Pay 100 USDT for EEC/)
      .waitFor();
    await dialog().getByRole('button', { name: en.common.confirm }).click();
    await page.getByRole('tab', { name: en.launchpad.view.progress }).waitFor();
    expect(await balance('spot', 3)).toMatchObject({ available: '1400', frozen: '100' });
  });

  it('an operator passes it; after launch the user redeems 400 EEC', async () => {
    const queue = await expectOk(
      api<{ items: { id: string }[] }>('admin/launchpad?status=review', {}, opToken, 'GET'),
    );
    await expectOk(api('admin/launchpad/pass', { id: queue.items[0]!.id }, opToken));
    await page.getByRole('tab', { name: en.launchpad.view.mine }).click();
    await page.getByText(en.launchpad.status.passed).waitFor();
    // wait for the launch (the server's time of it), then the redeem button comes alive
    const info = await expectOk(
      api<{ project: { launch_at: string } }>('lh/send/product_info?id=50', {}, undefined, 'GET'),
    );
    const wait = Date.parse(info.project.launch_at) - Date.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait + 1000));
    await page.reload();
    await page.getByRole('tab', { name: en.launchpad.view.mine }).click();
    const redeem = page.getByRole('button', { name: en.launchpad.redeem });
    await eventually(async () => expect(await redeem.isEnabled()).toBe(true));
    await redeem.click();
    await eventually(async () =>
      expect(await balance('spot', 50)).toMatchObject({ available: '400', frozen: '0' }),
    );
  }, 180_000);
});
