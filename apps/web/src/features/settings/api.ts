import {
  type ChangePasswordBody,
  type FundPasswordBody,
  type Lang,
  Paths,
  type UserCenter,
} from '@verdant/api';
import { api, requestFull } from '../../shared/api';

// Forms show their own button spinner, so their calls skip the global loading toast.
const quiet = { loading: false } as const;

/** Keeps the account's language on the server (messages, e-mails) in step with the interface. */
export function saveServerLang(lang: Lang) {
  return api.post<unknown>(Paths.setLang, { lang });
}

export function updateNickname(nickname: string) {
  return requestFull<unknown>(Paths.nickname, { body: { nickname }, ...quiet });
}

export function changeLoginPassword(body: ChangePasswordBody) {
  return requestFull<unknown>(Paths.changeLoginPassword, { body: { ...body }, ...quiet });
}

export function updateFundPassword(body: FundPasswordBody) {
  return requestFull<unknown>(Paths.fundPassword, { body: { ...body }, ...quiet });
}

export interface BindContactInput {
  /** the contact to add: a phone to an e-mail account, or an e-mail to a phone account */
  type: 'mobile' | 'email';
  area_code?: string;
  account: string;
  code: string;
}

/** set/sms_other_mail: answers the account with the new contact. The sheet shows refusals itself. */
export function bindContact(body: BindContactInput) {
  return requestFull<UserCenter>(Paths.smsOtherMail, { body: { ...body }, ...quiet, toastError: false });
}
