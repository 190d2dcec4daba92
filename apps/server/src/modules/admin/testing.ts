// Helpers for tests of the operator API, identity verification and bank cards (not used at run time).
import { randomBytes } from 'node:crypto';
import type { OperatorRole } from '@verdant/api';
import type { Harness } from '../../test/harness.ts';
import { createOperator } from './operators.ts';

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

/** Creates an operator with the function the CLI uses and logs in through the API. */
export async function operatorLogin(
  h: Harness,
  role: OperatorRole,
): Promise<{ id: number; username: string; token: string }> {
  seq += 1;
  const username = `${role}${seq}_${randomBytes(3).toString('hex')}`;
  const op = await createOperator(h.app.ctx.db, { username, password: OPERATOR_PASSWORD, role });
  const res = await h.call<{ token: string }>('POST', 'admin/login', {
    username,
    password: OPERATOR_PASSWORD,
  });
  if (res.body.type !== 'ok') throw new Error(`admin login failed: ${res.body.message}`);
  return { id: op.id, username, token: res.body.data.token };
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
