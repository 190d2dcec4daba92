import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  type AccountType,
  CODE_LENGTH,
  CODE_PURPOSES,
  type CodePurpose,
  type Lang,
  type SendCodeResult,
} from '@verdant/api';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { AppError, invalid } from '../../http/errors.ts';

/** A code goes to a phone or an e-mail address: the kinds of contact an account has. */
export type Channel = AccountType;
const CODE_RE = new RegExp(`^\\d{${CODE_LENGTH}}$`);

export interface CodeTarget {
  channel: Channel;
  /** '+66 812345678' or a lower-cased e-mail address */
  target: string;
  purpose: CodePurpose;
}

export function parsePurpose(v: string | undefined): CodePurpose {
  if (!v || !(CODE_PURPOSES as readonly string[]).includes(v))
    throw invalid('validation.codePurposeInvalid', 'type');
  return v as CodePurpose;
}

/**
 * 6-digit verification codes: valid for 10 minutes, a few attempts each, one new code a minute
 * per target and purpose. Only a keyed hash of the code is stored.
 */
export function codesService(ctx: AppContext) {
  const { db, config } = ctx;
  const hash = (code: string) => createHmac('sha256', ctx.secret).update(code).digest('hex');

  return {
    async send(to: CodeTarget, lang: Lang): Promise<SendCodeResult> {
      const [last] = await db.query<{ age: number }>(
        `SELECT EXTRACT(EPOCH FROM now() - created_at)::float8 AS age FROM verification_codes
          WHERE channel = $1 AND target = $2 AND purpose = $3 ORDER BY created_at DESC LIMIT 1`,
        [to.channel, to.target, to.purpose],
      );
      if (last && last.age < config.codeResendSeconds) {
        throw new AppError('CODE_TOO_SOON', 'codes.tooSoon', {
          seconds: Math.max(1, Math.ceil(config.codeResendSeconds - last.age)),
        });
      }
      const code = String(randomInt(0, 10 ** CODE_LENGTH)).padStart(CODE_LENGTH, '0');
      // an older code stops working as soon as a new one is sent
      await db.tx(async (q) => {
        await q.query(
          `UPDATE verification_codes SET consumed_at = now()
            WHERE channel = $1 AND target = $2 AND purpose = $3 AND consumed_at IS NULL`,
          [to.channel, to.target, to.purpose],
        );
        await q.query(
          `INSERT INTO verification_codes (channel, target, purpose, code_hash, expires_at)
           VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
          [to.channel, to.target, to.purpose, hash(code), config.codeTtlSeconds],
        );
      });
      await ctx.notifier.sendCode({ ...to, code, lang });
      return { resend_in: config.codeResendSeconds, expires_in: config.codeTtlSeconds };
    },

    /**
     * Checks a code without using it up. The attempt is taken first, in one statement that
     * only succeeds while the newest live code has attempts left, so parallel guesses can
     * compare no more than `codeMaxAttempts` in all, and a failing request cannot roll the
     * count back (it runs outside any transaction of the caller). Every check counts, the
     * right code's too. Returns the code's id for `consume`.
     */
    async check(to: CodeTarget, input: string | undefined, field = 'code'): Promise<string> {
      const code = (input ?? '').trim();
      if (!code) throw invalid('validation.codeRequired', field);
      const newest = `SELECT id FROM verification_codes
          WHERE channel = $1 AND target = $2 AND purpose = $3 AND consumed_at IS NULL
          ORDER BY created_at DESC LIMIT 1`;
      const [taken] = await db.query<{ id: string; code_hash: string; attempts: number }>(
        `UPDATE verification_codes SET attempts = attempts + 1
          WHERE id = (${newest}) AND consumed_at IS NULL AND expires_at > now() AND attempts < $4
          RETURNING id::text, code_hash, attempts`,
        [to.channel, to.target, to.purpose, config.codeMaxAttempts],
      );
      if (!taken) {
        // no attempt left to take: say why
        const [row] = await db.query<{ expired: boolean }>(
          `SELECT expires_at <= now() AS expired FROM verification_codes WHERE id = (${newest})`,
          [to.channel, to.target, to.purpose],
        );
        if (!row) throw new AppError('CODE_INVALID', 'codes.invalid', {}, field);
        if (row.expired) throw new AppError('CODE_EXPIRED', 'codes.expired', {}, field);
        throw new AppError('CODE_ATTEMPTS', 'codes.attempts', {}, field);
      }
      const good =
        CODE_RE.test(code) && timingSafeEqual(Buffer.from(hash(code)), Buffer.from(taken.code_hash));
      if (good) return taken.id;
      if (taken.attempts >= config.codeMaxAttempts)
        throw new AppError('CODE_ATTEMPTS', 'codes.attempts', {}, field);
      throw new AppError('CODE_INVALID', 'codes.invalid', {}, field);
    },

    /** Uses the code up inside the caller's transaction; a second use (double submit) fails. */
    async consume(q: Queryable, id: string, field = 'code'): Promise<void> {
      const rows = await q.query(
        'UPDATE verification_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL RETURNING id',
        [id],
      );
      if (rows.length === 0) throw new AppError('CODE_INVALID', 'codes.invalid', {}, field);
    },
  };
}
export type CodesService = ReturnType<typeof codesService>;
