import type { OperatorAuthState, OperatorSessionStage, TotpSetup } from '@verdant/api';
import * as OTPAuth from 'otpauth';
import type { Db, Queryable } from '../../db/client.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../../http/passwords.ts';
import { writeAudit } from './audit.ts';
import { checkPassword, type OperatorSession, stageAfterPassword, toOperator } from './operators.ts';

/** RFC 6238 with the parameters every authenticator app assumes: SHA-1, six digits, 30 s. */
const PERIOD = 30;
/** A code of the step before or after the current one is accepted too (clock drift). */
const WINDOW = 1;
const ISSUER = 'Verdant console';

interface Row {
  id: number;
  username: string;
  role: OperatorSession['role'];
  created_at: Date;
  password_hash: string;
  totp_secret: string | null;
  totp_pending_secret: string | null;
}

async function load(q: Queryable, id: number): Promise<Row> {
  const [row] = await q.query<Row>(
    `SELECT id, username, role, created_at, password_hash, totp_secret, totp_pending_secret
       FROM operators WHERE id = $1`,
    [id],
  );
  if (!row) throw new AppError('NOT_FOUND', 'admin.operatorNotFound');
  return row;
}

function totp(username: string, base32: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer: ISSUER,
    label: username,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD,
    secret: OTPAuth.Secret.fromBase32(base32),
  });
}

/** The 30-second step the code belongs to, or null when it is not a current code of the secret. */
function codeStep(username: string, base32: string, input: string | undefined, now = Date.now()): number {
  const code = (input ?? '').trim();
  if (!code) throw invalid('admin.totpRequired', 'code');
  if (!/^\d{6}$/.test(code)) throw invalid('admin.totpInvalid', 'code');
  const delta = totp(username, base32).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) throw new AppError('CODE_INVALID', 'admin.totpInvalid', {}, 'code');
  return Math.floor(now / 1000 / PERIOD) + delta;
}

async function setStage(q: Queryable, s: OperatorSession, stage: OperatorSessionStage): Promise<void> {
  await q.query('UPDATE operator_sessions SET stage = $2 WHERE token_hash = $1', [s.tokenHash, stage]);
}

function state(row: Row, stage: OperatorSessionStage): OperatorAuthState {
  return { operator: toOperator(row), stage };
}

async function failed(db: Db, s: OperatorSession, ip: string, action: string): Promise<void> {
  await writeAudit(db, {
    operatorId: s.id,
    action,
    targetType: 'operator',
    targetId: s.id,
    before: null,
    after: null,
    ip,
  });
}

/**
 * An operator changes their own password (the forced change of the first login, or any time):
 * the current password is required, every other session of the operator ends, and a session at
 * the password step moves on to the second factor.
 */
export async function changeOwnPassword(
  db: Db,
  s: OperatorSession,
  input: { password?: string | undefined; new_password?: string | undefined },
  ip: string,
): Promise<OperatorAuthState> {
  if (!input.password) throw invalid('validation.passwordRequired', 'password');
  const next = checkPassword(input.new_password, 'new_password');
  const row = await load(db, s.id);
  if (!(await verifyPassword(row.password_hash, input.password))) {
    await failed(db, s, ip, 'operator.password_failed');
    throw new AppError('WRONG_PASSWORD', 'admin.currentPasswordWrong', {}, 'password');
  }
  if (next === input.password) throw invalid('admin.passwordSame', 'new_password');
  const hash = await hashPassword(next);
  return db.tx(async (q) => {
    await q.query('UPDATE operators SET password_hash = $2, must_change_password = false WHERE id = $1', [
      s.id,
      hash,
    ]);
    await q.query(
      `UPDATE operator_sessions SET revoked_at = now()
        WHERE operator_id = $1 AND token_hash <> $2 AND revoked_at IS NULL`,
      [s.id, s.tokenHash],
    );
    const stage = s.stage === 'password' ? stageAfterPassword(row) : s.stage;
    await setStage(q, s, stage);
    await writeAudit(q, {
      operatorId: s.id,
      action: 'operator.password_change',
      targetType: 'operator',
      targetId: s.id,
      before: null,
      after: null,
      ip,
    });
    return state(row, stage);
  });
}

/**
 * A new secret to enrol, for an operator without one (a session at the totp_setup step). It is
 * kept as pending until a code confirms it; asking again replaces it.
 */
