import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareDecimal, subDecimal } from '@verdant/engine';
import type { Browser, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, fundUser } from './accounts.ts';
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

// The spot path as a funded user lives it, at 390 × 844: the BTC/USDT chart with candles and depth
// arriving over the socket, a limit buy placed and cancelled, a market buy that fills, and the
// order, its fill and the new balances on screen.

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/en.json'), 'utf8'));
const OPERATOR = { username: 'e2e-markets-ops', password: 'operator-pass-1' };
const DEPOSIT = '10000';

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let userToken: string;
const email = `markets.${Date.now()}@example.com`;
/** Socket.IO frames the page received, as text. */
const frames: string[] = [];
/** What the browser refused under the server's Content-Security-Policy. */
const refused: string[] = [];

const api = apiOf(() => server);

type Balance = { symbol: string; available: string; frozen: string };
type WalletList = { accounts: { type: string; currencies: Balance[] }[] };
async function spot(symbol: string): Promise<Balance> {
  const list = await expectOk(api<WalletList>('wallet/list', {}, userToken));
  const b = list.accounts.find((a) => a.type === 'spot')?.currencies.find((c) => c.symbol === symbol);
  return b ?? { symbol, available: '0', frozen: '0' };
}

type Order = { id: string; status: string; side: string; type: string; filled_qty: string; fills: unknown[] };
async function orders(status: string): Promise<Order[]> {
  const res = await expectOk(
    api<{ list: Order[] }>(`coin/list?symbol=btcusdt&status=${status}`, {}, userToken, 'GET'),
  );
  return res.list;
}

/** Frames of one event on one stream since `from`. */
const framesOf = (event: string, from: number) =>
  frames.slice(from).filter((f) => f.includes(`"${event}"`) && f.includes('btcusdt'));

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-markets-e2e-'));
  await createOperator(dataDir, OPERATOR);
  mailbox = await startOutbox();
  server = await startServer(
    { SMTP_URL: mailbox.smtpUrl, SMS_WEBHOOK_URL: mailbox.smsWebhookUrl },
    { dataDir },
  );
  ({ browser, page } = await launchBrowser(server.base));
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) refused.push(m.text());
  });
  page.on('websocket', (ws: WebSocket) => {
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string') frames.push(f.payload);
    });
  });
});

screenshotFailures(() => page);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const go = (route: string) => page.goto(`${server?.base}/h5/#${route}`);
const dialogButton = (name: string) =>
  page.locator('.adm-dialog').last().getByRole('button', { name, exact: true });

