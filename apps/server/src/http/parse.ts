import { type AccountType, FUND_PASSWORD_LENGTH, REASON_MAX, TX_REF_MAX } from '@verdant/api';
import { invalid } from './errors.ts';

/**
 * Input parsing shared by the services: each rule and each limit is written here once, so two
 * modules cannot disagree about the same field (the rejection reason was 200 characters in admin
 * and 500 in wallet). A service parses at its boundary and passes the result on.
 */

/** A fund password is FUND_PASSWORD_LENGTH digits. */
export const FUND_PASSWORD_RE = new RegExp(`^\\d{${FUND_PASSWORD_LENGTH}}$`);

/** The message keys a caller answers with: each area keeps its own wording. */
export interface TextKeys {
  required: string;
  tooLong: string;
}

/** Required one-line text of at most `max` characters (code points, as people count them). */
function requiredText(input: string | undefined, field: string, max: number, keys: TextKeys): string {
  const s = (input ?? '').trim();
  if (!s) throw invalid(keys.required, field);
  if ([...s].length > max) throw invalid(keys.tooLong, field, { max });
  return s;
}

/** An operator's reason for a rejection: required, runs of spaces folded, at most REASON_MAX. */
export const parseReason = (input: string | undefined, keys: TextKeys): string =>
  requiredText(input?.replace(/\s+/g, ' '), 'reason', REASON_MAX, keys);

/** The reference of a payout made outside the exchange: required, at most TX_REF_MAX. */
export const parseTxRef = (input: string | undefined, keys: TextKeys): string =>
  requiredText(input, 'tx_ref', TX_REF_MAX, keys);

/** A new or confirming fund password: required, six digits. */
export function parseFundPassword(input: string | undefined, field: string): string {
  const s = input ?? '';
  if (!s) throw invalid('validation.fundPasswordRequired', field);
  if (!FUND_PASSWORD_RE.test(s)) throw invalid('validation.fundPasswordFormat', field);
  return s;
}

/** A user's contacts, as the users table holds them. */
export interface Contacts {
  email: string | null;
  area_code: string | null;
  mobile: string | null;
}

/** A phone number as codes are addressed to it and shown: "+66 812345678". */
export const phoneTarget = (areaCode: string | null, mobile: string | null): string =>
  `+${areaCode} ${mobile}`;

/** The channel a logged-in user's code goes to: the one asked for, else e-mail when they have one. */
export function codeChannel(asked: string | undefined, hasEmail: boolean): AccountType {
  const s = (asked ?? '').trim();
  if (s === 'email' || s === 'mobile') return s;
  return hasEmail ? 'email' : 'mobile';
}

/** Where a code on `channel` goes for this user, or null when they have no such contact. */
export function codeTarget(u: Contacts, channel: AccountType): string | null {
  if (channel === 'email') return u.email;
  return u.mobile ? phoneTarget(u.area_code, u.mobile) : null;
}
