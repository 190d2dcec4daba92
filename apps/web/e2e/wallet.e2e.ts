import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addDecimal, compareDecimal } from '@verdant/engine';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiOf, PNG, storeSession } from './accounts.ts';
import {
  createOperator,
  eventually,
  expectOk,
  launchBrowser,
  operatorToken,
  passcode,
  registerByEmail,
  run,
  screenshotFailures,
  startOutbox,
  startServer,
} from './support.ts';

// The money path of the wallet, as a user and an operator live it: deposit with a voucher,
// approval, transfers both ways, a withdrawal address, a withdrawal that is frozen and then
// rejected, and the ledger proven consistent afterwards on the same database.

const en = JSON.parse(readFileSync(join(import.meta.dirname, '../src/locales/en.json'), 'utf8'));

const OPERATOR = { username: 'e2e-ops', password: 'operator-pass-1' };
const FUND_PASSWORD = '246810';
// a well-formed Tron (TRC20) address: base58check with the 0x41 prefix
const TRON_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

let dataDir: string;
let mailbox: Awaited<ReturnType<typeof startOutbox>>;
let server: Awaited<ReturnType<typeof startServer>> | null = null;
let browser: Browser;
let page: Page;
let userToken: string;
let opToken: string;
const email = `wallet.${Date.now()}@example.com`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'verdant-wallet-e2e-'));
  await createOperator(dataDir, OPERATOR);
  mailbox = await startOutbox();
  server = await startServer(
    { SMTP_URL: mailbox.smtpUrl, SMS_WEBHOOK_URL: mailbox.smsWebhookUrl },
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

const api = apiOf(() => server);

const go = (route: string) => page.goto(`${server?.base}/h5/#${route}`);

const typePasscode = (n: number, digits: string) => passcode(page, n, digits);

type Balance = { currency_id: number; available: string; frozen: string };
type WalletList = { accounts: { type: string; currencies: Balance[] }[] };

async function usdt(type: string): Promise<Balance | undefined> {
  const list = await expectOk(api<WalletList>('wallet/list', {}, userToken));
  return list.accounts.find((a) => a.type === type)?.currencies.find((c) => c.currency_id === 3);
}

/** The text of a test id on screen, once it shows `expected`. */
async function shows(testId: string, expected: string) {
  await page.getByTestId(testId).filter({ hasText: expected }).first().waitFor();
}

describe('wallet, end to end in Chromium at 390 × 844', () => {
  it('a user registers, sets a fund password and is verified by an operator', async () => {
    userToken = await registerByEmail(server!, mailbox, email, 'wallet-pass-1');
    await expectOk(
      api('safe/update_password', { password: FUND_PASSWORD, re_password: FUND_PASSWORD }, userToken),
    );
    await expectOk(
      api('user/real_name', { country: 'TH', name: 'Somchai Jaidee', id_number: 'AB123456' }, userToken),
    );

    opToken = await operatorToken(server!, OPERATOR);
    const queue = await expectOk(
      api<{ items: { id: number }[] }>('admin/verifications?status=pending', {}, opToken, 'GET'),
    );
    expect(queue.items).toHaveLength(1);
    await expectOk(api('admin/verifications/approve', { id: String(queue.items[0]?.id) }, opToken));

    // the browser gets the session as the login page would leave it, in English
    await storeSession(page, server!, userToken);
    await page.goto('about:blank'); // a load of its own, not a change of address in the running app
    await go('/pages/verification/index');
    await page.reload();
    await page.getByText(en.verificationState.verified).first().waitFor();
  });

  it('deposits 500 USDT with a voucher: the address has a QR code, the request waits for review', async () => {
    await go('/pages/assets/deposit/index?currency_id=3&chain=TRC20');
    await page.getByTestId('deposit-qr').locator('svg').waitFor();
    const address = (await page.getByTestId('deposit-address').textContent())?.trim() ?? '';
    expect(address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);

    await page.getByRole('button', { name: en.deposit.submitProof }).click();
    await page.waitForFunction(() => location.hash.includes('/pages/assets/deposit/charge'));
    await page.locator('#v-amount-input, input[inputmode="decimal"]').first().fill('500');
    const file = join(dataDir, 'voucher.png');
    writeFileSync(file, PNG);
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/upload') && r.ok());
    await page.locator('input[type="file"]').setInputFiles(file);
    await uploaded;
    await page.getByRole('button', { name: en.deposit.submit }).click();
    await page.waitForFunction(() => location.hash.includes('/pages/assets/record'));
    await page.getByTestId('deposit-record').filter({ hasText: '500' }).first().waitFor();
  });

  it('the operator approves it and the balance appears on the assets tab', async () => {
    const queue = await expectOk(
      api<{ items: { id: number; amount: string }[] }>('admin/deposits?status=pending', {}, opToken, 'GET'),
    );
    expect(queue.items.map((d) => d.amount)).toEqual(['500']);
    await expectOk(api('admin/deposits/approve', { id: String(queue.items[0]?.id) }, opToken));

    await go('/pages/assets/index?type=spot');
    await page.reload();
    await shows('total-USDT', '500');
    await shows('available-USDT', '500');
  });

  it('transfers 200 USDT spot → contract and back, each after a confirmation', async () => {
    await go('/pages/assets/transfer/index?from=spot&to=contract&currency_id=3');
    await page.locator('#transfer-amount').fill('200');
    await page.getByRole('button', { name: en.transfer.submit, exact: true }).click();
    await page.locator('.adm-dialog').getByText(en.common.confirm, { exact: true }).click();
    await eventually(async () => expect((await usdt('contract'))?.available).toBe('200'));
    expect((await usdt('spot'))?.available).toBe('300');

    await page.getByRole('button', { name: en.transfer.swap }).click();
    await page.getByTestId('transfer-from').filter({ hasText: en.wallet.account.contract }).waitFor();
    await page.locator('#transfer-amount').fill('200');
    await page.getByRole('button', { name: en.transfer.submit, exact: true }).click();
    await page.locator('.adm-dialog').getByText(en.common.confirm, { exact: true }).click();
    await eventually(async () => expect((await usdt('spot'))?.available).toBe('500'));
    expect((await usdt('contract'))?.available).toBe('0');

    await go('/pages/assets/transfer/record');
    await page.locator('.v-wallet-record').nth(1).waitFor();
  });

  it('adds a TRC20 withdrawal address with the fund password and an e-mailed code', async () => {
    await go('/pages/user/address/create?currency_id=3');
    await page.getByRole('button', { name: 'TRC20', exact: true }).click();
    await page
      .getByPlaceholder(
        en.address.addressPlaceholder.replace('{{symbol}}', 'USDT').replace('{{chain}}', 'TRC20'),
      )
      .fill(TRON_ADDRESS);
    await typePasscode(0, FUND_PASSWORD);
    // the code of a new mail, not the registration one still in the box
    const before = mailbox.messages.length;
    await page.getByText(en.auth.sendCode, { exact: true }).click();
    const code = await eventually(() => {
      if (mailbox.messages.length <= before) throw new Error('no new mail yet');
      return mailbox.lastCode(email);
    });
    await page.getByPlaceholder(en.auth.codePlaceholder, { exact: true }).fill(code);
    await page.getByRole('button', { name: en.common.save, exact: true }).click();
    await page.waitForFunction(() => !location.hash.includes('/pages/user/address/create'));
    const list = await expectOk(api<{ address: string }[]>('wallet/get_address', {}, userToken));
    expect(list.map((a) => a.address)).toEqual([TRON_ADDRESS]);
  });

  it('withdraws 150 USDT: the fee is shown, the total is frozen while in review', async () => {
    const currencies = await expectOk(
      api<{ id: number; withdraw_fee: string }[]>('wallet/currencies', {}, undefined, 'GET'),
    );
    const fee = currencies.find((c) => c.id === 3)?.withdraw_fee ?? '0';

    await go('/pages/assets/withdraw/index?currency_id=3');
    await page.getByTestId('withdraw-destination').filter({ hasText: 'TRC20' }).waitFor();
    await page.locator('#withdraw-amount').fill('150');
    await typePasscode(0, FUND_PASSWORD);
    await page.getByRole('button', { name: en.withdraw.submit, exact: true }).click();
    const dialog = page.locator('.adm-dialog');
    await dialog.getByText(en.withdraw.fee).waitFor();
    await dialog.getByText(en.common.confirm, { exact: true }).click();
    await page.waitForFunction(() => location.hash.includes('/pages/assets/withdraw/detail'));
    await page.getByText(en.withdraw.frozenNote).waitFor();

    const total = addDecimal('150', fee);
    expect(compareDecimal((await usdt('spot'))?.frozen ?? '0', total)).toBe(0);
    await go('/pages/assets/tradeAccount?type=spot&currency_id=3');
    await page.reload();
    await page.getByTestId('detail-frozen').filter({ hasText: /[1-9]/ }).waitFor();
    const shown = (await page.getByTestId('detail-frozen').textContent())?.replace(/,/g, '') ?? '';
    expect(compareDecimal(shown, total)).toBe(0);
  });

  it('the operator rejects the withdrawal and the balance returns', async () => {
    const queue = await expectOk(
      api<{ items: { id: number }[] }>('admin/withdrawals?status=pending', {}, opToken, 'GET'),
    );
    expect(queue.items).toHaveLength(1);
    await expectOk(
      api(
        'admin/withdrawals/reject',
        { id: String(queue.items[0]?.id), reason: 'Address not allowed' },
        opToken,
      ),
    );

    await go('/pages/assets/record?tab=withdraw');
    await page.reload();
    await page.getByTestId('withdraw-record').first().click();
    await page.getByText('Address not allowed').waitFor();

    await go('/pages/assets/index?type=spot');
    await page.reload();
    await shows('available-USDT', '500');
    await shows('frozen-USDT', '0');
    expect(await usdt('spot')).toMatchObject({ available: '500', frozen: '0' });
  });

  it('after the server stops, ledger:verify on the same database exits 0', async () => {
    await server?.stop();
    server = null;
    const verify = await run('npm', ['run', '--silent', 'ledger:verify'], { DATA_DIR: dataDir });
    expect(verify.code, verify.out).toBe(0);
  });
});