describe('markets and spot trading, end to end in Chromium at 390 × 844', () => {
  it('a user registers and an operator credits a 10000 USDT deposit', async () => {
    userToken = await registerByEmail(server!, mailbox, email, 'markets-pass-1');

    const opToken = await operatorToken(server!, OPERATOR);
    await fundUser(server!, userToken, opToken, { currency_id: '3', chain: 'TRC20', amount: DEPOSIT });
    expect((await spot('USDT')).available).toBe(DEPOSIT);

    // the browser gets the session as the login page would leave it, in English
    const user = await expectOk(api('user/center', {}, userToken, 'GET'));
    await go('/');
    // Home settles first (its back guard writes history once mounted)
    await page.getByTestId('price-btcusdt').waitFor();
    await page.evaluate(
      ([token, u]) => {
        localStorage.setItem('token', token);
        localStorage.setItem('user', u);
        localStorage.setItem('lang', 'en');
      },
      [userToken, JSON.stringify(user)] as const,
    );
  });

  it('opens the BTC/USDT chart: candles and depth arrive and keep updating over the socket', async () => {
    // a fresh document (the session was written into localStorage of the one before)
    await go('/pages/trade/kline?symbol=btcusdt');
    await page.waitForFunction(() => location.hash.includes('/pages/trade/kline'));
    await page.reload();
    await page.getByRole('heading', { name: 'BTC/USDT' }).waitFor();
    // index.html's inline early script ran under the server's policy (allowed by its hash): its
    // list of early requests exists (the app takes each answer out of it, so it may be empty by now)
    const early = await page.evaluate(() =>
      Array.isArray((window as { __verdantEarly?: unknown }).__verdantEarly),
    );
    expect(early).toBe(true);
    expect(refused).toEqual([]);
    // the chart drew its canvas and its candles loaded (no loading, empty or error overlay)
    await page.getByTestId('candle-chart').locator('canvas').first().waitFor();
    await eventually(async () => expect(await page.locator('.v-market-chart__overlay').count()).toBe(0));

    const start = frames.length;
    // live: kline and depth messages of btcusdt keep coming
    await eventually(() => expect(framesOf('kline', start).length).toBeGreaterThanOrEqual(2), 300);
    await eventually(() => expect(framesOf('depth', start).length).toBeGreaterThanOrEqual(2), 300);
    // and the order book on screen has both sides, and changes
    const depth = page.getByTestId('depth');
    await depth.locator('.v-market-depth__side--bid li').first().waitFor();
    await depth.locator('.v-market-depth__side--ask li').first().waitFor();
    const before = await depth.textContent();
    await eventually(async () => expect(await depth.textContent()).not.toBe(before), 300);

    // another interval asks for its candles
    const fiveMin = page.waitForResponse(
      (r) => r.url().includes('new_timeshar') && r.url().includes('interval=5min'),
    );
    await page.getByRole('tab', { name: en.market.intervals['5min'], exact: true }).click();
    expect((await fiveMin).ok()).toBe(true);
  });

  it('places a limit buy below the market, sees it open with USDT frozen, and cancels it', async () => {
    const bestBid = (
      (await page
        .getByTestId('depth')
        .locator('.v-market-depth__side--bid li .v-text--up')
        .first()
        .textContent()) ?? ''
    ).replace(/,/g, '');
    expect(bestBid).toBeTruthy();
    // well below the best bid, so it rests on the book, and inside the ±20 % price band
    const price = String(Math.floor(Number(bestBid) * 0.9));

    await page.getByRole('button', { name: en.trade.buy, exact: true }).click();
    await page.getByTestId('available').filter({ hasText: '10,000' }).waitFor();
    await page.getByRole('textbox', { name: en.trade.priceLabel }).fill(price);
    await page.getByRole('textbox', { name: en.trade.qtyLabel }).fill('0.01');
    await page.getByRole('button', { name: 'Buy BTC' }).click();
    await dialogButton(en.common.confirm).click();

    const open = await eventually(async () => {
      const list = await orders('waiting');
      expect(list).toHaveLength(1);
      return list[0] as Order;
    });
    const card = page.getByTestId(`order-${open.id}`);
    await card.waitFor();
    const usdt = await spot('USDT');
    expect(compareDecimal(usdt.frozen, '0')).toBe(1);
    expect(subDecimal(DEPOSIT, usdt.available)).toBe(usdt.frozen);

    await card.getByRole('button', { name: en.trade.cancel }).click();
    await page.getByText(en.trade.cancelConfirm).waitFor();
    await dialogButton(en.trade.cancel).click();
    await card.waitFor({ state: 'detached' });
    expect(await orders('waiting')).toHaveLength(0);
    expect(await spot('USDT')).toMatchObject({ available: DEPOSIT, frozen: '0' });

    await page.getByRole('tab', { name: en.trade.pastOrders }).click();
    await page.getByTestId(`order-${open.id}`).getByText(en.trade.status.cancelled).waitFor();
  });

  it('places a market buy of 100 USDT that fills, and sees the order, its fill and the new balances', async () => {
    await page.getByRole('button', { name: en.trade.buy, exact: true }).click();
    await page.getByRole('tab', { name: en.trade.type.market }).click();
    await page.getByRole('textbox', { name: en.trade.amountLabel }).fill('100');
    await page.getByRole('button', { name: 'Buy BTC' }).click();
    await dialogButton(en.common.confirm).click();

    const done = await eventually(async () => {
      const list = (await orders('completed')).filter((o) => o.type === 'market');
      expect(list).toHaveLength(1);
      return list[0] as Order;
    });
    expect(compareDecimal(done.filled_qty, '0')).toBe(1);
    expect(done.fills.length).toBeGreaterThan(0);

    // the order in the history, with its fills
    await page.getByRole('tab', { name: en.trade.pastOrders }).click();
    const card = page.getByTestId(`order-${done.id}`);
    await card.getByText(en.trade.status.completed).waitFor();
    await card.locator('summary').click();
    await card.locator('.v-market-order__fills li').first().waitFor();

    // the new balances: USDT spent, BTC received (less the fee, paid in BTC)
    const usdt = await spot('USDT');
    const btc = await spot('BTC');
    expect(compareDecimal(usdt.available, DEPOSIT)).toBe(-1);
    expect(compareDecimal(subDecimal(DEPOSIT, usdt.available), '100')).toBeLessThanOrEqual(0);
    expect(compareDecimal(btc.available, '0')).toBe(1);
    // the form shows them too, once the order's update has arrived
    const shown = async () => ((await page.getByTestId('available').textContent()) ?? '').replace(/,/g, '');
    await page.getByRole('button', { name: en.trade.buy, exact: true }).click();
    await eventually(async () => expect(await shown()).toBe(`${usdt.available} USDT`));
    await page.getByRole('tab', { name: en.trade.sell, exact: true }).click();
    await eventually(async () => expect(await shown()).toBe(`${btc.available} BTC`));
  });
});
