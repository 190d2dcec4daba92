import { type Static, Type } from '@sinclair/typebox';
import { OPERATOR_ROLES, OPERATOR_SESSION_STAGES } from '../constants.ts';
import { Operator } from './admin.ts';
import { Literals, Str } from './common.ts';

/** Operator sign-in steps (password change, TOTP), operator management, and queue counts. */

export const OperatorAuthState = Type.Object({
  operator: Operator,
  stage: Literals(OPERATOR_SESSION_STAGES, {
    description: 'password: must change it; totp_setup: must enrol TOTP; totp: must give a code; ready',
  }),
});
export type OperatorAuthState = Static<typeof OperatorAuthState>;

export const AdminPasswordBody = Type.Object({
  password: Str('Current password; required', { maxLength: 200 }),
  new_password: Str('New password, at least 10 characters; required', { maxLength: 200 }),
});
export type AdminPasswordBody = Static<typeof AdminPasswordBody>;

export const TotpSetup = Type.Object({
  secret: Type.String({ description: 'Base32 secret, for typing into an authenticator by hand' }),
  uri: Type.String({ description: 'otpauth:// URI, shown as a QR code' }),
});
export type TotpSetup = Static<typeof TotpSetup>;

export const TotpCodeBody = Type.Object({
  code: Str('The six-digit code of the authenticator; required', { maxLength: 12 }),
});
export type TotpCodeBody = Static<typeof TotpCodeBody>;

export const OperatorRow = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  role: Literals(OPERATOR_ROLES),
  created_at: Type.String({ format: 'date-time' }),
  disabled: Type.Boolean(),
  must_change_password: Type.Boolean(),
  totp_enabled: Type.Boolean(),
});
export type OperatorRow = Static<typeof OperatorRow>;

export const CreateOperatorBody = Type.Object({
  username: Str('3 to 32 of a-z 0-9 _ . -; required', { maxLength: 64 }),
  password: Str('First password (to be changed at first login), at least 10 characters', {
    maxLength: 200,
  }),
  role: Str('admin, reviewer or support; required', { maxLength: 20 }),
});
export type CreateOperatorBody = Static<typeof CreateOperatorBody>;

export const OperatorIdBody = Type.Object({ id: Str('Operator id; required', { maxLength: 12 }) });
export type OperatorIdBody = Static<typeof OperatorIdBody>;

export const DisableOperatorBody = Type.Object({
  id: Str('Operator id; required', { maxLength: 12 }),
  disabled: Str('1 disables (every session ends), 0 enables', { maxLength: 5 }),
});
export type DisableOperatorBody = Static<typeof DisableOperatorBody>;

export const ResetOperatorPasswordBody = Type.Object({
  id: Str('Operator id; required', { maxLength: 12 }),
  password: Str('Temporary password, to be changed at next login; at least 10 characters', {
    maxLength: 200,
  }),
});
export type ResetOperatorPasswordBody = Static<typeof ResetOperatorPasswordBody>;

export const AdminApproveDepositBody = Type.Object({
  id: Str('Id of the deposit; required', { maxLength: 20 }),
  amount: Str('The amount credited, when it differs from the declared one (what arrived); else left out', {
    maxLength: 60,
  }),
});
export type AdminApproveDepositBody = Static<typeof AdminApproveDepositBody>;

/** Waiting items per review queue, for the menu's badges. */
export const AdminQueues = Type.Object({
  kyc: Type.Integer({ description: 'Identity verifications pending' }),
  deposits: Type.Integer({ description: 'Deposits pending' }),
  withdrawals: Type.Integer({ description: 'Withdrawals pending' }),
  launchpad: Type.Integer({ description: 'New-coin subscriptions waiting for allotment' }),
});
export type AdminQueues = Static<typeof AdminQueues>;
