import { type Static, Type } from '@sinclair/typebox';
import { CODE_PURPOSES, VERIFICATION_STATES } from '../constants.ts';
import { Literals, Str } from './common.ts';

const VerificationStateSchema = Literals(VERIFICATION_STATES);

export const AreaCode = Type.Object({
  area_code: Type.String({ description: 'Dialling code without +, e.g. 66' }),
  country: Type.String({ description: 'ISO 3166-1 alpha-2' }),
  name: Type.String({ description: 'Country name in the request language' }),
});
export type AreaCode = Static<typeof AreaCode>;

export const SmsSendBody = Type.Object({
  area_code: Str('Dialling code, e.g. 66'),
  mobile: Str('Phone number without the dialling code'),
  type: Str(`Purpose: ${CODE_PURPOSES.join(', ')}`),
});
export type SmsSendBody = Static<typeof SmsSendBody>;

export const SmsMailBody = Type.Object({
  email: Str('E-mail address'),
  type: Str(`Purpose: ${CODE_PURPOSES.join(', ')}`),
});
export type SmsMailBody = Static<typeof SmsMailBody>;

export const SendCodeResult = Type.Object({
  resend_in: Type.Integer({ description: 'Seconds before another code can be sent' }),
  expires_in: Type.Integer({ description: 'Seconds the code stays valid' }),
});
export type SendCodeResult = Static<typeof SendCodeResult>;

export const RegisterBody = Type.Object({
  type: Str('mobile or email'),
  area_code: Str('Dialling code, with type=mobile'),
  account: Str('Phone number (type=mobile) or e-mail address (type=email)'),
  code: Str('6-digit verification code'),
  password: Str('Login password, at least 6 characters'),
  re_password: Str('The same password again'),
  agree: Str('1 when the user agreement is ticked'),
  invite_code: Str('Invitation code (optional)'),
});
export type RegisterBody = Static<typeof RegisterBody>;

export const LoginBody = Type.Object({
  account: Str('Phone number or e-mail address'),
  area_code: Str('Dialling code, when account is a phone number'),
  password: Str('Login password'),
});
export type LoginBody = Static<typeof LoginBody>;

export const UserCenter = Type.Object({
  id: Type.Integer(),
  nickname: Type.String(),
  account: Type.String({ description: 'The phone number or e-mail the user registered with' }),
  area_code: Type.Union([Type.String(), Type.Null()]),
  mobile: Type.Union([Type.String(), Type.Null()]),
  email: Type.Union([Type.String(), Type.Null()]),
  lang: Type.String(),
  invite_code: Type.String({ description: "The user's own code to invite others" }),
  verification: VerificationStateSchema,
  advanced_verification: VerificationStateSchema,
  has_fund_password: Type.Boolean(),
  created_at: Type.String({ format: 'date-time' }),
});
export type UserCenter = Static<typeof UserCenter>;

export const LoginResult = Type.Object({ token: Type.String(), user: UserCenter });
export type LoginResult = Static<typeof LoginResult>;

export const Center2 = Type.Object({
  mobile_bound: Type.Boolean(),
  email_bound: Type.Boolean(),
  has_fund_password: Type.Boolean(),
  verification: Type.String(),
  advanced_verification: Type.String(),
  last_login_at: Type.Union([Type.String(), Type.Null()]),
  last_login_ip: Type.Union([Type.String(), Type.Null()]),
  active_sessions: Type.Integer(),
});
export type Center2 = Static<typeof Center2>;

export const ForgetBody = Type.Object({
  type: Str('mobile or email'),
  area_code: Str('Dialling code, with type=mobile'),
  account: Str('Phone number or e-mail address'),
  code: Str('6-digit verification code'),
  password: Str('New login password; leave out to only check the code (first step)'),
  re_password: Str('The same password again'),
});
export type ForgetBody = Static<typeof ForgetBody>;

export const ChangePasswordBody = Type.Object({
  old_password: Str('Current login password'),
  password: Str('New login password, at least 6 characters'),
  re_password: Str('The new password again'),
});
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;

export const FundPasswordBody = Type.Object({
  password: Str('New fund password: exactly 6 digits'),
  re_password: Str('The same 6 digits again'),
  old_password: Str('Current fund password (when one is set and no code is given)'),
  code: Str('Verification code sent with type=fund_password (instead of the old fund password)'),
  code_type: Str('mobile or email: where the code was sent'),
});
export type FundPasswordBody = Static<typeof FundPasswordBody>;

export const HasPasswordResult = Type.Object({ has_password: Type.Boolean() });
export const ExistsResult = Type.Object({ exists: Type.Boolean() });
export const CheckMobileBody = Type.Object({ area_code: Str('Dialling code'), mobile: Str('Phone number') });
export const CheckEmailBody = Type.Object({ email: Str('E-mail address') });
export const NicknameBody = Type.Object({
  nickname: Str('New nickname, 2 to 20 characters', { maxLength: 64 }),
});

export const LangBody = Type.Object({ lang: Str('th, en, ja, ko, es, zh or hk') });
export const LangResult = Type.Object({ lang: Type.String(), langs: Type.Array(Type.String()) });
export const CustomerUrlResult = Type.Object({ url: Type.String() });

export const BindContactBody = Type.Object({
  type: Str('mobile or email: the contact to add'),
  area_code: Str('Dialling code, with type=mobile'),
  account: Str('Phone number or e-mail address to bind'),
  code: Str('Code sent to it with type=bind'),
});

export const UploadResult = Type.Object({
  name: Type.String({ description: 'Stored name; pass it where a form asks for the file' }),
  url: Type.String({ description: 'Path that serves the file to its owner only' }),
  mime: Type.String(),
  size: Type.Integer(),
});
export type UploadResult = Static<typeof UploadResult>;
