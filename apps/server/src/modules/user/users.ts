import type { VerificationLevel, VerificationState } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { type Paging, pageOf } from '../../db/paging.ts';
import { phoneTarget } from '../../http/parse.ts';

/**
 * The users table belongs to this module: what other modules need of it (a lock, a check, the
 * verification states, the account to show, the operators' search) is answered here, so its
 * columns are named in one place.
 */

/** Locks the user's row in the caller's transaction (serialises one user's writes); false when none. */
export async function lockUser(q: Queryable, userId: number): Promise<boolean> {
  const [u] = await q.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  return !!u;
}

export async function userExists(q: Queryable, userId: number): Promise<boolean> {
  const [u] = await q.query('SELECT 1 FROM users WHERE id = $1', [userId]);
  return !!u;
}

/** The user's identity-verification state per level, as the users table keeps it. */
export interface VerificationStates {
  verification: VerificationState;
  advanced_verification: VerificationState;
}

/** The user's verification states, or null when there is no such user; `lock` locks the row too. */
export async function verificationStates(
  q: Queryable,
  userId: number,
  opts: { lock?: boolean } = {},
): Promise<VerificationStates | null> {
  const [u] = await q.query<VerificationStates>(
    `SELECT verification, advanced_verification FROM users WHERE id = $1${opts.lock ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  return u ?? null;
}

/** Sets the state of one level (a submission made or reviewed); answers both states after. */
export async function setVerificationState(
  q: Queryable,
  userId: number,
  level: VerificationLevel,
  state: VerificationState,
): Promise<VerificationStates> {
  const column = level === 'basic' ? 'verification' : 'advanced_verification';
  const [u] = await q.query<VerificationStates>(
    `UPDATE users SET ${column} = $2 WHERE id = $1 RETURNING verification, advanced_verification`,
    [userId, state],
  );
  return u!;
}

/** The contact an account registered with, as screens show it: the e-mail or "+66 812345678". */
export interface AccountContact {
  account_type: string;
  email: string | null;
  area_code: string | null;
  mobile: string | null;
}
export const accountOf = (u: AccountContact): string =>
  u.account_type === 'email' ? (u.email ?? '') : phoneTarget(u.area_code, u.mobile);

/** The shown account of each of these users, by id (for lists whose rows carry a user id). */
export async function userAccounts(q: Queryable, ids: readonly number[]): Promise<Map<number, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await q.query<AccountContact & { id: number }>(
    'SELECT id, account_type, email, area_code, mobile FROM users WHERE id = ANY($1::int[])',
    [unique],
  );
  return new Map(rows.map((r) => [r.id, accountOf(r)]));
}

/** A user as the operators' list shows it. */
export interface UserListRow extends AccountContact {
  id: number;
  nickname: string;
  verification: VerificationState;
  advanced_verification: VerificationState;
  status: string;
  withdraw_frozen: boolean;
  invite_code: string;
  created_at: Date;
  last_login_at: Date | null;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Users matching `text` (part of an e-mail, phone number or nickname, an invite code, or an id;
 * empty: all), newest first.
 */
export async function searchUsers(
  q: Queryable,
  text: string,
  paging: Paging,
): Promise<{ rows: UserListRow[]; total: number }> {
  const params: unknown[] = [];
  let cond = '';
  if (text) {
    const digits = text.replace(/\D/g, '');
    params.push(`%${escapeLike(text.toLowerCase())}%`);
    const parts = ['u.email LIKE $1', 'lower(u.nickname) LIKE $1'];
    // invite codes are stored upper case; a code is matched whole
    params.push(text.toUpperCase());
    parts.push(`u.invite_code = $${params.length}`);
    if (digits.length >= 3) {
      params.push(`%${digits}%`);
      parts.push(`(u.area_code || u.mobile) LIKE $${params.length}`);
    }
    if (/^\d{1,9}$/.test(text)) {
      params.push(Number(text));
      parts.push(`u.id = $${params.length}`);
    }
    cond = `WHERE ${parts.join(' OR ')}`;
  }
  return pageOf<UserListRow>(
    q,
    {
      count: `SELECT count(*)::int AS n FROM users u ${cond}`,
      list: `SELECT u.id, u.nickname, u.account_type, u.area_code, u.mobile, u.email, u.verification,
                    u.advanced_verification, u.status, u.withdraw_frozen, u.invite_code, u.created_at,
                    u.last_login_at
               FROM users u ${cond}
              ORDER BY u.id DESC`,
    },
    params,
    paging,
  );
}

/**
 * A system user (the house market maker): a real row flagged `is_system` that cannot log in (its
 * password hash is not a hash). Found by e-mail or created, in the caller's transaction;
 * `created` tells which (the caller funds it once).
 */
export async function ensureSystemUser(
  q: Queryable,
  u: { email: string; nickname: string; inviteCode: string },
): Promise<{ id: number; created: boolean }> {
  const [found] = await q.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [u.email]);
  if (found) return { id: found.id, created: false };
  const [row] = await q.query<{ id: number }>(
    `INSERT INTO users (nickname, account_type, email, password_hash, invite_code, is_system)
     VALUES ($1, 'email', $2, '!', $3, true) RETURNING id`,
    [u.nickname, u.email, u.inviteCode],
  );
  return { id: row!.id, created: true };
}