export async function setupTotp(db: Db, s: OperatorSession, ip: string): Promise<TotpSetup> {
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  return db.tx(async (q) => {
    const [row] = await q.query<{ username: string }>(
      'UPDATE operators SET totp_pending_secret = $2 WHERE id = $1 AND totp_secret IS NULL RETURNING username',
      [s.id, secret],
    );
    if (!row) throw new AppError('CONFLICT', 'admin.totpEnrolled');
    await writeAudit(q, {
      operatorId: s.id,
      action: 'operator.totp_setup',
      targetType: 'operator',
      targetId: s.id,
      before: null,
      after: null,
      ip,
    });
    return { secret, uri: totp(row.username, secret).toString() };
  });
}

/**
 * Confirms enrolment with a first code of the pending secret: it becomes the operator's secret
 * (never sent again) and the session is ready. One statement guards it: two confirmations at
 * once enrol once, and the code's step is used up.
 */
export async function enableTotp(
  db: Db,
  s: OperatorSession,
  code: string | undefined,
  ip: string,
): Promise<OperatorAuthState> {
  const row = await load(db, s.id);
  if (row.totp_secret) throw new AppError('CONFLICT', 'admin.totpEnrolled');
  if (!row.totp_pending_secret) throw new AppError('CONFLICT', 'admin.totpNoSetup');
  let step: number;
  try {
    step = codeStep(row.username, row.totp_pending_secret, code);
  } catch (e) {
    if (e instanceof AppError && e.codeName === 'CODE_INVALID')
      await failed(db, s, ip, 'operator.totp_failed');
    throw e;
  }
  return db.tx(async (q) => {
    const [done] = await q.query<{ id: number }>(
      `UPDATE operators SET totp_secret = totp_pending_secret, totp_pending_secret = NULL,
              totp_enabled_at = now(), totp_last_step = $3
        WHERE id = $1 AND totp_secret IS NULL AND totp_pending_secret = $2 RETURNING id`,
      [s.id, row.totp_pending_secret, step],
    );
    if (!done) throw new AppError('CONFLICT', 'admin.totpEnrolled');
    await setStage(q, s, 'ready');
    await writeAudit(q, {
      operatorId: s.id,
      action: 'operator.totp_enable',
      targetType: 'operator',
      targetId: s.id,
      before: { totp_enabled: false },
      after: { totp_enabled: true },
      ip,
    });
    return state(row, 'ready');
  });
}

/**
 * The second factor at login: a code of the operator's secret, of a later step than any code
 * accepted before (a replayed or older code is refused, decided in one UPDATE so two requests
 * with one code pass once). The session becomes ready.
 */
export async function verifyTotp(
  db: Db,
  s: OperatorSession,
  code: string | undefined,
  ip: string,
): Promise<OperatorAuthState> {
  const row = await load(db, s.id);
  if (!row.totp_secret) throw new AppError('CONFLICT', 'admin.totpNoSetup');
  let step: number;
  try {
    step = codeStep(row.username, row.totp_secret, code);
  } catch (e) {
    if (e instanceof AppError && e.codeName === 'CODE_INVALID')
      await failed(db, s, ip, 'operator.totp_failed');
    throw e;
  }
  return db.tx(async (q) => {
    const [fresh] = await q.query<{ id: number }>(
      `UPDATE operators SET totp_last_step = $2
        WHERE id = $1 AND totp_secret = $3 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
      [s.id, step, row.totp_secret],
    );
    if (!fresh) throw new AppError('CODE_INVALID', 'admin.totpUsed', {}, 'code');
    const [moved] = await q.query<{ token_hash: string }>(
      `UPDATE operator_sessions SET stage = 'ready' WHERE token_hash = $1 AND stage = 'totp' RETURNING token_hash`,
      [s.tokenHash],
    );
    if (!moved) throw new AppError('CONFLICT', 'admin.totpUsed', {}, 'code');
    await writeAudit(q, {
      operatorId: s.id,
      action: 'operator.totp_verify',
      targetType: 'operator',
      targetId: s.id,
      before: null,
      after: null,
      ip,
    });
    return state(row, 'ready');
  });
}

/** The current code of a secret (tests and the e2e compute codes the way an authenticator does). */
export function currentCode(username: string, base32: string, timestamp = Date.now()): string {
  return totp(username, base32).generate({ timestamp });
}
