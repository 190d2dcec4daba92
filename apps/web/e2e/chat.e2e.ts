import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, PNG, storeSession } from './accounts.ts';
import {
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

// The help centre's live chat as a user lives it at 390 × 844: open the chat from the help centre,
// send text and a picture, and see support's answer arrive live: sent through the operator API,
// then through the console's support inbox in a desktop-sized page. Needs the console built into
// ADMIN_DIST (cd apps/admin && npx vite build --outDir /tmp/admin-support).

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/en.json'), 'utf8'));
const adminEn = JSON.parse(
  readFileSync(join(import.meta.dirname, '../../admin/src/locales/en.json'), 'utf8'),
);
const OPERATOR = { username: 'e2e-support', password: 'operator-pass-1' };

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let consolePage: Page;
let userToken: string;
let opToken: string;
const email = `chat.${Date.now()}@example.com`;

const api = apiOf(() => server);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-chat-e2e-'));
  // a support operator (not an admin), made with the CLI before the server takes the database
  const created = await runNode(
    [
      join(import.meta.dirname, '../../server/src/admin-cli.ts'),
      'create',
      '--username',
      OPERATOR.username,
      '--role',
      'support',
    ],
    { DATA_DIR: dataDir, ADMIN_PASSWORD: OPERATOR.password },
  );
  expect(created.code, created.out).toBe(0);
  mailbox = await startOutbox();
  server = await startServer(
    { ...NO_MARKET_DATA, SMTP_URL: mailbox.smtpUrl, SMS_WEBHOOK_URL: mailbox.smsWebhookUrl },
    { dataDir },
  );
  ({ browser, page } = await launchBrowser(server.base));
  const desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  consolePage = await desk.newPage();
});

screenshotFailures(() => page);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mailbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const go = (route: string) => page.goto(`${server?.base}/h5/#${route}`);

type Conversations = { items: { id: number; unread: number; last_text: string }[] };

