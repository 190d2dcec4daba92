import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDecimal, subDecimal } from '@verdant/engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, fundUser, storeSession, verifyIdentity } from './accounts.ts';
import {
  createOperator,
  eventually,
  expectOk,
  launchBrowser,
  operatorToken,
  registerByEmail,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// A timed option as a verified, funded user lives it at 390 × 844: the live index on the option
// tab, the buy popup's rules (time first, the range), a 30 s bullish option bought, its countdown
// running, its delivery pushed over the socket, and the option balance changed by the result.

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/en.json'), 'utf8'));
const OPERATOR = { username: 'e2e-options-ops', password: 'operator-pass-1' };

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let userToken: string;
const email = `options.${Date.now()}@example.com`;

const api = apiOf(() => server);

type Balance = { currency_id: number; available: string; frozen: string };
type WalletList = { accounts: { type: string; currencies: Balance[] }[] };
async function optionUsdt(): Promise<Balance> {
  const list = await expectOk(api<WalletList>('wallet/list', {}, userToken));
  const b = list.accounts.find((a) => a.type === 'option')?.currencies.find((c) => c.currency_id === 3);
  return b ?? { currency_id: 3, available: '0', frozen: '0' };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-options-e2e-'));
  await createOperator(dataDir, OPERATOR);
  mailbox = await startOutbox();
  // the index feed runs (a tick a second); no 30-day history and no market maker: not looked at
  server = await startServer(
    {
      SMTP_URL: mailbox.smtpUrl,
      SMS_WEBHOOK_URL: mailbox.smsWebhookUrl,
      BACKFILL_DAYS: '0',
      MARKET_MAKER: '0',
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

describe('timed options, end to end in Chromium at 390 × 844', () => {
  it('a user is verified, deposits 1000 USDT and moves it to the option account', async () => {
    userToken = await registerByEmail(server!, mailbox, email, 'options-pass-1');
    const opToken = await operatorToken(server!, OPERATOR);
    await verifyIdentity(server!, userToken, opToken);

    await fundUser(server!, userToken, opToken, { currency_id: '3', chain: 'TRC20', amount: '1000' });
    await expectOk(
      api('wallet/change', { currency_id: '3', from: 'spot', to: 'option', amount: '1000' }, userToken),
    );
    expect((await optionUsdt()).available).toBe('1000');

    await storeSession(page, server!, userToken);
  });

  it('shows the option tab with the live index of BTC/USDT', async () => {
    await go('/pages/option/detail');
    await page.reload();
    await page.getByRole('button', { name: /BTC\/USDT/ }).waitFor();
    // the chart fills with ticks arriving over the socket, and the price follows them
    await eventually(async () => expect(await page.locator('.v-option-chart__line').count()).toBe(1), 300);
    const first = await page.getByTestId('option-price').textContent();
    await eventually(
      async () => expect(await page.getByTestId('option-price').textContent()).not.toBe(first),
      300,
    );
    // the option tab is the active one of the bottom bar
    expect(await page.locator('.adm-tab-bar-item-active').count()).toBe(1);
    expect(await page.locator('.adm-tab-bar-item-active').textContent()).toContain(en.tabs.option);
  });

  it('buys a 30 s bullish option: time first, the range, the expected profit, then a countdown', async () => {
    await page.getByRole('button', { name: `↑ ${en.option.bullish}` }).click();
    const popup = page.locator('.v-option-buy');
    await popup.waitFor();
    // the rules are on the popup before any purchase
    await popup.getByText(/first tick at or after the delivery time/).waitFor();
    await popup.getByRole('button', { name: en.option.confirm }).click();
    await popup.getByRole('alert').filter({ hasText: en.option.chooseTimeFirst }).waitFor();

    await popup.getByRole('button', { name: /^30 s/ }).click();
    await popup.getByPlaceholder('10 – 5,000 USDT').waitFor();
    await popup.getByRole('button', { name: en.option.confirm }).click();
    await popup.getByRole('alert').filter({ hasText: en.option.amountRequired }).waitFor();
    await popup.locator('input').fill('5');
    await popup.getByRole('button', { name: en.option.confirm }).click();
    await popup.getByRole('alert').filter({ hasText: 'between 10 and 5,000 USDT' }).waitFor();

    await popup.locator('input').fill('100');
    // 100 × 80 % = 80, less the 2 % fee on it
    await popup.getByTestId('option-expected').filter({ hasText: '+78.4 USDT' }).waitFor();
    await popup.getByText('1,000 USDT').waitFor();
    await popup.getByRole('button', { name: en.option.confirm }).click();

    const card = page.locator('.v-option-order').first();
    await card.waitFor();
    const countdown = card.getByTestId('option-countdown');
    const first = Number(((await countdown.textContent()) ?? '').replace(/\D/g, ''));
    expect(first).toBeGreaterThan(20);
    expect(first).toBeLessThanOrEqual(30);
    await eventually(async () => {
      const now = Number(((await countdown.textContent()) ?? '').replace(/\D/g, ''));
      expect(now).toBeLessThan(first);
    }, 50);
    expect(await optionUsdt()).toMatchObject({ available: '900', frozen: '100' });
    await page.screenshot({ path: join(tmpdir(), 'verdant-option-waiting.png') });
  });

  it('sees the delivery over the socket, with both ticks, and the balance changed by the result', async () => {
    const delivered = page.locator('.v-option__delivered');
    await delivered.waitFor({ timeout: 60_000 });
    const result = ((await delivered.getByTestId('option-result').textContent()) ?? '').trim();
    expect([en.option.result.win, en.option.result.loss, en.option.result.flat]).toContain(result);
    await page.screenshot({ path: join(tmpdir(), 'verdant-option-delivered.png') });

    const history = await expectOk(
      api<{
        list: {
          result: string;
          payout: string;
          purchase: { price: string };
          delivery: { price: string; time: string };
          deliver_at: string;
        }[];
      }>('microtrade/lists?status=delivered', {}, userToken, 'GET'),
    );
    const o = history.list[0]!;
    expect(Date.parse(o.delivery.time)).toBeGreaterThanOrEqual(Date.parse(o.deliver_at));
    const expected = { win: '178.4', loss: '0', flat: '100' }[o.result]!;
    expect(o.payout).toBe(expected);
    const balance = await optionUsdt();
    expect(balance.frozen).toBe('0');
    expect(balance.available).toBe(addDecimal(subDecimal('1000', '100'), expected));

    // the history tab lists it with its delivery price
    await page.getByRole('tab', { name: en.option.history }).click();
    await page
      .locator('.v-option__orders .v-option-order')
      .first()
      .getByText(en.option.deliveryTick)
      .waitFor();
  });
});
