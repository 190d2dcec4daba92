import type { Rule } from 'antd-mobile/es/components/form';
import type { TFunction } from 'i18next';
import { isFundPassword, isValidEmail, isValidPhone, MIN_PASSWORD_LENGTH } from './validation';

/** Form rules of spec §5, with its messages. Empty values are left to the "required" rule. */

function check(test: (v: string) => boolean, message: string): Rule {
  return {
    validator: async (_rule, value: unknown) => {
      const v = typeof value === 'string' ? value : '';
      if (v && !test(v)) throw new Error(message);
    },
  };
}

export const phoneRules = (t: TFunction): Rule[] => [
  { required: true, whitespace: true, message: t('validation.phoneRequired') },
  check(isValidPhone, t('validation.phoneInvalid')),
];

export const emailRules = (t: TFunction): Rule[] => [
  { required: true, whitespace: true, message: t('validation.emailRequired') },
  check(isValidEmail, t('validation.emailInvalid')),
];

export const codeRules = (t: TFunction): Rule[] => [
  { required: true, whitespace: true, message: t('validation.codeRequired') },
];

/** A new login password: required, at least 6 characters. */
export const newPasswordRules = (
  t: TFunction,
  requiredMessage = t('validation.passwordRequired'),
): Rule[] => [
  { required: true, message: requiredMessage },
  check((v) => v.length >= MIN_PASSWORD_LENGTH, t('validation.passwordMin', { count: MIN_PASSWORD_LENGTH })),
];

/** The repeat of `field`: required and identical ("the two passwords are inconsistent"). */
export const confirmRules = (
  t: TFunction,
  field = 'password',
  requiredMessage = t('validation.confirmRequired'),
): Rule[] => [
  { required: true, message: requiredMessage },
  ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (value && value !== getFieldValue(field)) throw new Error(t('validation.inconsistent'));
    },
  }),
];

export const fundPasswordRules = (t: TFunction): Rule[] => [
  {
    validator: async (_rule, value: unknown) => {
      if (!isFundPassword(typeof value === 'string' ? value : '')) {
        throw new Error(t('validation.fundPasswordDigits'));
      }
    },
  },
];
