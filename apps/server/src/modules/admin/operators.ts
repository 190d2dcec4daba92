import { OPERATOR_ROLES, type Operator, type OperatorRole } from '@verdant/api';
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

function checkPassword(password: string | undefined): string {
  if (!password) throw invalid('validation.passwordRequired', 'password');
  if (password.length < OPERATOR_PASSWORD_MIN)
    throw invalid('validation.passwordTooShort', 'password', { min: OPERATOR_PASSWORD_MIN });
  if (password.length > OPERATOR_PASSWORD_MAX)
    throw invalid('validation.passwordTooLong', 'password', { max: OPERATOR_PASSWORD_MAX });
  return password;
}

export function parseRole(input: string | undefined): OperatorRole {
  const role = (input ?? '').trim().toLowerCase();
  if (!(OPERATOR_ROLES as readonly string[]).includes(role)) throw invalid('admin.roleInvalid', 'role');
  return role as OperatorRole;
}

/**
 * Creates an operator (what `npm run admin:create` runs). The password is hashed with
 * argon2id; the creation is written to the audit log in the same transaction.
 */
export async function createOperator(
  db: Db,
  input: { username?: string | undefined; password?: string | undefined; role?: string | undefined },
): Promise<Operator> {
  const username = parseUsername(input.username);
  const role = parseRole(input.role);
  const hash = await hashPassword(checkPassword(input.password));
  try {
    return await db.tx(async (q) => {
      const [row] = await q.query<OperatorRow>(
        `INSERT INTO operators (username, password_hash, role) VALUES ($1, $2, $3)
         RETURNING id, username, password_hash, role, disabled, created_at`,
        [username, hash, role],
      );
      const op = toOperator(row!);
      await writeAudit(q, {
        operatorId: null,
        action: 'operator.create',
        targetType: 'operator',
        targetId: op.id,
        before: null,
        after: op,
        ip: null,
      });
      return op;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'admin.usernameTaken', {}, 'username');
    throw e;
  }
}

async function operatorByName(q: Queryable, username: string): Promise<OperatorRow | undefined> {
  const [row] = await q.query<OperatorRow>(
    'SELECT id, username, password_hash, role, disabled, created_at FROM operators WHERE username = $1',
    [username],
  );
  return row;
}

/** Sets a new password (CLI); every session of the operator ends. */
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
    await q.query('UPDATE operators SET password_hash = $2 WHERE id = $1', [op.id, hash]);
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

export async function listOperators(q: Queryable): Promise<(Operator & { disabled: boolean })[]> {
  const rows = await q.query<OperatorRow>(
    'SELECT id, username, password_hash, role, disabled, created_at FROM operators ORDER BY id',
  );
  return rows.map((r) => ({ ...toOperator(r), disabled: r.disabled }));
}

/** Logs an operator in: a new session (token stored hashed) and an audit row, in one transaction. */
export async function loginOperator(
  db: Db,
  input: { username?: string | undefined; password?: string | undefined },
  req: FastifyRequest,
): Promise<{ token: string; operator: Operator }> {
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
    await q.query(
      'INSERT INTO operator_sessions (token_hash, operator_id, ip, user_agent) VALUES ($1, $2, $3, $4)',
      [hash, op.id, req.ip, (req.headers['user-agent'] ?? '').slice(0, 300)],
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
    return { token, operator: toOperator(op) };
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
  const [row] = await q.query<{ id: number; username: string; role: OperatorRole; created_at: Date }>(
    `UPDATE operator_sessions s SET last_seen_at = now()
       FROM operators o
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND o.id = s.operator_id AND NOT o.disabled
        AND s.last_seen_at > now() - make_interval(hours => $2)
        AND s.created_at > now() - make_interval(hours => $3)
      RETURNING o.id, o.username, o.role, o.created_at`,
    [hash, SESSION_IDLE_HOURS, SESSION_MAX_HOURS],
  );
  return row ? { ...row, tokenHash: hash } : null;
}

/**
 * preHandler of /api/admin routes: an operator session is required (999 otherwise, also for a
 * user's token), and its role must be one of `roles` (403 otherwise); admins may do everything.
 */
export function requireOperator(app: FastifyInstance, roles: readonly OperatorRole[] = OPERATOR_ROLES) {
  return async (req: FastifyRequest) => {
    const token = readToken(req);
    const session = token ? await findOperatorSession(app.ctx.db, token) : null;
    if (!session) throw new NotLoggedInError('admin.loginRequired');
    if (session.role !== 'admin' && !roles.includes(session.role)) throw new AdminForbidden();
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