describe('live chat with support, end to end in Chromium at 390 × 844', () => {
  it('the help centre shows the seeded questions; pricing opens its article', async () => {
    userToken = await registerByEmail(server!, mailbox, email, 'chat-pass-1');
    opToken = await operatorToken(server!, OPERATOR);
    await storeSession(page, server!, userToken);
    await page.goto('about:blank'); // a load of its own, not a change of address in the running app
    await go('/pages/help-center/center');
    await page.reload();
    await page.getByRole('link', { name: 'Pricing and valuation method' }).click();
    await page.getByRole('heading', { name: 'Pricing and valuation method' }).waitFor();
    expect(page.url()).toContain('/pages/help-center/detail?id=pricing');
  });

  it('a user opens the chat from the help centre and sends text and a picture', async () => {
    await go('/pages/help-center/center');
    await page.getByRole('button', { name: en.help.online }).click();
    await page.waitForURL(/pages\/help-center\/chat/);
    await page.getByText(en.help.chatHint).waitFor();
    const input = page.getByRole('textbox', { name: en.help.messagePlaceholder });
    await input.fill('Where is my deposit?');
    await page.getByRole('button', { name: en.help.send, exact: true }).click();
    const mine = page.locator('.v-help-chat__row--mine').filter({ hasText: 'Where is my deposit?' });
    await mine.getByText(en.help.state.sent).waitFor();
    await page.locator('.v-help-chat__bar input[type=file]').setInputFiles({
      name: 'voucher.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page.locator('.v-help-chat__row--mine img').waitFor();
    // support sees both, unread
    const list = await eventually(async () => {
      const l = await expectOk(api<Conversations>('admin/support/conversations', {}, opToken, 'GET'));
      expect(l.items[0]?.unread).toBe(2);
      return l;
    });
    expect(list.items).toHaveLength(1);
  });

  it('the support reply sent through the operator API arrives live, and the user’s messages show as read', async () => {
    const list = await expectOk(api<Conversations>('admin/support/conversations', {}, opToken, 'GET'));
    const conversationId = String(list.items[0]!.id);
    await expectOk(
      api(
        'admin/support/reply',
        { conversation_id: conversationId, text: 'We found it, it is credited now.' },
        opToken,
      ),
    );
    const theirs = page.locator('.v-help-chat__row:not(.v-help-chat__row--mine)').filter({
      hasText: 'We found it, it is credited now.',
    });
    await theirs.waitFor();
    await expect
      .poll(() => page.locator('.v-help-chat__row--mine').getByText(en.help.state.read).count())
      .toBe(2);
    // the user's screen marked the reply read: support's view agrees, and nothing is unread for the user
    const unread = await expectOk(api<{ unread: number }>('support/unread', {}, userToken, 'GET'));
    expect(unread.unread).toBe(0);
  });

  it('a reply written while the user is away is there when they come back', async () => {
    await go('/pages/help-center/center');
    const list = await expectOk(api<Conversations>('admin/support/conversations', {}, opToken, 'GET'));
    await expectOk(
      api(
        'admin/support/reply',
        { conversation_id: String(list.items[0]!.id), text: 'Anything else?' },
        opToken,
      ),
    );
    await page.reload();
    await page.locator('.v-help__entry .adm-badge').filter({ hasText: '1' }).waitFor();
    await page.getByRole('button', { name: en.help.online }).click();
    await page.getByText('Anything else?').waitFor();
  });

  it('support answers from the console’s inbox, beside the user’s account, and the answer arrives live', async () => {
    await go('/pages/help-center/chat');
    await page.getByText('Anything else?').waitFor();
    const operator = await expectOk(api('admin/me', {}, opToken, 'GET'));
    await consolePage.goto(`${server!.base}/admin/`);
    await consolePage.evaluate(
      ([token, op]) => {
        localStorage.setItem('verdant-admin-session', JSON.stringify({ token, operator: JSON.parse(op) }));
        localStorage.setItem('verdant-admin-lang', 'en');
      },
      [opToken, JSON.stringify(operator)] as const,
    );
    await consolePage.goto(`${server!.base}/admin/#/support/inbox`);
    await consolePage.getByRole('button', { name: email }).click();
    // the user's context beside the chat, and the chat's history with the user's picture
    await consolePage.locator('.v-inbox__context').getByText(email).waitFor();
    await consolePage.getByText('Where is my deposit?').waitFor();
    await consolePage.locator('.v-inbox__log img').first().waitFor();
    await consolePage
      .getByRole('textbox', { name: adminEn.support.answer })
      .fill('Answered from the console.');
    await consolePage.getByRole('button', { name: adminEn.support.send, exact: true }).click();
    // the phone, open on the chat all along, shows it live
    await page.getByText('Answered from the console.').waitFor();
  });

  it('the user typing and writing reach the open console inbox over its socket, without it asking again', async () => {
    // every time the inbox asks the server for the chat from here on (it used to every 3 s)
    const asked: string[] = [];
    consolePage.on('request', (r) => {
      if (r.url().includes('/api/admin/support/messages')) asked.push(r.url());
    });
    const input = page.getByRole('textbox', { name: en.help.messagePlaceholder });
    await input.fill('One more question');
    await consolePage.getByText(adminEn.support.typing.replace('{{name}}', email)).waitFor();
    await page.getByRole('button', { name: en.help.send, exact: true }).click();
    await consolePage.locator('.v-inbox__log').getByText('One more question').waitFor();
    expect(asked).toEqual([]);
    // the console read it on screen: the phone sees its message marked read
    const mine = page.locator('.v-help-chat__row--mine').filter({ hasText: 'One more question' });
    await mine.getByText(en.help.state.read).waitFor();
  });

  it('an operator whose session ended is sent to login by the next thing the inbox hears', async () => {
    await expectOk(api('admin/logout', {}, opToken));
    await page.getByRole('textbox', { name: en.help.messagePlaceholder }).fill('Still there?');
    await page.getByRole('button', { name: en.help.send, exact: true }).click();
    await consolePage.waitForURL(/#\/login\?next=/);
    expect(await consolePage.evaluate(() => localStorage.getItem('verdant-admin-session'))).toBeNull();
  });
});
