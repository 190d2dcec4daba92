import {
  ID_ADDRESS_MAX,
  ID_NAME_MAX,
  ID_NAME_MIN,
  ID_NUMBER_MAX,
  ID_NUMBER_MIN,
  type Lang,
  type RealName2Body,
  type RealNameBody,
  type SubmissionState,
  type VerificationLevel,
  type VerificationState,
  type VerificationStatus,
  type VerificationSubmission,
} from '@verdant/api';
import { type CountryCode, getCountries } from 'libphonenumber-js/max';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { intlLocale } from '../../i18n/index.ts';
import { writeMessage } from '../news/service.ts';
import { uploadsService } from '../uploads/service.ts';
import { setVerificationState, type VerificationStates, verificationStates } from '../user/service.ts';

const COUNTRIES = new Set<string>(getCountries() as CountryCode[]);
// letters of any script with their marks, spaces and the punctuation names carry (O'Neil, Jean-Luc, 艾·买)
const NAME_RE = /^[\p{L}\p{M}][\p{L}\p{M} .'’,·-]*$/u;
const ID_RE = new RegExp(`^[A-Z0-9-]{${ID_NUMBER_MIN},${ID_NUMBER_MAX}}$`);
const ADDRESS_RE = /^[^\p{Cc}<>]*$/u;

export interface VerificationRow {
  id: number;
  user_id: number;
  level: VerificationLevel;
  country: string;
  name: string;
  id_number: string;
  address: string;
  front: string | null;
  back: string | null;
  holding: string | null;
  status: SubmissionState;
  reject_reason: string | null;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  created_at: Date;
}

export const VERIFICATION_COLUMNS = `id, user_id, level, country, name, id_number, address, front, back, holding,
  status, reject_reason, reviewed_by, reviewed_at, created_at`;

/** The country's name in the language asked for, or the code when Intl does not know it. */
export function countryName(code: string, lang: Lang): string {
  try {
    return new Intl.DisplayNames([intlLocale(lang)], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A submission as its owner sees it (operators see the same with who it belongs to). */
export function toSubmission(r: VerificationRow, lang: Lang): VerificationSubmission {
  return {
    id: r.id,
    level: r.level,
    status: r.status,
    country: r.country,
    country_name: countryName(r.country, lang),
    name: r.name,
    id_number: r.id_number,
    address: r.address,
    reject_reason: r.reject_reason,
    created_at: r.created_at.toISOString(),
    reviewed_at: r.reviewed_at?.toISOString() ?? null,
    front: r.front,
    back: r.back,
    holding: r.holding,
  };
}

/** Basic verification's fields, checked in the order of the form and normalised. */
export function parseRealName(body: RealNameBody) {
  const country = (body.country ?? '').trim().toUpperCase();
  if (!country) throw invalid('kyc.countryRequired', 'country');
  if (!COUNTRIES.has(country)) throw invalid('kyc.countryInvalid', 'country');
  const name = (body.name ?? '').trim().replace(/\s+/g, ' ');
  if (!name) throw invalid('kyc.nameRequired', 'name');
  const len = [...name].length;
  if (len < ID_NAME_MIN || len > ID_NAME_MAX || !NAME_RE.test(name)) throw invalid('kyc.nameInvalid', 'name');
  const idNumber = (body.id_number ?? '').replace(/\s+/g, '').toUpperCase();
  if (!idNumber) throw invalid('kyc.idNumberRequired', 'id_number');
  if (!ID_RE.test(idNumber) || !/[A-Z0-9]/.test(idNumber)) throw invalid('kyc.idNumberInvalid', 'id_number');
  const address = (body.address ?? '').trim().replace(/\s+/g, ' ');
  if ([...address].length > ID_ADDRESS_MAX)
    throw invalid('kyc.addressTooLong', 'address', { max: ID_ADDRESS_MAX });
  if (!ADDRESS_RE.test(address)) throw invalid('kyc.addressInvalid', 'address');
  return { country, name, idNumber, address };
}

function canSubmit(state: VerificationState): boolean {
  return state === 'none' || state === 'rejected';
}

/** Why a user may not submit again at this level. */
function alreadySubmitted(state: VerificationState): AppError {
  return state === 'pending'
    ? new AppError('CONFLICT', 'kyc.underReview')
    : new AppError('CONFLICT', 'kyc.alreadyVerified');
}

/** The user's latest submission of a level. */
async function latest(
  q: Queryable,
  userId: number,
  level: VerificationLevel,
): Promise<VerificationRow | null> {
  const [row] = await q.query<VerificationRow>(
    `SELECT ${VERIFICATION_COLUMNS} FROM verifications WHERE user_id = $1 AND level = $2 ORDER BY id DESC LIMIT 1`,
    [userId, level],
  );
  return row ?? null;
}

/** The user's states, their row locked for this transaction (submissions and reviews take it first). */
async function lockUser(q: Queryable, userId: number): Promise<VerificationStates> {
  const u = await verificationStates(q, userId, { lock: true });
  if (!u) throw new AppError('NOT_FOUND', 'errors.notFound');
  return u;
}

/**
 * An operator's decision on a pending submission, inside the caller's transaction: the row
 * becomes verified or rejected (with the reason), and the user's state follows. Answers the
 * row before and after, for the audit log. A submission already decided is refused.
 */
export async function reviewVerification(
  q: Queryable,
  id: number,
  operatorId: number,
  decision: 'verified' | 'rejected',
  reason: string | null,
): Promise<{
  before: VerificationRow;
  after: VerificationRow;
  user: { before: VerificationStates; after: VerificationStates };
}> {
  const [owner] = await q.query<{ user_id: number }>('SELECT user_id FROM verifications WHERE id = $1', [id]);
  if (!owner) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
  // the user first, then the submission: the order submissions take too
  const userBefore = await lockUser(q, owner.user_id);
  const [before] = await q.query<VerificationRow>(
    `SELECT ${VERIFICATION_COLUMNS} FROM verifications WHERE id = $1 FOR UPDATE`,
    [id],
  );
  if (before?.status !== 'pending') throw new AppError('ALREADY_REVIEWED', 'admin.alreadyReviewed', {}, 'id');
  const [after] = await q.query<VerificationRow>(
    `UPDATE verifications SET status = $2, reject_reason = $3, reviewed_by = $4, reviewed_at = now()
      WHERE id = $1 AND status = 'pending' RETURNING ${VERIFICATION_COLUMNS}`,
    [id, decision, decision === 'rejected' ? reason : null, operatorId],
  );
  // decided once: the UPDATE itself requires the pending state (the row lock guards it too)
  if (!after) throw new AppError('ALREADY_REVIEWED', 'admin.alreadyReviewed', {}, 'id');
  const userAfter = await setVerificationState(q, before.user_id, before.level, decision);
  await writeMessage(
    q,
    before.user_id,
    decision === 'verified' ? 'verification_passed' : 'verification_rejected',
    {
      level: before.level,
      reason: reason ?? '',
    },
  );
  return { before: before!, after: after!, user: { before: userBefore, after: userAfter } };
}

export function kycService(ctx: AppContext) {
  const { db } = ctx;
  const uploads = uploadsService(ctx);

  return {
    /** user/real_name: basic verification, allowed when not verified yet or after a rejection. */
    async submitBasic(userId: number, body: RealNameBody): Promise<void> {
      const v = parseRealName(body);
      try {
        await db.tx(async (q) => {
          const u = await lockUser(q, userId);
          if (!canSubmit(u.verification)) throw alreadySubmitted(u.verification);
          // one identity, one account: an ID under review or verified for another user is refused
          const [taken] = await q.query(
            `SELECT 1 FROM verifications
              WHERE level = 'basic' AND country = $1 AND id_number = $2 AND user_id <> $3
                AND status IN ('pending', 'verified') LIMIT 1`,
            [v.country, v.idNumber, userId],
          );
          if (taken) throw new AppError('CONFLICT', 'kyc.idNumberUsed', {}, 'id_number');
          await q.query(
            `INSERT INTO verifications (user_id, level, country, name, id_number, address)
             VALUES ($1, 'basic', $2, $3, $4, $5)`,
            [userId, v.country, v.name, v.idNumber, v.address],
          );
          await setVerificationState(q, userId, 'basic', 'pending');
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'kyc.underReview');
        throw e;
      }
    },

    /** user/real_name2: three private photos, once basic verification has passed. */
    async submitAdvanced(userId: number, body: RealName2Body): Promise<void> {
      const u = await verificationStates(db, userId);
      if (u?.verification !== 'verified')
        throw new AppError('BASIC_VERIFICATION_REQUIRED', 'kyc.basicRequired');
      if (!canSubmit(u.advanced_verification)) throw alreadySubmitted(u.advanced_verification);
      const names: Record<'front' | 'back' | 'holding', string> = { front: '', back: '', holding: '' };
      for (const field of ['front', 'back', 'holding'] as const) {
        const name = (body[field] ?? '').trim();
        if (!name) throw invalid(`kyc.${field}Required`, field);
        // someone else's upload (or none at all) is refused like a missing picture
        names[field] = await uploads.assertOwned(userId, name, field);
      }
      if (new Set(Object.values(names)).size !== 3) throw invalid('kyc.photosDistinct', 'holding');
      try {
        await db.tx(async (q) => {
          const now = await lockUser(q, userId);
          if (now.verification !== 'verified')
            throw new AppError('BASIC_VERIFICATION_REQUIRED', 'kyc.basicRequired');
          if (!canSubmit(now.advanced_verification)) throw alreadySubmitted(now.advanced_verification);
          const basic = await latest(q, userId, 'basic');
          if (basic?.status !== 'verified')
            throw new AppError('BASIC_VERIFICATION_REQUIRED', 'kyc.basicRequired');
          // the identity the photos must show, beside them for the reviewer
          await q.query(
            `INSERT INTO verifications (user_id, level, country, name, id_number, address, front, back, holding)
             VALUES ($1, 'advanced', $2, $3, $4, $5, $6, $7, $8)`,
            [
              userId,
              basic.country,
              basic.name,
              basic.id_number,
              basic.address,
              names.front,
              names.back,
              names.holding,
            ],
          );
          await setVerificationState(q, userId, 'advanced', 'pending');
        });
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'kyc.underReview');
        throw e;
      }
    },

    /** GET user/real_name_status: both states, the latest submission of each, reject reasons. */
    async status(userId: number, lang: Lang): Promise<VerificationStatus> {
      const u = await verificationStates(db, userId);
      if (!u) throw new AppError('NOT_FOUND', 'errors.notFound');
      const basic = await latest(db, userId, 'basic');
      const advanced = await latest(db, userId, 'advanced');
      return {
        verification: u.verification,
        advanced_verification: u.advanced_verification,
        can_submit_basic: canSubmit(u.verification),
        can_submit_advanced: u.verification === 'verified' && canSubmit(u.advanced_verification),
        basic: basic ? toSubmission(basic, lang) : null,
        advanced: advanced ? toSubmission(advanced, lang) : null,
      };
    },
  };
}
export type KycService = ReturnType<typeof kycService>;
