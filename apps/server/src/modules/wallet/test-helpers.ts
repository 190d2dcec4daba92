import { randomBytes } from 'node:crypto';
import type { Harness } from '../../test/harness.ts';
import { registerByEmail } from '../../test/harness.ts';
import { approveDeposit } from './service.ts';

/** Test-only helpers for the wallet: every step through the real endpoints where one exists. */

export type User = Awaited<ReturnType<typeof registerByEmail>>;

export const USDT = '3';
export const BTC = '1';
export const ETH = '2';
export const BANK = '9999';
export const FUND_PASSWORD = '246810';
/** An operator id for reviews made in tests (the operators' module owns real ones). */
export const OPERATOR = 1;

/** Known-good addresses per chain. */
export const ADDRESSES = {
  TRC20: 'TMVQGm1qAQYVdetCeGRRkTWYYrLXuHK2HC',
  ERC20: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  OMNI: '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH',
  BTC: '1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH',
} as const;

// a real 1×1 PNG
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads a tiny PNG through POST /api/upload and answers its name. */
export async function uploadPng(h: Harness, token: string): Promise<string> {
  const boundary = `----VerdantTest${randomBytes(6).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="proof.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.inject({
    method: 'POST',
    url: '/api/upload',
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: token,
      lang: 'en',
    },
    payload,
  });
  const body = res.json() as { type: string; message: string; data: { name: string } };
  if (body.type !== 'ok') throw new Error(`upload failed: ${body.message}`);
  return body.data.name;
}

export async function setFundPassword(h: Harness, u: User, password = FUND_PASSWORD): Promise<void> {
  const res = await h.call(
    'POST',
    'safe/update_password',
    { password, re_password: password },
    { token: u.token },
  );
  if (res.body.type !== 'ok') throw new Error(`fund password failed: ${res.body.message}`);
}

/** Identity verification belongs to the KYC module: tests mark the user verified directly. */
export async function markVerified(h: Harness, u: User): Promise<void> {
  await h.app.ctx.db.query("UPDATE users SET verification = 'verified' WHERE id = $1", [u.user.id]);
}

/** A deposit request through wallet/charge_req; answers its id. */
export async function requestDeposit(
  h: Harness,
  u: User,
  amount: string,
  currencyId = USDT,
  chain: string | undefined = currencyId === USDT ? 'TRC20' : undefined,
): Promise<number> {
  const image = await uploadPng(h, u.token);
  const res = await h.call<{ id: number }>(
    'POST',
    'wallet/charge_req',
    { currency_id: currencyId, amount, image, ...(chain ? { chain } : {}) },
    { token: u.token },
  );
  if (res.body.type !== 'ok') throw new Error(`charge_req failed: ${res.body.message}`);
  return res.body.data.id;
}

/** Money in the user's spot account the honest way: a deposit request approved by an operator. */
export async function fund(h: Harness, u: User, amount: string, currencyId = USDT): Promise<number> {
  const id = await requestDeposit(h, u, amount, currencyId);
  await h.app.ctx.db.tx((q) => approveDeposit(q, id, OPERATOR));
  return id;
}

/**
 * A fresh 'address' code to the user's e-mail. Codes can be re-sent once a minute: earlier
 * codes of this user are dated back so a test can ask for another at once.
 */
export async function addressCode(h: Harness, u: User): Promise<string> {
  await h.app.ctx.db.query(
    "UPDATE verification_codes SET created_at = created_at - interval '2 minutes' WHERE target = $1",
    [u.email],
  );
  const sent = await h.call('POST', 'sms_mail', { type: 'address' }, { token: u.token });
  if (sent.body.type !== 'ok') throw new Error(`sms_mail failed: ${sent.body.message}`);
  return h.outbox.lastCode(u.email);
}

export async function addAddress(
  h: Harness,
  u: User,
  chain: keyof typeof ADDRESSES = 'TRC20',
  currencyId = USDT,
): Promise<number> {
  const res = await h.call<{ id: number }>(
    'POST',
    'wallet/addaddress',
    {
      currency_id: currencyId,
      chain,
      address: ADDRESSES[chain],
      fund_password: FUND_PASSWORD,
      code: await addressCode(h, u),
      code_type: 'email',
    },
    { token: u.token },
  );
  if (res.body.type !== 'ok') throw new Error(`addaddress failed: ${res.body.message}`);
  return res.body.data.id;
}

/** A user who may withdraw: verified, with a fund password, a USDT balance and a TRC20 address. */
export async function readyToWithdraw(h: Harness, balance = '1000') {
  const u = await registerByEmail(h);
  await markVerified(h, u);
  await setFundPassword(h, u);
  if (balance !== '0') await fund(h, u, balance);
  const addressId = await addAddress(h, u);
  return { u, addressId };
}

export interface SpotBalance {
  available: string;
  frozen: string;
}

/** A balance straight from the ledger, canonical ("1000", "0.5"). */
export async function ledgerBalance(
  h: Harness,
  account: { userId: number; type?: string } | { house: string },
  currencyId = USDT,
): Promise<SpotBalance> {
  const [row] =
    'house' in account
      ? await h.app.ctx.db.query<SpotBalance>(
          `SELECT trim_scale(available)::text AS available, trim_scale(frozen)::text AS frozen
             FROM ledger_accounts WHERE house = $1 AND currency_id = $2`,
          [account.house, Number(currencyId)],
        )
      : await h.app.ctx.db.query<SpotBalance>(
          `SELECT trim_scale(available)::text AS available, trim_scale(frozen)::text AS frozen
             FROM ledger_accounts WHERE user_id = $1 AND type = $2 AND currency_id = $3`,
          [account.userId, account.type ?? 'spot', Number(currencyId)],
        );
  return row ?? { available: '0', frozen: '0' };
}
