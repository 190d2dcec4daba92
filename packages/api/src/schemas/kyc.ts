import { type Static, Type } from '@sinclair/typebox';
import { SUBMISSION_STATES, VERIFICATION_LEVELS, VERIFICATION_STATES } from '../constants.ts';
import { Literals, Str } from './common.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(s: T) => Type.Union([s, Type.Null()]);

// ---------------------------------------------------------------- bank cards (spec §3)

/** user/cash_save: binds a new card, or updates one of the user's own cards when `id` is given. */
export const BankCardBody = Type.Object({
  id: Str('Id of one of your cards to update; leave out to bind a new card', { maxLength: 12 }),
  name: Str('Name (the account holder as you write it); required', { maxLength: 200 }),
  card_number: Str('Card or account number: 8 to 30 digits, spaces allowed; required', { maxLength: 64 }),
  bank_name: Str('Bank name; required', { maxLength: 200 }),
  branch: Str('Branch (optional)', { maxLength: 200 }),
  bank_address: Str('Bank address (optional)', { maxLength: 400 }),
  swift: Str('SWIFT/BIC code: 8 or 11 characters; required', { maxLength: 20 }),
  holder_name: Str('Cardholder full name as the bank spells it; required', { maxLength: 200 }),
  iban: Str('International bank account number (optional; checked with its checksum when given)', {
    maxLength: 64,
  }),
  beneficiary_address: Str('Beneficiary full address (optional)', { maxLength: 400 }),
  postal_code: Str('Postal code (optional)', { maxLength: 40 }),
});
export type BankCardBody = Static<typeof BankCardBody>;

export const BankCard = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  card_number: Type.String({ description: 'Full number, digits only (shown to the owner only)' }),
  card_number_masked: Type.String({ description: 'For lists: **** **** plus the last 4 digits' }),
  bank_name: Type.String(),
  branch: Type.String(),
  bank_address: Type.String(),
  swift: Type.String({ description: 'Upper case, 8 or 11 characters' }),
  holder_name: Type.String(),
  iban: Type.String({ description: 'Electronic format (no spaces); empty when not given' }),
  beneficiary_address: Type.String(),
  postal_code: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type BankCard = Static<typeof BankCard>;

export const BankCardList = Type.Array(BankCard);
export const BankCardIdBody = Type.Object({ id: Str('Id of one of your cards', { maxLength: 12 }) });

// ---------------------------------------------------------------- identity verification

/** user/real_name: basic verification. */
export const RealNameBody = Type.Object({
  country: Str('Country that issued the ID: ISO 3166-1 alpha-2 (as in area_code); required', {
    maxLength: 8,
  }),
  name: Str('Full name as on the ID, 2 to 100 characters; required', { maxLength: 200 }),
  id_number: Str('ID or passport number, 4 to 30 letters and digits; required', { maxLength: 64 }),
  address: Str('Contact address (optional, at most 200 characters)', { maxLength: 400 }),
});
export type RealNameBody = Static<typeof RealNameBody>;

/** user/real_name2: advanced verification; each field is the `name` answered by POST /api/upload. */
export const RealName2Body = Type.Object({
  front: Str('Upload name of the photo of the ID front; required', { maxLength: 64 }),
  back: Str('Upload name of the photo of the ID back; required', { maxLength: 64 }),
  holding: Str('Upload name of the photo of you holding the ID; required', { maxLength: 64 }),
});
export type RealName2Body = Static<typeof RealName2Body>;

const SubmissionStatus = Literals(SUBMISSION_STATES);
const UserVerificationState = Literals(VERIFICATION_STATES);

/** The user's latest submission of one level, as the owner sees it. */
export const VerificationSubmission = Type.Object({
  id: Type.Integer(),
  level: Literals(VERIFICATION_LEVELS),
  status: SubmissionStatus,
  country: Type.String(),
  country_name: Type.String({ description: 'Country name in the request language' }),
  name: Type.String(),
  id_number: Type.String(),
  address: Type.String(),
  reject_reason: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  reviewed_at: Nullable(Type.String({ format: 'date-time' })),
  front: Nullable(Type.String({ description: 'Upload name (advanced); fetch with GET /api/upload/:name' })),
  back: Nullable(Type.String()),
  holding: Nullable(Type.String()),
});
export type VerificationSubmission = Static<typeof VerificationSubmission>;

export const VerificationStatus = Type.Object({
  verification: UserVerificationState,
  advanced_verification: UserVerificationState,
  can_submit_basic: Type.Boolean({ description: 'none or rejected' }),
  can_submit_advanced: Type.Boolean({ description: 'basic verified, and advanced none or rejected' }),
  basic: Type.Union([VerificationSubmission, Type.Null()]),
  advanced: Type.Union([VerificationSubmission, Type.Null()]),
});
export type VerificationStatus = Static<typeof VerificationStatus>;
