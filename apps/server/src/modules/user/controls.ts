import type { UserStatus, VerificationState } from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { revokeAllSessions } from '../../http/auth.ts';
import { type AccountContact, accountOf } from './users.ts';

/**
 * What operators control of a user (issue 23): login frozen is `status = 'disabled'` (the login
 * and every session lookup already refuse it), withdrawals frozen is `withdraw_frozen`.
 */
export interface UserControls {
  status: UserStatus;
  withdraw_frozen: boolean;
}

export type FreezeTarget = 'login' | 'withdraw';

/** The user's controls, or null when there is no such user; `lock` locks the row for the change. */
export async function userControls(q: Queryable, userId: number, lock = false): Promise<UserControls | null> {
  const [u] = await q.query<UserControls>(
    `SELECT status, withdraw_frozen FROM users WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  return u ?? null;
}

/**
 * Freezes or unfreezes the user's login or withdrawals in the caller's transaction; answers the
 * controls after. Freezing the login ends every live session at once (on every process).
 */
export async function setFrozen(
  q: Queryable,
  userId: number,
  what: FreezeTarget,
  frozen: boolean,
): Promise<UserControls> {
  const [u] =
    what === 'login'
      ? await q.query<UserControls>(
          'UPDATE users SET status = $2 WHERE id = $1 RETURNING status, withdraw_frozen',
          [userId, frozen ? 'disabled' : 'active'],
        )
      : await q.query<UserControls>(
          'UPDATE users SET withdraw_frozen = $2 WHERE id = $1 RETURNING status, withdraw_frozen',
          [userId, frozen],
        );
  if (what === 'login' && frozen) await revokeAllSessions(q, userId);
  return u!;
}

export async function withdrawFrozen(q: Queryable, userId: number): Promise<boolean> {
  return (await userControls(q, userId))?.withdraw_frozen ?? false;
}

/** A user as the operators' detail shows it: contact, verification, controls, who invited whom. */
export interface UserProfile extends AccountContact, UserControls {
  id: number;
  account: string;
  nickname: string;
  lang: string;
  invite_code: string;
  invited_by: number | null;
  inviter_account: string | null;
  verification: VerificationState;
  advanced_verification: VerificationState;
  created_at: Date;
  last_login_at: Date | null;
  last_login_ip: string | null;
  /** the users this one invited, newest first (at most 100) */
  invitees: { id: number; account: string; created_at: Date }[];
  invitee_count: number;
}

export async function userProfile(q: Queryable, userId: number): Promise<UserProfile | null> {
  const [u] = await q.query<Omit<UserProfile, 'account' | 'inviter_account' | 'invitees' | 'invitee_count'>>(
    `SELECT id, nickname, account_type, area_code, mobile, email, lang, invite_code, invited_by,
            verification, advanced_verification, status, withdraw_frozen, created_at, last_login_at,
            last_login_ip
       FROM users WHERE id = $1`,
    [userId],
  );
  if (!u) return null;
  const [inviter] = u.invited_by
    ? await q.query<AccountContact>(
        'SELECT account_type, email, area_code, mobile FROM users WHERE id = $1',
        [u.invited_by],
      )
    : [];
  const invitees = await q.query<AccountContact & { id: number; created_at: Date }>(
    `SELECT id, account_type, email, area_code, mobile, created_at FROM users
      WHERE invited_by = $1 ORDER BY id DESC LIMIT 100`,
    [userId],
  );
  const [count] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE invited_by = $1', [
    userId,
  ]);
  return {
    ...u,
    account: accountOf(u),
    inviter_account: inviter ? accountOf(inviter) : null,
    invitees: invitees.map((i) => ({ id: i.id, account: accountOf(i), created_at: i.created_at })),
    invitee_count: count!.n,
  };
}

/** Users in all, and registered since `since` (system users, such as the house maker, left out). */
export async function userCounts(q: Queryable, since: Date): Promise<{ total: number; new_today: number }> {
  const [r] = await q.query<{ total: number; new_today: number }>(
    `SELECT count(*)::int AS total, (count(*) FILTER (WHERE created_at >= $1))::int AS new_today
       FROM users WHERE NOT is_system`,
    [since],
  );
  return r!;
}
