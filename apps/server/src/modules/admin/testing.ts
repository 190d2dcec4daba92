// Helpers for tests of the operator API, identity verification and bank cards (not used at run time).
import { randomBytes } from 'node:crypto';
import type { OperatorRole } from '@verdant/api';
import type { Harness } from '../../test/harness.ts';
import { createOperator } from './operators.ts';
import { currentCode } from './signin.ts';

/** A real 1×1 PNG; `variant` appends bytes after IEND so each upload is a different file. */
export function png(variant = ''): Buffer {
  return Buffer.concat([
    Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    ),
    Buffer.from(variant),
  ]);
}

/** A multipart/form-data body written by hand, as a browser sends it. */
export function multipart(fields: Record<string, string>, file?: { name: string; data: Buffer }) {
  const boundary = `----VerdantBoundary${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads a PNG as the user; answers its stored name. */
export async function uploadPng(h: Harness, token: string): Promise<string> {
  const { payload, contentType } = multipart({}, { name: 'file', data: png(randomBytes(4).toString('hex')) });
  const res = await h.inject({
    method: 'POST',
    url: '/api/upload',
    headers: { 'content-type': contentType, authorization: token, lang: 'en' },
    payload,
  });
  const body = res.json() as { type: string; message: string; data: { name: string } };
  if (body.type !== 'ok') throw new Error(`upload failed: ${body.message}`);
  return body.data.name;
}

let seq = 0;
export const OPERATOR_PASSWORD = 'operator-secret-1';

/** A fixed TOTP secret for test operators (base32), so a test can compute their codes. */
export const TEST_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

/**
 * An operator as one is after the first login's steps: password changed and TOTP enrolled with
 * TEST_TOTP_SECRET (set here directly; the steps themselves are tested in signin.test.ts).
 */
export async function enrolledOperator(
  h: Harness,
  role: OperatorRole,
): Promise<{ id: number; username: string }> {
  seq += 1;
  const username = `${role}${seq}_${randomBytes(3).toString('hex')}`;
  const op = await createOperator(h.app.ctx.db, { username, password: OPERATOR_PASSWORD, role });
  await h.app.ctx.db.query(
    'UPDATE operators SET must_change_password = false, totp_secret = $2, totp_enabled_at = now() WHERE id = $1',
    [op.id, TEST_TOTP_SECRET],
  );
  return { id: op.id, username };
}

/**
 * Signs an enrolled operator in through the API: password, then the current TOTP code. The
 * operator's last used step is cleared first, so a second sign-in within one 30-second step
 * (which a real authenticator could not do) works in tests.
 */
export async function signIn(h: Harness, username: string): Promise<string> {
  const res = await h.call<{ token: string; stage: string }>('POST', 'admin/login', {
    username,
    password: OPERATOR_PASSWORD,
  });
  if (res.body.type !== 'ok') throw new Error(`admin login failed: ${res.body.message}`);
  if (res.body.data.stage !== 'totp') throw new Error(`admin login at stage ${res.body.data.stage}`);
  const { token } = res.body.data;
  await h.app.ctx.db.query('UPDATE operators SET totp_last_step = NULL WHERE username = $1', [username]);
  const verified = await h.call(
    'POST',
    'admin/totp/verify',
    { code: currentCode(username, TEST_TOTP_SECRET) },
    { token },
  );
  if (verified.body.type !== 'ok') throw new Error(`admin TOTP failed: ${verified.body.message}`);
  return token;
}

/** Creates an enrolled operator and signs in through the API (password and TOTP code). */
export async function operatorLogin(
  h: Harness,
  role: OperatorRole,
): Promise<{ id: number; username: string; token: string }> {
  const op = await enrolledOperator(h, role);
  return { ...op, token: await signIn(h, op.username) };
}

export interface AuditRow {
  operator_id: number | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export async function auditRows(
  h: Harness,
  targetType: string,
  targetId: number | string,
): Promise<AuditRow[]> {
  return h.app.ctx.db.query<AuditRow>(
    'SELECT operator_id, action, target_type, target_id, before, after FROM audit_log WHERE target_type = $1 AND target_id = $2 ORDER BY id',
    [targetType, String(targetId)],
  );
}
