import type { AccountType } from '@verdant/api';
import { Form, Input } from 'antd-mobile';
import type { FormInstance } from 'antd-mobile/es/components/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { emailRules, phoneRules } from '../form-rules';
import { normalizePhone } from '../validation';
import type { CodeTarget } from '../verification-code';
import { DEFAULT_AREA_CODE, PhoneInput } from './PhoneInput';

interface FieldProps {
  kind: AccountType;
  areaCode: string;
  onAreaCodeChange: (code: string) => void;
}

/**
 * The form's `account` field: a phone number behind its dialling code, or an e-mail address.
 * Login, register, forgot-password and binding a second contact all ask for it this way.
 */
export function AccountField({ kind, areaCode, onAreaCodeChange }: FieldProps) {
  const { t } = useTranslation();
  // keyed by kind, so switching starts the field (and its error) afresh
  return kind === 'mobile' ? (
    <Form.Item key="mobile" name="account" label={t('auth.phone')} rules={phoneRules(t)} validateFirst>
      <PhoneInput
        areaCode={areaCode}
        onAreaCodeChange={onAreaCodeChange}
        placeholder={t('auth.phonePlaceholder')}
      />
    </Form.Item>
  ) : (
    <Form.Item key="email" name="account" label={t('auth.email')} rules={emailRules(t)} validateFirst>
      <Input
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder={t('auth.emailPlaceholder')}
        clearable
      />
    </Form.Item>
  );
}

/** What the API takes for an account: `area_code` only with a phone number. */
export interface AccountContact {
  area_code?: string;
  account: string;
}

/**
 * The state behind an AccountField in `form`: its kind, the dialling code, the typed value as the
 * API wants it, and where a verification code goes (null while the field is invalid: it says why).
 */
export function useAccountField(form: FormInstance, initialKind: AccountType = 'mobile') {
  const [kind, setKindState] = useState<AccountType>(initialKind);
  const [areaCode, setAreaCode] = useState(DEFAULT_AREA_CODE);

  const contact = (raw: string): AccountContact =>
    kind === 'mobile' ? { area_code: areaCode, account: normalizePhone(raw) } : { account: raw.trim() };

  return {
    kind,
    /** Switch between phone and e-mail; `reset` lists the fields that start empty again. */
    setKind: (next: AccountType, reset: string[] = ['account']) => {
      setKindState(next);
      form.resetFields(reset);
    },
    contact,
    getTarget: async (): Promise<CodeTarget | null> => {
      try {
        await form.validateFields(['account']);
      } catch {
        return null;
      }
      const c = contact(String(form.getFieldValue('account') ?? ''));
      return c.area_code === undefined
        ? { kind: 'email', email: c.account }
        : { kind: 'mobile', areaCode: c.area_code, mobile: c.account };
    },
    field: { kind, areaCode, onAreaCodeChange: setAreaCode } satisfies FieldProps,
  };
}
