// The referral programme (spec: pages/promotion/index, calls user/invite*, user/my_*). A referrer
// earns a rebate on the trading fees its referees pay, credited when the fee is charged. Rules:
// docs/decisions.md ("Referral programme").
import { type Static, Type } from '@sinclair/typebox';
import { Literals, Str } from './common.ts';

export const ReferralPaths = {
  /** GET: the invitation code, link, counts, earnings, rate and exclusive status. */
  invite: 'user/invite',
  /** GET: what a share carries: code, link, a line of text in the user's language. */
  myShare: 'user/my_share',
  /** GET: the poster, an SVG picture (not in the envelope) with the link as a QR code. */
  myPoster: 'user/my_poster',
  /** The top 10 promoters (spec §9). */
  inviteList: 'user/invite_list',
  /** The user's referees, newest first. */
  myInviteList: 'user/my_invite_list',
  /** The user's rebate records, newest first. */
  myAccountReturn: 'user/my_account_return',
} as const;

export const AdminReferralPaths = {
  /** GET ?user_id= one user's referral status; POST sets exclusive status and rate (admin). */
  member: 'admin/referral/member',
} as const;

/** Which fee a rebate came from. */
export const REFERRAL_REBATE_KINDS = ['spot', 'contract', 'option'] as const;
export type ReferralRebateKind = (typeof REFERRAL_REBATE_KINDS)[number];

/** How many promoters the ranking shows (spec §9). */
export const REFERRAL_RANKING_SIZE = 10;

const Dec = (description: string) => Type.String({ description: `${description} (decimal string)` });
const Iso = (description: string) => Type.String({ description: `${description}, ISO 8601` });

export const ReferralEarning = Type.Object({
  currency: Type.String(),
  currency_id: Type.Integer(),
  amount: Dec('Rebates received in this currency'),
});
export type ReferralEarning = Static<typeof ReferralEarning>;

export const ReferralInvite = Type.Object({
  invite_code: Type.String({ description: "The user's own code" }),
  link: Type.String({ description: 'Registration page with the code filled in (path under /h5/)' }),
  authorisation_code: Type.Union([Type.String(), Type.Null()], {
    description: 'The invitation code this user registered with (its referrer), null when none',
  }),
  promoted_count: Type.Integer({ description: 'Users who registered with this code' }),
  total_earnings: Dec('All rebates received, valued in USDT at the latest index prices'),
  earnings: Type.Array(ReferralEarning, { description: 'The same per currency, exact' }),
  pending_payout: Dec('Rebates earned and not yet credited, USDT: always 0, they are credited at once'),
  rate: Dec('The rebate rate applied to referees’ fees, a fraction (0.2 = 20 %)'),
  exclusive: Type.Boolean({ description: 'An operator set an exclusive rate for this user' }),
});
export type ReferralInvite = Static<typeof ReferralInvite>;

export const ReferralShare = Type.Object({
  invite_code: Type.String(),
  link: Type.String({ description: 'Path under the site, e.g. /h5/#/pages/user/login/register?invite=CODE' }),
  text: Type.String({ description: "An invitation line in the user's language" }),
});
export type ReferralShare = Static<typeof ReferralShare>;

export const ReferralRank = Type.Object({
  rank: Type.Integer({ description: 'From 1' }),
  account: Type.String({ description: 'Masked account of the promoter' }),
  rebate: Dec('Rebates received, valued in USDT'),
});
export type ReferralRank = Static<typeof ReferralRank>;

export const ReferralRanking = Type.Object({ list: Type.Array(ReferralRank) });
export type ReferralRanking = Static<typeof ReferralRanking>;

export const ReferralPageQuery = Type.Object({
  page: Str('Page, from 1', { maxLength: 9 }),
  limit: Str('Rows per page, 1 to 100 (default 20)', { maxLength: 9 }),
});
export type ReferralPageQuery = Static<typeof ReferralPageQuery>;

export const ReferralReferee = Type.Object({
  account: Type.String({ description: 'Masked account of the referee' }),
  registered_at: Iso('Registered at'),
  verified: Type.Boolean({ description: 'Basic identity verification passed' }),
  rebate: Dec('Rebates this referee’s fees earned you, valued in USDT'),
});
export type ReferralReferee = Static<typeof ReferralReferee>;

export const ReferralRefereePage = Type.Object({
  list: Type.Array(ReferralReferee),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
});
export type ReferralRefereePage = Static<typeof ReferralRefereePage>;

export const ReferralRebate = Type.Object({
  id: Type.String(),
  kind: Literals(REFERRAL_REBATE_KINDS),
  referee: Type.String({ description: 'Masked account of the referee who paid the fee' }),
  currency: Type.String(),
  fee: Dec('The fee the referee paid'),
  rate: Dec('The rate applied'),
  amount: Dec('The rebate credited (fee × rate, truncated to the currency’s places)'),
  account_type: Type.String({ description: 'Your account it was credited to: spot, contract or option' }),
  created_at: Iso('Credited at'),
});
export type ReferralRebate = Static<typeof ReferralRebate>;

export const ReferralRebatePage = Type.Object({
  list: Type.Array(ReferralRebate),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer(),
});
export type ReferralRebatePage = Static<typeof ReferralRebatePage>;

// ---- operators (console: users) ------------------------------------------------------------

export const AdminReferralMemberQuery = Type.Object({
  user_id: Str('User id; required', { maxLength: 9 }),
});
export type AdminReferralMemberQuery = Static<typeof AdminReferralMemberQuery>;

export const AdminReferralMember = Type.Object({
  user_id: Type.Integer(),
  account: Type.String({ description: 'Unmasked: operators see the account' }),
  invite_code: Type.String(),
  invited_by: Type.Union([Type.Integer(), Type.Null()], { description: "Referrer's user id" }),
  promoted_count: Type.Integer(),
  exclusive: Type.Boolean(),
  rate: Dec('The rate in force for this user (exclusive rate, else the default)'),
  default_rate: Dec('The platform default rate (REFERRAL_RATE)'),
  total_earnings: Dec('All rebates received, valued in USDT'),
  updated_at: Type.Union([Iso('Exclusive status last changed'), Type.Null()]),
});
export type AdminReferralMember = Static<typeof AdminReferralMember>;

export const AdminReferralMemberBody = Type.Object({
  user_id: Str('User id; required', { maxLength: 9 }),
  exclusive: Str('"1"/"true": exclusive with its own rate; "0"/"false": back to the default rate', {
    maxLength: 5,
  }),
  rate: Str('The exclusive rate, a fraction from 0 to 1 (0.3 = 30 %); required when exclusive', {
    maxLength: 12,
  }),
});
export type AdminReferralMemberBody = Static<typeof AdminReferralMemberBody>;
