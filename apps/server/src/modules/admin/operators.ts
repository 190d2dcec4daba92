import { OPERATOR_ROLES, type Operator, type OperatorRole, type OperatorSessionStage } from '@verdant/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db, Queryable } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/values.ts';
import { hashToken, newToken, readToken } from '../../http/auth.ts';
import { AppError, invalid, NotLoggedInError } from '../../http/errors.ts';
import { hashPassword, verifyPasswordOrDummy } from '../../http/passwords.ts';
import { writeAudit } from './audit.ts';

const USERNAME_RE = /^[a-z0-9][a-z0-9_.-]{2,31}$/;
export const OPERATOR_PASSWORD_MIN = 10;
const OPERATOR_PASSWORD_MAX = 200;
/** An operator session ends after this long without a request, and after SESSION_MAX_HOURS in all. */
const SESSION_IDLE_HOURS = 12;
const SESSION_MAX_HOURS = 24 * 7;

export interface OperatorSession {
  id: number;
  username: string;
  role: OperatorRole;
  created_at: Date;
  tokenHash: string;
  /** 'ready' once the password change and the second factor are done. */
  stage: OperatorSessionStage;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireOperator` on /api/admin routes; null elsewhere. */
    operator: OperatorSession | null;
  }
}

interface OperatorRow {
  id: number;
  username: string;
  password_hash: string;
  role: OperatorRole;
  disabled: boolean;
  created_at: Date;
  must_change_password: boolean;
  totp_secret: string | null;
}

const OPERATOR_COLUMNS =
  'id, username, password_hash, role, disabled, created_at, must_change_password, totp_secret';

/** The step a session starts at once the password is right. */
function firstStage(op: Pick<OperatorRow, 'must_change_password' | 'totp_secret'>): OperatorSessionStage {
  if (op.must_change_password) return 'password';
  return op.totp_secret ? 'totp' : 'totp_setup';
}

/** After the password step: the second factor, enrolment first if there is none. */
export function stageAfterPassword(op: { totp_secret: string | null }): OperatorSessionStage {
  return op.totp_secret ? 'totp' : 'totp_setup';
}

export function toOperator(r: {
  id: number;
  username: string;
  role: OperatorRole;
  created_at: Date;
}): Operator {
  return { id: r.id, username: r.username, role: r.role, created_at: r.created_at.toISOString() };
}

/** Forbidden for the operator's role: 403 with code ADMIN_FORBIDDEN. */
export class AdminForbidden extends AppError {
  override readonly statusCode = 403;
  constructor() {
    super('ADMIN_FORBIDDEN', 'admin.forbidden');
  }
}

export function parseUsername(input: string | undefined): string {
  const username = (input ?? '').trim().toLowerCase();
  if (!username) throw invalid('admin.usernameRequired', 'username');
  if (!USERNAME_RE.test(username)) throw invalid('admin.usernameInvalid', 'username');
  return username;
}

export function checkPassword(password: string | undefined, field = 'password'): string {
  if (!password) throw invalid('validation.passwordRequired', field);
  if (password.length < OPERATOR_PASSWORD_MIN)
    throw invalid('validation.passwordTooShort', field, { min: OPERATOR_PASSWORD_MIN });
  if (password.length > OPERATOR_PASSWORD_MAX)
    throw invalid('validation.passwordTooLong', field, { max: OPERATOR_PASSWORD_MAX });
  return password;
}

export function parseRole(input: string | undefined): OperatorRole {
  const role = (input ?? '').trim().toLowerCase();
  if (!(OPERATOR_ROLES as readonly string[]).includes(role)) throw invalid('admin.roleInvalid', 'role');
  return role as OperatorRole;
}

/**
 * Creates an operator (what `npm run admin:create` runs, and an admin in the console). The
 * password is hashed with argon2id and must be changed at the first login; the creation is
 * written to the audit log in the same transaction (`by`: the admin who did it, none for the CLI).
 */
export async function createOperator(
  db: Db,
  input: { username?: string | undefined; password?: string | undefined; role?: string | undefined },
  by: { operatorId: number; ip: string } | null = null,
): Promise<Operator> {
  const username = parseUsername(input.username);
  const role = parseRole(input.role);
  const hash = await hashPassword(checkPassword(input.password));
  try {
    return await db.tx(async (q) => {
      const [row] = await q.query<OperatorRow>(
        `INSERT INTO operators (username, password_hash, role, must_change_password) VALUES ($1, $2, $3, true)
         RETURNING ${OPERATOR_COLUMNS}`,
        [username, hash, role],
      );
      const op = toOperator(row!);
      await writeAudit(q, {
        operatorId: by?.operatorId ?? null,
        action: 'operator.create',
        targetType: 'operator',
        targetId: op.id,
        before: null,
        after: op,
        ip: by?.ip ?? null,
      });
      return op;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'admin.usernameTaken', {}, 'username');
    throw e;
  }
}

async function operatorByName(q: Queryable, username: string): Promise<OperatorRow | undefined> {
  const [row] = await q.query<OperatorRow>(`SELECT ${OPERATOR_COLUMNS} FROM operators WHERE username = $1`, [
    username,
  ]);
  return row;
}

/** Sets a new password (CLI), to be changed at the next login; every session of the operator ends. */
export async function setOperatorPassword(
  db: Db,
  usernameInput: string | undefined,
  password: string | undefined,
): Promise<Operator> {
  const username = parseUsername(usernameInput);
  const hash = await hashPassword(checkPassword(password));
  return db.tx(async (q) => {
    const op = await operatorByName(q, username);
    if (!op) throw new AppError('NOT_FOUND', 'admin.operatorNotFound', {}, 'username');
    await q.query('UPDATE operators SET password_hash = $2, must_change_password = true WHERE id = $1', [
      op.id,
      hash,
    ]);
    await q.query(
      'UPDATE operator_sessions SET revoked_at = now() WHERE operator_id = $1 AND revoked_at IS NULL',
      [op.id],
    );
    await writeAudit(q, {
      operatorId: null,
      action: 'operator.password',
      targetType: 'operator',
      targetId: op.id,
      before: null,
      after: null,
      ip: null,
    });
    return toOperator(op);
  });
}

/** Disables or enables an operator (CLI); disabling ends every session. */
export async function setOperatorDisabled(
  db: Db,
  usernameInput: string | undefined,
  disabled: boolean,
): Promise<Operator> {
  const username = parseUsername(usernameInput);
  return db.tx(async (q) => {
    const op = await operatorByName(q, username);
    if (!op) throw new AppError('NOT_FOUND', 'admin.operatorNotFound', {}, 'username');
    await q.query('UPDATE operators SET disabled = $2 WHERE id = $1', [op.id, disabled]);
    if (disabled)
      await q.query(
        'UPDATE operator_sessions SET revoked_at = now() WHERE operator_id = $1 AND revoked_at IS NULL',
        [op.id],
      );
    await writeAudit(q, {
      operatorId: null,
      action: disabled ? 'operator.disable' : 'operator.enable',
      targetType: 'operator',
      targetId: op.id,
      before: { disabled: op.disabled },
      after: { disabled },
      ip: null,
    });
    return toOperator(op);
  });
}

export async function listOperators(q: Queryable): Promise<OperatorListRow[]> {
  const rows = await q.query<OperatorRow>(`SELECT ${OPERATOR_COLUMNS} FROM operators ORDER BY id`);
  return rows.map((r) => ({
    ...toOperator(r),
    disabled: r.disabled,
    must_change_password: r.must_change_password,
    totp_enabled: r.totp_secret !== null,
  }));
}

export type OperatorListRow = Operator & {
  disabled: boolean;
  must_change_password: boolean;
  totp_enabled: boolean;
};

/**
 * The password step of an operator login: a new session (token stored hashed) at its first stage
 * (password change, TOTP enrolment or TOTP code; never ready yet) and an audit row, in one
 * transaction.
 */
export async function loginOperator(
  db: Db,
  input: { username?: string | undefined; password?: string | undefined },
  req: FastifyRequest,
): Promise<{ token: string; operator: Operator; stage: OperatorSessionStage }> {
  const username = (input.username ?? '').trim().toLowerCase();
  if (!username) throw invalid('admin.usernameRequired', 'username');
  if (!input.password) throw invalid('validation.passwordRequired', 'password');
  const op = await operatorByName(db, username);
  const good = await verifyPasswordOrDummy(op?.password_hash, input.password);
  if (!op || !good) {
    if (op)
      await writeAudit(db, {
        operatorId: op.id,
        action: 'operator.login_failed',
        targetType: 'operator',
        targetId: op.id,
        before: null,
        after: null,
        ip: req.ip,
      });
    throw new AppError('WRONG_PASSWORD', 'admin.wrongPassword', {}, 'password');
  }
  if (op.disabled) throw new AppError('ACCOUNT_DISABLED', 'admin.disabled');
  return db.tx(async (q) => {
    const { token, hash } = newToken();
    const stage = firstStage(op);
    await q.query(
      'INSERT INTO operator_sessions (token_hash, operator_id, ip, user_agent, stage) VALUES ($1, $2, $3, $4, $5)',
      [hash, op.id, req.ip, (req.headers['user-agent'] ?? '').slice(0, 300), stage],
    );
    await writeAudit(q, {
      operatorId: op.id,
      action: 'operator.login',
      targetType: 'operator',
      targetId: op.id,
      before: null,
      after: null,
      ip: req.ip,
    });
    return { token, operator: toOperator(op), stage };
  });
}

export async function logoutOperator(db: Db, session: OperatorSession, ip: string): Promise<void> {
  await db.tx(async (q) => {
    await q.query(
      'UPDATE operator_sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL',
      [session.tokenHash],
    );
    await writeAudit(q, {
      operatorId: session.id,
      action: 'operator.logout',
      targetType: 'operator',
      targetId: session.id,
      before: null,
      after: null,
      ip,
    });
  });
}

/** The live operator session a token belongs to (a user's token never is one), or null. */
export async function findOperatorSession(q: Queryable, token: string): Promise<OperatorSession | null> {
  const hash = hashToken(token);
  const [row] = await q.query<{
    id: number;
    username: string;
    role: OperatorRole;
    created_at: Date;
    stage: OperatorSessionStage;
  }>(
    `UPDATE operator_sessions s SET last_seen_at = now()
       FROM operators o
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND o.id = s.operator_id AND NOT o.disabled
        AND s.last_seen_at > now() - make_interval(hours => $2)
        AND s.created_at > now() - make_interval(hours => $3)
      RETURNING o.id, o.username, o.role, o.created_at, s.stage`,
    [hash, SESSION_IDLE_HOURS, SESSION_MAX_HOURS],
  );
  return row ? { ...row, tokenHash: hash } : null;
}

/**
 * Of these token hashes, those whose sessions are still signed in all the way (not revoked,
 * disabled or expired, every sign-in step done). Read only: a socket that stays open must not
 * keep its session from expiring, as a request would.
 */
export async function liveOperatorSessions(
  q: Queryable,
  tokenHashes: readonly string[],
): Promise<Set<string>> {
  if (tokenHashes.length === 0) return new Set();
  const rows = await q.query<{ token_hash: string }>(
    `SELECT s.token_hash FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
      WHERE s.token_hash = ANY($1::text[]) AND s.revoked_at IS NULL AND NOT o.disabled
        AND s.stage = 'ready'
        AND s.last_seen_at > now() - make_interval(hours => $2)
        AND s.created_at > now() - make_interval(hours => $3)`,
    [tokenHashes, SESSION_IDLE_HOURS, SESSION_MAX_HOURS],
  );
  return new Set(rows.map((r) => r.token_hash));
}

/**
 * preHandler of /api/admin routes: a ready operator session is required (999 otherwise, also for
 * a user's token and for a session still at its password or TOTP step), and its role must be one
 * of `roles` (403 otherwise); admins may do everything.
 */
export function requireOperator(app: FastifyInstance, roles: readonly OperatorRole[] = OPERATOR_ROLES) {
  return async (req: FastifyRequest) => {
    const token = readToken(req);
    const session = token ? await findOperatorSession(app.ctx.db, token) : null;
    if (session?.stage !== 'ready') throw new NotLoggedInError('admin.loginRequired');
    if (session.role !== 'admin' && !roles.includes(session.role)) throw new AdminForbidden();
    req.operator = session;
  };
}

/**
 * preHandler of the sign-in steps (password change, TOTP): a session at one of `stages` (999
 * otherwise: an expired session, or a step that is not this session's).
 */
export function requireSignInStep(app: FastifyInstance, stages: readonly OperatorSessionStage[]) {
  return async (req: FastifyRequest) => {
    const token = readToken(req);
    const session = token ? await findOperatorSession(app.ctx.db, token) : null;
    if (!session || !stages.includes(session.stage)) throw new NotLoggedInError('admin.loginRequired');
    req.operator = session;
  };
}

/** Who may work the review queues (identity, deposits, withdrawals, subscriptions). */
export const REVIEWERS: readonly OperatorRole[] = ['admin', 'reviewer'];

/** The operator of the request; only call behind `requireOperator`. */
export function operatorOf(req: FastifyRequest): OperatorSession {
  if (!req.operator) throw new NotLoggedInError('admin.loginRequired');
  return req.operator;
}
