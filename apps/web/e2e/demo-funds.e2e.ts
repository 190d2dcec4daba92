import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { addDecimal, compareDecimal, mulDecimal, truncateDecimal } from '@verdant/engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeSession } from './accounts.ts';
import {
  eventually,
  expectOk,
  launchBrowser,
  registerByEmail,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// A newcomer on a server without real deposit keys (issue 23), at 390 × 844: the assets page
// offers demo funds; the user confirms, sees the success toast and the balance, the offer goes
// away, and the funds buy something on the spot market.

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/en.json'), 'utf8'));

let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let userToken: string;
const email = `demo.${Date.now()}@example.com`;

type Balance = { currency_id: number; available: string; frozen: string };
type WalletList = { accounts: { type: string; currencies: Balance[] }[] };
async function spotUsdt(): Promise<Balance> {
  const list = await expectOk(server!.api<WalletList>('wallet/list', {}, userToken));
  return list.accounts.find((a) => a.type === 'spot')!.currencies.find((c) => c.currency_id === 3)!;
}

beforeAll(async () => {
  mailbox = await startOutbox();
  // the index feed runs (a spot order needs an index price for its band); no back-fill, no maker
  server = await startServer({
    BACKFILL_DAYS: '0',
    MARKET_MAKER: '0',
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

const go = (route: string) => page.goto(`${server?.base}/h5/#${route}`);
const dialogButton = (name: string) =>
  page.locator('.adm-dialog').last().getByRole('button', { name, exact: true });

describe('demo funds, end to end in Chromium at 390 × 844', () => {
  it('a new user takes the demo funds on the assets page, once', async () => {
    userToken = await registerByEmail(server!, mailbox, email, 'demo-pass-1');
    await storeSession(page, server!, userToken);
    await page.goto('about:blank'); // a load of its own, not a change of address in the running app
    await go('/pages/assets/index');
    await page.reload();
    const take = page.getByRole('button', { name: en.assets.demo.take });
    await take.waitFor();
    await page.getByText('Try trading with 10,000 USDT of demo funds').waitFor();
    await take.click();
    // asked first: cancelling moves nothing
    await page.getByText(en.assets.demo.confirmTitle).waitFor();
    await dialogButton(en.common.cancel).click();
    expect((await spotUsdt()).available).toBe('0');
    await take.click();
    await dialogButton(en.common.confirm).click();
    await page.getByText('10,000 USDT of demo funds added to your spot account').waitFor();
    await eventually(async () => expect(await take.count()).toBe(0));
    expect((await spotUsdt()).available).toBe('10000');
    await page.screenshot({ path: '/tmp/console-users/assets-after-demo.png' });
    // the server answers a second try with its own words, and nothing more is credited
    const again = await server!.api('wallet/demo_funds', {}, userToken);
    expect(again.type).toBe('error');
    expect((await spotUsdt()).available).toBe('10000');
  });

  it('the funds record names them as demo', async () => {
    await go('/pages/assets/record');
    await page.getByRole('tab', { name: en.record.tab.flows }).click();
    await page.getByText('Demo funds (for trying, not real money)').first().waitFor();
  });

  it('places a spot limit buy with the demo funds', async () => {
    await go('/pages/trade/kline?symbol=btcusdt');
    await page.getByRole('heading', { name: 'BTC/USDT' }).waitFor();
    await page.getByRole('button', { name: en.trade.buy, exact: true }).click();
    await page.getByTestId('available').filter({ hasText: '10,000' }).waitFor();
    await page.getByRole('textbox', { name: en.trade.qtyLabel }).waitFor();
    // a price inside the band: the index price less a little (the form starts with the last price)
    const price = page.getByRole('textbox', { name: en.trade.priceLabel });
    await eventually(async () => expect(await price.inputValue()).not.toBe(''));
    const last = (await price.inputValue()).replace(/,/g, '');
    await price.fill(truncateDecimal(mulDecimal(last, '0.95'), 0));
    await page.getByRole('textbox', { name: en.trade.qtyLabel }).fill('0.01');
    await page.getByRole('button', { name: 'Buy BTC' }).click();
    await dialogButton(en.common.confirm).click();
    const usdt = await eventually(async () => {
      const b = await spotUsdt();
      expect(compareDecimal(b.frozen, '0')).toBe(1);
      return b;
    });
    expect(addDecimal(usdt.available, usdt.frozen)).toBe('10000');
  });
});
