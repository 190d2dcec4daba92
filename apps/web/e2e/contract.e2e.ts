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
  operatorToken,
  registerByEmail,
  run,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// Contracts as a user lives them at 390 × 844: a 10× BTC long opened from the screen, its P&L
// moving with the index over the socket, take-profit and stop-loss set, the position closed,
// and the ledger balanced afterwards.

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/en.json'), 'utf8'));
const OPERATOR = { username: 'e2e-contract-ops', password: 'operator-pass-1' };

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let token: string;

const api = apiOf(() => server);

type Position = {
  id: string;
  status: string;
  take_profit: string | null;
  pnl: string | null;
  close_reason: string | null;
  created_at: string;
  opened_at: string | null;
  closed_at: string | null;
  close_tick: { time: string } | null;
};
const positions = async (status: string) =>
  (await expectOk(api<{ list: Position[] }>('lever/my_trade', { status }, token))).list;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-contract-e2e-'));
  await createOperator(dataDir, OPERATOR);
  mailbox = await startOutbox();
  // a quick feed so the P&L moves while the test watches; no history or market maker needed
  server = await startServer(
    {
      SMTP_URL: mailbox.smtpUrl,
      SMS_WEBHOOK_URL: mailbox.smsWebhookUrl,
      FEED_INTERVAL_MS: '250',
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
const dialogButton = (name: string) =>
  page.locator('.adm-dialog').last().getByRole('button', { name, exact: true });

describe('contracts, end to end in Chromium at 390 × 844', () => {
  it('a user with 1000 USDT in the contract account opens the contract screen', async () => {
    token = await registerByEmail(server!, mailbox, `contract.${Date.now()}@example.com`, 'contract-pass-1');
    const op = await operatorToken(server!, OPERATOR);
    await fundUser(server!, token, op, { currency_id: '3', chain: 'TRC20', amount: '1000' });
    await expectOk(
      api('wallet/change', { currency_id: '3', from: 'spot', to: 'contract', amount: '1000' }, token),
    );

    await storeSession(page, server!, token);
    await page.goto('about:blank'); // a load of its own, not a change of address in the running app
    await go('/pages/lever/index?symbol=btcusdt');
    await page.reload();
    await page.getByTestId('index-price').filter({ hasText: /\d/ }).waitFor();
    await page.getByTestId('available').filter({ hasText: '1,000' }).waitFor();
  });

  it('opens a 10× long of 2 lots after seeing margin and fee, and watches its P&L move', async () => {
    await page.getByRole('button', { name: en.contract.long, exact: true }).click();
    await page.locator('.adm-selector-item', { hasText: /^10×$/ }).click();
    await page.getByTestId('more-lots').click();
    await page.getByTestId('margin').filter({ hasText: /\d/ }).waitFor();
    await page.getByTestId('submit').click();
    await page.locator('.adm-dialog').getByText(en.contract.margin).waitFor();
    await dialogButton(en.common.confirm).click();

    const [p] = await eventually(async () => {
      const list = await positions('holding');
      expect(list).toHaveLength(1);
      return list;
    });
    const card = page.getByTestId(`position-${p!.id}`);
    await card.waitFor();
    const pnl = card.getByTestId('pnl');
    const first = await pnl.textContent();
    // the index moves every 250 ms: the P&L on screen follows over the socket
    await eventually(async () => expect(await pnl.textContent()).not.toBe(first), 300);
  });

  it('sets take-profit and stop-loss far from the price, then closes the position', async () => {
    const [p] = await positions('holding');
    const card = page.getByTestId(`position-${p!.id}`);
    const current = Number(((await card.getByTestId('current-price').textContent()) ?? '').replace(/,/g, ''));
    const tp = String(Math.round(current * 1.5));
    const sl = String(Math.round(current * 0.5));
    await card.getByRole('button', { name: en.contract.setStops }).click();
    const sheet = page.locator('.v-contract-stops');
    await sheet.getByRole('textbox', { name: en.contract.takeProfit }).fill(tp);
    await sheet.getByRole('textbox', { name: en.contract.stopLoss }).fill(sl);
    await sheet.getByTestId('save-stops').click();
    await card
      .getByTestId('tp')
      .filter({ hasText: Number(tp).toLocaleString('en') })
      .waitFor();
    expect((await positions('holding'))[0]).toMatchObject({ take_profit: tp });

    await card.getByRole('button', { name: en.contract.close, exact: true }).click();
    await dialogButton(en.common.confirm).click();
    await card.waitFor({ state: 'detached' });
    const closed = await eventually(async () => {
      const list = await positions('closed');
      expect(list).toHaveLength(1);
      return list[0]!;
    });
    expect(closed).toMatchObject({ id: p!.id, close_reason: 'user' });
    // a record's moments are ISO 8601 text in UTC, like spot and option orders
    const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
    for (const at of [closed.created_at, closed.opened_at, closed.closed_at, closed.close_tick?.time])
      expect(at).toMatch(iso);
    expect(closed.opened_at! <= closed.closed_at!).toBe(true);
    await page.getByRole('tab', { name: en.contract.tabs.closed }).click();
    await page.getByTestId(`position-${p!.id}`).waitFor();
  });

  it('after the server stops, ledger:verify on the same database exits 0', async () => {
    await server?.stop();
    server = null;
    const verify = await run('npm', ['run', '--silent', 'ledger:verify'], { DATA_DIR: dataDir });
    expect(verify.code, verify.out).toBe(0);
  });
});
