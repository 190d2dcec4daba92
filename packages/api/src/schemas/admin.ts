import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { OPERATOR_ROLES, OPERATOR_SESSION_STAGES, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX } from '../constants.ts';
import { Literals, Str } from './common.ts';

const NullableString = (description?: string) =>
  Type.Union([Type.String(description ? { description } : {}), Type.Null()]);

export const AdminLoginBody = Type.Object({
  username: Str('Operator username', { maxLength: 64 }),
  password: Str('Operator password', { maxLength: 200 }),
});
export type AdminLoginBody = Static<typeof AdminLoginBody>;

export const Operator = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  role: Literals(OPERATOR_ROLES),
  created_at: Type.String({ format: 'date-time' }),
});
export type Operator = Static<typeof Operator>;

export const AdminLoginResult = Type.Object({
  token: Type.String({ description: 'Send it as the Authorization header on /api/admin/*' }),
  operator: Operator,
  stage: Literals(OPERATOR_SESSION_STAGES, {
    description: 'The step left before the session is ready: password, totp_setup or totp',
  }),
});
export type AdminLoginResult = Static<typeof AdminLoginResult>;

/** A page of a list: items, how many match in all, and which page this is. */
export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    total: Type.Integer(),
    page: Type.Integer({ description: 'From 1' }),
    limit: Type.Integer(),
  });

const PageFields = {
  page: Str('Page number from 1 (default 1)', { maxLength: 9 }),
  limit: Str(`Rows per page, 1 to ${PAGE_LIMIT_MAX} (default ${PAGE_LIMIT_DEFAULT})`, { maxLength: 9 }),
};

export const AdminUsersQuery = Type.Object({
  q: Str('Search: part of an e-mail address, phone number or nickname, an invite code, or a user id', {
    maxLength: 100,
  }),
  ...PageFields,
});
export type AdminUsersQuery = Static<typeof AdminUsersQuery>;

export const AdminUser = Type.Object({
  id: Type.Integer(),
  nickname: Type.String(),
  account: Type.String(),
  area_code: NullableString(),
  mobile: NullableString(),
  email: NullableString(),
  verification: Type.String(),
  advanced_verification: Type.String(),
  status: Type.String({ description: "active, or disabled: the operators froze the user's login" }),
  withdraw_frozen: Type.Boolean({ description: "The operators froze the user's withdrawals" }),
  invite_code: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_login_at: NullableString(),
});
export type AdminUser = Static<typeof AdminUser>;

export const AdminUserIdQuery = Type.Object({ user_id: Str('User id; required', { maxLength: 12 }) });

export const AdminBalance = Type.Object({
  type: Type.String({ description: 'spot, option, contract or trust' }),
  currency_id: Type.Integer(),
  symbol: Type.String(),
  available: Type.String({ description: 'Decimal string' }),
  frozen: Type.String({ description: 'Decimal string' }),
  total: Type.String({ description: 'available + frozen' }),
});
export type AdminBalance = Static<typeof AdminBalance>;

export const AdminLedgerQuery = Type.Object({
  user_id: Str('User id; required', { maxLength: 12 }),
  ...PageFields,
});

export const AdminLedgerEntry = Type.Object({
  id: Type.String(),
  journal_id: Type.String(),
  account_type: Type.String(),
  currency_id: Type.Integer(),
  symbol: Type.String(),
  delta_available: Type.String(),
  delta_frozen: Type.String(),
  available_after: Type.String(),
  frozen_after: Type.String(),
  reason: Type.String({ description: "The journal's reason, e.g. deposit, withdraw_freeze, transfer" }),
  ref_type: NullableString(),
  ref_id: NullableString(),
  operator_id: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});
export type AdminLedgerEntry = Static<typeof AdminLedgerEntry>;

export const AdminStatusQuery = Type.Object({
  status: Str('pending (default), approved, rejected or all', { maxLength: 20 }),
  ...PageFields,
});
export type AdminStatusQuery = Static<typeof AdminStatusQuery>;

export const AdminVerificationsQuery = Type.Object({
  status: Str('pending (default), verified, rejected or all', { maxLength: 20 }),
  level: Str('basic or advanced (default both)', { maxLength: 20 }),
  ...PageFields,
});
export type AdminVerificationsQuery = Static<typeof AdminVerificationsQuery>;

