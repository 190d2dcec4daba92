import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { storeConsoleSession } from './accounts.ts';
import {
  createOperator,
  launchBrowser,
  NO_MARKET_DATA,
  operatorToken,
  screenshotFailures,
  startServer,
} from './support.ts';

// Notices written in the console (desktop, 1280 × 800) in two languages: half a language is
// refused at its field; once published, the phone app (390 × 844) shows the Thai text to a
// Thai reader. Needs the console built into ADMIN_DIST
// (cd apps/admin && npx vite build --outDir /tmp/admin-news).

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../../admin/src/locales/en.json'), 'utf8'));
const OPERATOR = { username: 'e2e-news-console', password: 'operator-pass-1' };

let dataDir: string;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let desk: BrowserContext;
let consolePage: Page;
let phone: Page;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-console-news-e2e-'));
  await createOperator(dataDir, OPERATOR);
  server = await startServer({ ...NO_MARKET_DATA }, { dataDir });
  ({ browser, page: phone } = await launchBrowser(server.base));
  desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  consolePage = await desk.newPage();
});

screenshotFailures(() => consolePage);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a notice written in the console, read in the phone app', () => {
  it('the operator sees the seeded notices', async () => {
    const token = await operatorToken(server!, OPERATOR);
    await storeConsoleSession(consolePage, server!, token);
    await consolePage.goto(`${server!.base}/admin/#/news`);
    await consolePage.getByRole('heading', { name: en.nav.news }).waitFor();
    await consolePage.getByRole('cell', { name: 'Welcome to Verdant' }).waitFor();
  });

  it('writes English and Thai; a Thai title without its text is refused at the field', async () => {
    await consolePage.getByRole('button', { name: en.news.create }).click();
    const dialog = consolePage.getByRole('dialog');
    // a tab per language, English open first
    const english = dialog.getByRole('tabpanel', { name: en.news.lang.en });
    await english.getByLabel(en.news.title).fill('Maintenance on Sunday');
    await english.getByLabel(en.news.body).fill('Trading pauses from 02:00 to 03:00 UTC.\nFunds are safe.');
    await dialog.getByRole('tab', { name: en.news.lang.th }).click();
    const thai = dialog.getByRole('tabpanel', { name: en.news.lang.th });
    await thai.getByLabel(en.news.title).fill('ปิดปรับปรุงวันอาทิตย์');
    await dialog.getByRole('button', { name: en.common.save }).click();
    await thai.getByText(en.news.pairRequired).waitFor();
    await thai.getByLabel(en.news.body).fill('หยุดซื้อขายเวลา 02:00 ถึง 03:00 UTC');
    await dialog.getByRole('button', { name: en.common.save }).click();
    await consolePage.getByText(en.news.saved).waitFor();
    const row = consolePage.getByRole('row', { name: /Maintenance on Sunday/ });
    await row.getByText(en.news.status.draft).waitFor();
    await row.getByRole('button', { name: en.news.publish }).click();
    await row.getByText(en.news.status.published).waitFor();
    await consolePage.screenshot({ path: join(tmpdir(), 'verdant-console-news.png') });
  });

  it('the phone app shows it, in Thai, on top of the notices', async () => {
    await phone.goto(`${server!.base}/h5/#/`);
    // the app listens for address changes once it has rendered (HashRouter): wait for Home's tab bar
    await phone.locator('.adm-tab-bar').waitFor();
    await phone.evaluate(() => localStorage.setItem('lang', 'th'));
    await phone.goto(`${server!.base}/h5/#/pages/notice/index`);
    await phone.locator('.v-news__row').first().getByText('ปิดปรับปรุงวันอาทิตย์').waitFor();
    await phone.locator('.v-news__row').first().click();
    await phone.getByText('หยุดซื้อขายเวลา 02:00 ถึง 03:00 UTC').waitFor();
  });
});
