import { randomBytes } from 'node:crypto';
import {
  type AccountType,
  type Center2,
  type ChangePasswordBody,
  type CodePurpose,
  type ForgetBody,
  type FundPasswordBody,
  isLang,
  type Lang,
  type LoginBody,
  NICKNAME_MAX,
  NICKNAME_MIN,
  PASSWORD_MAX,
  PASSWORD_MIN,
  type RegisterBody,
  type UserCenter,
  type UserStatus,
} from '@verdant/api';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/values.ts';
import { createSession, revokeAllSessions, revokeSession, type SessionUser } from '../../http/auth.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { codeChannel, codeTarget, parseFundPassword } from '../../http/parse.ts';
import { hashPassword, verifyPassword, verifyPasswordOrDummy } from '../../http/passwords.ts';
import { type Channel, type CodeTarget, codesService } from '../codes/service.ts';
import { parseEmail, parsePhone } from './contacts.ts';
import { checkFundPassword, oneAtATime } from './fund-password.ts';
import { accountOf } from './users.ts';

interface UserRow {
  id: number;
  nickname: string;
  account_type: AccountType;
  area_code: string | null;
  mobile: string | null;
  email: string | null;
  password_hash: string;
  fund_password_hash: string | null;
  fund_password_failures: number;
  fund_locked_seconds: number | null;
  lang: string;
  invite_code: string;
  verification: UserCenter['verification'];
  advanced_verification: UserCenter['advanced_verification'];
  status: UserStatus;
  last_login_at: Date | null;
  last_login_ip: string | null;
  created_at: Date;
}

const USER_COLUMNS = `id, nickname, account_type, area_code, mobile, email, password_hash, fund_password_hash,
  fund_password_failures, lang, invite_code, verification, advanced_verification, status, last_login_at,
  last_login_ip, created_at,
  CASE WHEN fund_password_locked_until > now()
       THEN EXTRACT(EPOCH FROM fund_password_locked_until - now())::float8 END AS fund_locked_seconds`;

/** A contact as the user typed it: which channel, how to address it, how to find its owner. */
interface Contact {
  channel: Channel;
  target: string;
  areaCode: string | null;
  mobile: string | null;
  email: string | null;
}

function parseType(v: string | undefined): AccountType {
  if (v === 'mobile' || v === 'email') return v;
  throw invalid('validation.typeInvalid', 'type');
}

function parseContact(type: AccountType, areaCode: string | undefined, account: string | undefined): Contact {
  if (type === 'email') {
    const email = parseEmail(account);
    return { channel: 'email', target: email, areaCode: null, mobile: null, email };
  }
  const p = parsePhone(areaCode, account, 'account');
  return { channel: 'mobile', target: p.target, areaCode: p.areaCode, mobile: p.mobile, email: null };
}

function checkNewPassword(password: string | undefined, rePassword: string | undefined, field = 'password') {
  if (!password) throw invalid('validation.passwordRequired', field);
  if (password.length < PASSWORD_MIN)
    throw invalid('validation.passwordTooShort', field, { min: PASSWORD_MIN });
  if (password.length > PASSWORD_MAX)
    throw invalid('validation.passwordTooLong', field, { max: PASSWORD_MAX });
  if (!rePassword) throw invalid('validation.rePasswordRequired', 're_password');
  if (password !== rePassword)
    throw new AppError('PASSWORDS_INCONSISTENT', 'validation.passwordsInconsistent', {}, 're_password');
}

function toCenter(u: UserRow): UserCenter {
  return {
    id: u.id,
    nickname: u.nickname,
    account: accountOf(u),
    area_code: u.area_code,
    mobile: u.mobile,
    email: u.email,
    lang: u.lang,
    invite_code: u.invite_code,
    verification: u.verification,
    advanced_verification: u.advanced_verification,
    has_fund_password: u.fund_password_hash !== null,
    created_at: u.created_at.toISOString(),
  };
}

/** Invite codes: 8 characters without look-alikes (0/O, 1/I/L). */
const INVITE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
function newInviteCode(): string {
  const bytes = randomBytes(8);
  return Array.from(bytes, (b) => INVITE_ALPHABET[b % INVITE_ALPHABET.length]).join('');
}

