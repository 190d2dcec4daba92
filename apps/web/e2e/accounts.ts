import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectOk, type startServer } from './support.ts';

// The steps many e2e files take to get a user or an operator ready over the API, written once:
// each goes the way a person's actions would (a voucher uploaded, an operator's review), so
// the tests start from a state the product really reaches.

type Server = Awaited<ReturnType<typeof startServer>>;

/** A real 1 × 1 PNG (the server types uploads from their bytes); what it shows does not matter. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** `server.api` for a server a file starts later (in beforeAll): a call before then is an error. */
export function apiOf(server: () => Server | null) {
  return <T = unknown>(path: string, body: Record<string, string> = {}, token?: string, method = 'POST') => {
    const s = server();
    if (!s) throw new Error('no server');
    return s.api<T>(path, body, token, method);
  };
}

/** A picture uploaded as the user (as a deposit voucher is); the name the server keeps it under. */
export async function uploadPicture(server: Server, token: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'voucher.png');
  const res = await fetch(`${server.base}/api/upload`, {
    method: 'POST',
    headers: { authorization: token },
    body: form,
  });
  const body = (await res.json()) as { type: string; message: string; data: { name: string } };
  expect(body.type, body.message).toBe('ok');
  return body.data.name;
}

type DepositFields = { currency_id: string; amount: string; chain?: string };

/** A deposit the user declares with a voucher, waiting for review; its id. */
export async function declareDeposit(server: Server, token: string, d: DepositFields) {
  const image = await uploadPicture(server, token);
  return expectOk(server.api<{ id: number }>('wallet/charge_req', { ...d, image }, token));
}

/** Funds a user's spot account: a deposit declared with a voucher and passed by an operator. */
export async function fundUser(server: Server, token: string, opToken: string, d: DepositFields) {
  const { id } = await declareDeposit(server, token, d);
  await expectOk(server.api('admin/deposits/approve', { id: String(id) }, opToken));
}

/** A verified user: identity submitted, and passed in an operator's review. */
export async function verifyIdentity(server: Server, token: string, opToken: string) {
  await expectOk(
    server.api('user/real_name', { country: 'TH', name: 'Somchai Jaidee', id_number: 'AB123456' }, token),
  );
  const kyc = await expectOk(
    server.api<{ items: { id: number }[] }>('admin/verifications?status=pending', {}, opToken, 'GET'),
  );
  await expectOk(server.api('admin/verifications/approve', { id: String(kyc.items[0]?.id) }, opToken));
}

/**
 * The phone app signed in as the user, as its login screen leaves it (token, profile, English);
 * the page is on Home, and the caller opens the route it tests (a reload reads the storage).
 */
export async function storeSession(page: Page, server: Server, token: string) {
  const user = await expectOk(server.api('user/center', {}, token, 'GET'));
  await page.goto(`${server.base}/h5/#/`);
  await page.waitForLoadState('domcontentloaded');
  await page.evaluate(
    ([t, u]) => {
      localStorage.setItem('token', t);
      localStorage.setItem('user', u);
      localStorage.setItem('lang', 'en');
    },
    [token, JSON.stringify(user)] as const,
  );
}

/** The console signed in as the operator (their session in its storage, English), on its first page. */
export async function storeConsoleSession(page: Page, server: Server, opToken: string) {
  const operator = await expectOk(server.api('admin/me', {}, opToken, 'GET'));
  await page.goto(`${server.base}/admin/`);
  await page.evaluate(
    ([t, op]) => {
      localStorage.setItem('verdant-admin-session', JSON.stringify({ token: t, operator: JSON.parse(op) }));
      localStorage.setItem('verdant-admin-lang', 'en');
    },
    [opToken, JSON.stringify(operator)] as const,
  );
  // the next address loads the console afresh with the session: the console already running at
  // /admin/ (on its login page) would take a changed hash as a login and go to its first page
  await page.goto('about:blank');
}
