import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeConsoleSession, storeSession, verifyIdentity } from './accounts.ts';
import {
  createOperator,
  eventually,
  launchBrowser,
  operatorToken,
  registerByEmail,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// Configuration as data, end to end (issue 23): an operator edits an option delivery time in
// the console (desktop, 1280 × 800): a bad value is refused at its field, the confirmed change
// saved; the phone app (390 × 844) then offers the new terms. Needs the console built into
// ADMIN_DIST (cd apps/admin && npx vite build --outDir /tmp/admin-config).

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../../admin/src/locales/en.json'), 'utf8'));
const OPERATOR = { username: 'e2e-config-ops', password: 'operator-pass-1' };

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let desk: BrowserContext;
let consolePage: Page;
let phone: Page;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-config-e2e-'));
  await createOperator(dataDir, OPERATOR);
  mailbox = await startOutbox();
  server = await startServer(
    // the index feed runs (the option page prices by it); no history, no market maker
    {
      BACKFILL_DAYS: '0',
      MARKET_MAKER: '0',
      SMTP_URL: mailbox.smtpUrl,
      SMS_WEBHOOK_URL: mailbox.smsWebhookUrl,
    },
    { dataDir },
  );
  ({ browser, page: phone } = await launchBrowser(server.base));
  desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  consolePage = await desk.newPage();
});

screenshotFailures(() => consolePage);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('an option delivery time edited in the console, seen in the phone app', () => {
  it('the operator opens the delivery times (signed in through the API, the session in the console storage)', async () => {
    const token = await operatorToken(server!, OPERATOR);
    await storeConsoleSession(consolePage, server!, token);
    await consolePage.goto(`${server!.base}/admin/#/config/options`);
    await consolePage.getByRole('heading', { name: en.nav.configOptions }).waitFor();
    await consolePage.getByRole('cell', { name: 'BTC/USDT' }).first().waitFor();
  });

  it('a bad ratio is refused at its field; the confirmed change is saved', async () => {
    await consolePage.getByRole('button', { name: `${en.config.edit} BTC/USDT · 60s` }).click();
    const ratio = consolePage.getByLabel(en.config.fields.profit_ratio);
    // the drawer's Save, then the confirmation's
    const save = async () => {
      await consolePage.getByRole('button', { name: en.common.save, exact: true }).click();
      const confirm = consolePage.getByRole('dialog', { name: en.config.confirmTitle });
      await confirm.getByRole('button', { name: en.common.save, exact: true }).click();
      await confirm.waitFor({ state: 'detached' });
    };
    await ratio.fill('0');
    await save();
    await consolePage.getByText('Profit ratio must be above 0 and at most 10').waitFor();

    await ratio.fill('0.91');
    await consolePage.getByLabel(en.config.fields.min_amount).fill('20');
    await consolePage.getByLabel(en.config.fields.max_amount).fill('7000');
    await save();
    await consolePage.getByText(en.config.saved).first().waitFor();
    await eventually(async () =>
      expect(await consolePage.getByRole('cell', { name: '0.91' }).count()).toBe(1),
    );
    await consolePage.screenshot({ path: join(tmpdir(), 'verdant-console-config-options.png') });
  });

  it('the phone app offers the 60 s delivery time at 91 % with the new stake range', async () => {
    const email = `config.${Date.now()}@example.com`;
    const userToken = await registerByEmail(server!, mailbox, email, 'config-pass-1');
    // a verified user (buying needs it), as an operator's review leaves one
    const opToken = await operatorToken(server!, OPERATOR);
    await verifyIdentity(server!, userToken, opToken);
    await storeSession(phone, server!, userToken);
    await phone.goto('about:blank'); // a load of its own, not a change of address in the running app
    await phone.goto(`${server!.base}/h5/#/pages/option/detail`);
    await phone.reload();
    await phone
      .getByRole('button', { name: /↑/ })
      .click()
      .catch(async (e) => {
        await phone.screenshot({ path: join(tmpdir(), 'verdant-console-config-h5-failed.png') });
        throw e;
      });
    const popup = phone.locator('.v-option-buy');
    const sixty = popup.getByRole('button', { name: /^60 s/ });
    await sixty.waitFor();
    expect(await sixty.textContent()).toContain('91');
    await sixty.click();
    await popup.getByPlaceholder('20 – 7,000 USDT').waitFor();
    await phone.screenshot({ path: join(tmpdir(), 'verdant-console-config-h5.png') });
  });
});