export const AdminIdBody = Type.Object({
  id: Str('Id of the request to review; required', { maxLength: 20 }),
});
export type AdminIdBody = Static<typeof AdminIdBody>;

export const AdminRejectBody = Type.Object({
  id: Str('Id of the request to review; required', { maxLength: 20 }),
  reason: Str('Why it is rejected, shown to the user; required, at most 200 characters', {
    maxLength: 400,
  }),
});
export type AdminRejectBody = Static<typeof AdminRejectBody>;

export const AdminApproveWithdrawalBody = Type.Object({
  id: Str('Id of the withdrawal; required', { maxLength: 20 }),
  tx_ref: Str('Reference of the payout (transaction hash or bank reference); required', { maxLength: 200 }),
});
export type AdminApproveWithdrawalBody = Static<typeof AdminApproveWithdrawalBody>;

/** Who a reviewed request belongs to, beside the row itself. */
const UserRef = {
  user_account: Type.String({ description: "The user's phone number or e-mail" }),
};

const Common = {
  id: Type.Integer(),
  user_id: Type.Integer(),
  ...UserRef,
  currency_id: Type.Integer(),
  symbol: Type.String(),
  chain: NullableString('Null for bank transfers'),
  address: NullableString("Deposit: the user's deposit address; withdrawal: where it goes. Null for bank"),
  amount: Type.String({ description: 'Decimal string' }),
  status: Type.String({ description: 'pending, approved or rejected' }),
  reject_reason: NullableString(),
  reviewed_by: Type.Union([Type.Integer(), Type.Null()], { description: 'Operator id' }),
  reviewed_at: NullableString(),
  created_at: Type.String({ format: 'date-time' }),
};

export const AdminDeposit = Type.Object({
  ...Common,
  image: Type.String({ description: 'Proof picture for operators: GET /api/admin/upload/:name' }),
});
export type AdminDeposit = Static<typeof AdminDeposit>;

export const AdminWithdrawal = Type.Object({
  ...Common,
  fee: Type.String({ description: 'Decimal string; amount + fee is frozen while pending' }),
  remark: NullableString(),
  bank_card_id: Type.Union([Type.Integer(), Type.Null()]),
  bank_snapshot: Type.Unknown({ description: 'Bank withdrawals: the card details as they were; else null' }),
  tx_ref: NullableString('Payout reference, set on approval'),
});
export type AdminWithdrawal = Static<typeof AdminWithdrawal>;

export const AdminVerification = Type.Object({
  id: Type.Integer(),
  user_id: Type.Integer(),
  ...UserRef,
  level: Type.String({ description: 'basic or advanced' }),
  status: Type.String({ description: 'pending, verified or rejected' }),
  country: Type.String(),
  country_name: Type.String(),
  name: Type.String(),
  id_number: Type.String(),
  address: Type.String(),
  front: NullableString('Photo path for operators: GET /api/admin/upload/:name'),
  back: NullableString(),
  holding: NullableString(),
  reject_reason: NullableString(),
  reviewed_by: Type.Union([Type.Integer(), Type.Null()]),
  reviewed_at: NullableString(),
  created_at: Type.String({ format: 'date-time' }),
});
export type AdminVerification = Static<typeof AdminVerification>;

export const AdminAuditQuery = Type.Object({
  operator_id: Str('Only this operator', { maxLength: 12 }),
  action: Str('Only this action, e.g. deposit.approve', { maxLength: 64 }),
  target_type: Str('Only this kind of target: deposit, withdrawal, verification, operator', {
    maxLength: 64,
  }),
  target_id: Str('Only this target id (with target_type)', { maxLength: 20 }),
  from: Str('Only entries at or after this time (ISO 8601)', { maxLength: 40 }),
  to: Str('Only entries at or before this time (ISO 8601)', { maxLength: 40 }),
  ...PageFields,
});
export type AdminAuditQuery = Static<typeof AdminAuditQuery>;

export const AuditEntry = Type.Object({
  id: Type.String(),
  operator_id: Type.Union([Type.Integer(), Type.Null()]),
  operator_username: NullableString('Null when done from the command line'),
  action: Type.String(),
  target_type: NullableString(),
  target_id: NullableString(),
  before: Type.Unknown({ description: 'The row before the action (null when it did not exist)' }),
  after: Type.Unknown({ description: 'The row after the action' }),
  ip: NullableString(),
  created_at: Type.String({ format: 'date-time' }),
});
export type AuditEntry = Static<typeof AuditEntry>;
