import { Form } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { confirmRules, newPasswordRules } from '../form-rules';
import { PasswordInput } from './PasswordInput';

interface Props {
  /** Labels of the two fields, and what to say when each is empty; the sign-up words by default. */
  label?: string;
  confirmLabel?: string;
  requiredMessage?: string;
  confirmRequiredMessage?: string;
}

/**
 * A new login password typed twice (`password`, `re_password`): at least 6 characters, the same
 * both times. Register, forgot-password and change-password ask for it this way.
 */
export function NewPasswordFields({ label, confirmLabel, requiredMessage, confirmRequiredMessage }: Props) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        label={label ?? t('auth.password')}
        rules={newPasswordRules(t, requiredMessage)}
        validateFirst
      >
        <PasswordInput placeholder={t('auth.newPasswordPlaceholder')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="re_password"
        label={confirmLabel ?? t('auth.confirmPassword')}
        rules={confirmRules(t, 'password', confirmRequiredMessage)}
        dependencies={['password']}
        validateFirst
      >
        <PasswordInput placeholder={t('auth.confirmPlaceholder')} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