export function userService(ctx: AppContext) {
  const { db, config } = ctx;
  const codes = codesService(ctx);
  const fundLimits = {
    maxFailures: config.fundPasswordMaxFailures,
    lockMinutes: config.fundPasswordLockMinutes,
  };

  async function byId(q: Queryable, id: number, lock = false): Promise<UserRow> {
    const [u] = await q.query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    if (!u) throw new AppError('NOT_FOUND', 'errors.notFound');
    return u;
  }

  async function byContact(q: Queryable, c: Contact): Promise<UserRow | undefined> {
    const [u] =
      c.channel === 'email'
        ? await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [c.email])
        : await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE area_code = $1 AND mobile = $2`, [
            c.areaCode,
            c.mobile,
          ]);
    return u;
  }

  async function loginResult(q: Queryable, u: UserRow, req: FastifyRequest) {
    const token = await createSession(q, u.id, req);
    await q.query('UPDATE users SET last_login_at = now(), last_login_ip = $2 WHERE id = $1', [u.id, req.ip]);
    return { token, user: toCenter(u) };
  }

  /** The target a logged-in user's own code goes to, on the channel they chose. */
  function ownTarget(u: UserRow, channel: Channel): string {
    const target = codeTarget(u, channel);
    if (target) return target;
    throw channel === 'email'
      ? invalid('validation.emailRequired', 'email')
      : invalid('validation.mobileRequired', 'mobile');
  }

  return {
    /** sms_send / sms_mail: who may receive a code depends on what it is for. */
    async sendCode(
      channel: Channel,
      body: { area_code?: string; mobile?: string; email?: string; type?: string },
      purpose: CodePurpose,
      session: SessionUser | null,
      lang: Lang,
    ) {
      let target: string;
      if (purpose === 'fund_password' || purpose === 'address') {
        // codes that guard the user's own money go only to the user's own contact
        if (!session) throw new AppError('NOT_LOGGED_IN', 'errors.notLoggedIn');
        target = ownTarget(await byId(db, session.id), channel);
      } else {
        const c =
          channel === 'email'
            ? parseContact('email', undefined, body.email)
            : { ...parseContact('mobile', body.area_code, body.mobile) };
        const owner = await byContact(db, c);
        if (purpose === 'register' && owner)
          throw new AppError('ACCOUNT_EXISTS', `account.${channel}Exists`, {}, channel);
        if (purpose === 'forget' && !owner)
          throw new AppError('ACCOUNT_NOT_FOUND', 'account.notFound', {}, channel);
        if (purpose === 'bind') {
          if (!session) throw new AppError('NOT_LOGGED_IN', 'errors.notLoggedIn');
          if (owner) throw new AppError('ACCOUNT_EXISTS', `account.${channel}Exists`, {}, channel);
        }
        target = c.target;
      }
      return codes.send({ channel, target, purpose }, lang);
    },

    async register(body: RegisterBody, req: FastifyRequest) {
      const type = parseType(body.type);
      const c = parseContact(type, body.area_code, body.account);
      const to: CodeTarget = { channel: c.channel, target: c.target, purpose: 'register' };
      if (!(body.code ?? '').trim()) throw invalid('validation.codeRequired', 'code');
      checkNewPassword(body.password, body.re_password);
      if (!['1', 'true', 'on', 'yes'].includes((body.agree ?? '').toLowerCase())) {
        throw new AppError('AGREEMENT_REQUIRED', 'validation.agreementRequired', {}, 'agree');
      }
      const inviteCode = (body.invite_code ?? '').trim().toUpperCase();
      let invitedBy: number | null = null;
      if (inviteCode) {
        const [inviter] = await db.query<{ id: number }>('SELECT id FROM users WHERE invite_code = $1', [
          inviteCode,
        ]);
        if (!inviter)
          throw new AppError('INVITE_CODE_INVALID', 'validation.inviteCodeInvalid', {}, 'invite_code');
        invitedBy = inviter.id;
      }
      if (await byContact(db, c))
        throw new AppError('ACCOUNT_EXISTS', `account.${c.channel}Exists`, {}, 'account');
      const codeId = await codes.check(to, body.code);
      const passwordHash = await hashPassword(body.password!);
      const lang = req.lang;
      try {
        return await db.tx(async (q) => {
          await codes.consume(q, codeId);
          const nickname = c.email
            ? c.email.split('@')[0]!.slice(0, 20)
            : `${c.mobile!.slice(0, 3)}****${c.mobile!.slice(-4)}`;
          const [row] = await q.query<{ id: number }>(
            `INSERT INTO users (nickname, account_type, area_code, mobile, email, password_hash, lang, invite_code, invited_by)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
            [nickname, type, c.areaCode, c.mobile, c.email, passwordHash, lang, newInviteCode(), invitedBy],
          );
          return loginResult(q, await byId(q, row!.id), req);
        });
      } catch (e) {
        // two registrations of one contact at once: the unique index lets exactly one through
        if (isUniqueViolation(e))
          throw new AppError('ACCOUNT_EXISTS', `account.${c.channel}Exists`, {}, 'account');
        throw e;
      }
    },

    async login(body: LoginBody, req: FastifyRequest) {
      const account = (body.account ?? '').trim();
      if (!account) throw invalid('validation.accountRequired', 'account');
      if (!body.password) throw invalid('validation.passwordRequired', 'password');
      let user: UserRow | undefined;
      if (account.includes('@')) {
        user = await byContact(db, parseContact('email', undefined, account));
      } else if (body.area_code) {
        user = await byContact(db, parseContact('mobile', body.area_code, account));
      } else {
        // a phone number without a dialling code: accept it when exactly one account has it
        const digits = account.replace(/\D/g, '').replace(/^0+/, '');
        const rows = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE mobile = $1`, [digits]);
        user = rows.length === 1 ? rows[0] : undefined;
      }
      const good = await verifyPasswordOrDummy(user?.password_hash, body.password);
      if (!user || !good) throw new AppError('WRONG_PASSWORD', 'account.wrongPassword', {}, 'password');
      if (user.status !== 'active') throw new AppError('ACCOUNT_DISABLED', 'account.disabled');
      return db.tx((q) => loginResult(q, user, req));
    },

    async logout(session: SessionUser) {
      await revokeSession(db, session.tokenHash);
    },

    /** Step one (no password): checks the code. Step two: sets the password, ends every session. */
    async forget(body: ForgetBody): Promise<'checked' | 'reset'> {
      const type = parseType(body.type);
      const c = parseContact(type, body.area_code, body.account);
      const user = await byContact(db, c);
      if (!user) throw new AppError('ACCOUNT_NOT_FOUND', 'account.notFound', {}, 'account');
      const checkOnly = body.password === undefined && body.re_password === undefined;
      // the new password is checked first, so a typo in it costs none of the code's attempts
      if (!checkOnly) checkNewPassword(body.password, body.re_password);
      const codeId = await codes.check(
        { channel: c.channel, target: c.target, purpose: 'forget' },
        body.code,
      );
      if (checkOnly) return 'checked';
      const hash = await hashPassword(body.password!);
      await db.tx(async (q) => {
        await codes.consume(q, codeId);
        await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [user.id, hash]);
        await revokeAllSessions(q, user.id);
      });
      return 'reset';
    },

    async changePassword(userId: number, body: ChangePasswordBody) {
      if (!body.old_password) throw invalid('validation.oldPasswordRequired', 'old_password');
      checkNewPassword(body.password, body.re_password);
      const user = await byId(db, userId);
      if (!(await verifyPassword(user.password_hash, body.old_password))) {
        throw new AppError('WRONG_PASSWORD', 'account.oldPasswordWrong', {}, 'old_password');
      }
      if (body.password === body.old_password) throw invalid('validation.samePassword', 'password');
      const hash = await hashPassword(body.password!);
      await db.tx(async (q) => {
        await q.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
        // every device signs in again with the new password, this one included
        await revokeAllSessions(q, userId);
      });
    },

    async setFundPassword(userId: number, body: FundPasswordBody) {
      const pwd = parseFundPassword(body.password, 'password');
      if (!body.re_password) throw invalid('validation.rePasswordRequired', 're_password');
      if (pwd !== body.re_password)
        throw new AppError('PASSWORDS_INCONSISTENT', 'validation.passwordsInconsistent', {}, 're_password');
      const user = await byId(db, userId);
      let codeId: string | null = null;
      if (user.fund_password_hash) {
        if (body.code) {
          const channel = codeChannel(body.code_type, !!user.email);
          codeId = await codes.check(
            { channel, target: ownTarget(user, channel), purpose: 'fund_password' },
            body.code,
          );
        } else if (body.old_password) {
          await this.verifyFundPassword(userId, body.old_password, 'old_password');
        } else {
          throw invalid('validation.oldFundPasswordRequired', 'old_password');
        }
      }
      const hash = await hashPassword(pwd);
      await db.tx(async (q) => {
        if (codeId) await codes.consume(q, codeId);
        await q.query(
          `UPDATE users SET fund_password_hash = $2, fund_password_failures = 0, fund_password_locked_until = NULL
            WHERE id = $1`,
          [userId, hash],
        );
      });
    },

    /**
     * Checks the fund password before money moves. After `fundPasswordMaxFailures` wrong ones
     * it is locked for `fundPasswordLockMinutes`. The attempt is counted, and the lock decided,
     * in one statement before the password is compared: parallel guesses queue on the row, so
     * no more than the allowed number are ever compared. Only a right password resets the count.
     */
    async verifyFundPassword(
      userId: number,
      input: string | undefined,
      field = 'fund_password',
    ): Promise<void> {
      return oneAtATime(db, userId, () =>
        checkFundPassword(db, fundLimits, userId, input, field, (id) => byId(db, id)),
      );
    },

    async hasFundPassword(userId: number): Promise<boolean> {
      return (await byId(db, userId)).fund_password_hash !== null;
    },

    async checkMobile(areaCode: string | undefined, mobile: string | undefined): Promise<boolean> {
      return (await byContact(db, parseContact('mobile', areaCode, mobile))) !== undefined;
    },

    async checkEmail(email: string | undefined): Promise<boolean> {
      return (await byContact(db, parseContact('email', undefined, email))) !== undefined;
    },

    async center(userId: number): Promise<UserCenter> {
      return toCenter(await byId(db, userId));
    },

    async center2(userId: number): Promise<Center2> {
      const u = await byId(db, userId);
      const [s] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM sessions
          WHERE user_id = $1 AND revoked_at IS NULL
            AND last_seen_at > now() - make_interval(secs => $2)
            AND created_at > now() - make_interval(secs => $3)`,
        [userId, config.sessionIdleSeconds, config.sessionMaxSeconds],
      );
      return {
        mobile_bound: u.mobile !== null,
        email_bound: u.email !== null,
        has_fund_password: u.fund_password_hash !== null,
        verification: u.verification,
        advanced_verification: u.advanced_verification,
        last_login_at: u.last_login_at?.toISOString() ?? null,
        last_login_ip: u.last_login_ip,
        active_sessions: s?.n ?? 0,
      };
    },

    async setNickname(userId: number, input: string | undefined): Promise<UserCenter> {
      const nickname = (input ?? '').trim();
      const length = [...nickname].length;
      if (length < NICKNAME_MIN || length > NICKNAME_MAX || /[\p{Cc}<>]/u.test(nickname)) {
        throw invalid('validation.nicknameInvalid', 'nickname');
      }
      await db.query('UPDATE users SET nickname = $2 WHERE id = $1', [userId, nickname]);
      return this.center(userId);
    },

    async setLang(userId: number | null, input: string | undefined): Promise<Lang> {
      if (!isLang(input)) throw invalid('validation.langInvalid', 'lang');
      if (userId !== null) await db.query('UPDATE users SET lang = $2 WHERE id = $1', [userId, input]);
      return input;
    },

    /** set/sms_other_mail: adds the contact the user did not register with (e-mail or phone). */
    async bindContact(
      userId: number,
      body: { type?: string; area_code?: string; account?: string; code?: string },
    ) {
      const type = parseType(body.type);
      const c = parseContact(type, body.area_code, body.account);
      const user = await byId(db, userId);
      if (type === 'email' ? user.email : user.mobile)
        throw new AppError('CONFLICT', 'account.alreadyBound', {}, 'type');
      if (await byContact(db, c))
        throw new AppError('ACCOUNT_EXISTS', `account.${c.channel}Exists`, {}, 'account');
      const codeId = await codes.check({ channel: c.channel, target: c.target, purpose: 'bind' }, body.code);
      try {
        await db.tx(async (q) => {
          await codes.consume(q, codeId);
          await q.query(
            'UPDATE users SET area_code = COALESCE($2, area_code), mobile = COALESCE($3, mobile), email = COALESCE($4, email) WHERE id = $1',
            [userId, c.areaCode, c.mobile, c.email],
          );
        });
      } catch (e) {
        if (isUniqueViolation(e))
          throw new AppError('ACCOUNT_EXISTS', `account.${c.channel}Exists`, {}, 'account');
        throw e;
      }
      return this.center(userId);
    },
  };
}
export type UserService = ReturnType<typeof userService>;

// What other modules may use of this one: the users table's functions and the dialling codes.
export { areaCodes } from './contacts.ts';
export {
  type FreezeTarget,
  setFrozen,
  type UserControls,
  type UserProfile,
  userControls,
  userCounts,
  userProfile,
  withdrawFrozen,
} from './controls.ts';
export {
  accountOf,
  ensureSystemUser,
  lockUser,
  searchUsers,
  setVerificationState,
  type UserListRow,
  userAccounts,
  userExists,
  type VerificationStates,
  verificationStates,
} from './users.ts';
