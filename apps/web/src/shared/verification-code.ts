import { type CodePurpose, Paths, type SendCodeResult } from '@verdant/api';
import { api } from './api';

export type CodeTarget =
  | { kind: 'mobile'; areaCode: string; mobile: string }
  | { kind: 'email'; email: string };

/** Default wait before another code, when the server does not say. */
export const RESEND_SECONDS = 60;

export function sendCode(target: CodeTarget, purpose: CodePurpose): Promise<SendCodeResult> {
  const options = { loading: false } as const; // the button shows its own spinner
  return target.kind === 'mobile'
    ? api.post<SendCodeResult>(
        Paths.smsSend,
        { area_code: target.areaCode, mobile: target.mobile, type: purpose },
        options,
      )
    : api.post<SendCodeResult>(Paths.smsMail, { email: target.email, type: purpose }, options);
}
