import { useMutation } from '@tanstack/react-query';
import type { ForgetBody } from '@verdant/api';
import { Button, Form, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { codeRules } from '../../shared/form-rules';
import { href } from '../../shared/paths';
import { CodeInput } from '../../shared/ui/CodeInput';
import { NewPasswordFields } from '../../shared/ui/NewPasswordFields';
import '../../shared/ui/form.css';
import { AccountField, useAccountField } from '../../shared/ui/AccountField';
import { useLoginQuery } from './after-login';
import { forgetPassword } from './api';
import { AccountTypeTabs } from './components/AccountTypeTabs';
import './user.css';
import { SubmitButton } from '../../shared/ui/SubmitButton';
import { SubmitForm } from '../../shared/ui/SubmitForm';

interface StepOne {
  account: string;
  code: string;
}
interface StepTwo {
  password: string;
  re_password: string;
}

/** Spec §2: recover by phone or e-mail; "Next step" checks the code, then the new password. */
export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loginQuery = useLoginQuery();
  const [formOne] = Form.useForm<StepOne>();
  const account = useAccountField(formOne);
  const [verified, setVerified] = useState<ForgetBody | null>(null);

  const check = useMutation({
    mutationFn: forgetPassword,
    onSuccess: (_result, body) => setVerified(body),
  });
  const reset = useMutation({
    mutationFn: forgetPassword,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('auth.resetSuccess') });
      navigate(href('login', loginQuery), { replace: true });
    },
  });

  const onNext = (v: StepOne) => {
    check.mutate({
      type: account.kind,
      ...account.contact(v.account),
      code: v.code.trim(),
    });
  };

  const onReset = (v: StepTwo) => {
    if (!verified) return;
    reset.mutate({ ...verified, password: v.password, re_password: v.re_password });
  };

  return (
    <div className="v-user-auth">
      <ol className="v-user-steps" aria-label={t('auth.stepsLabel')}>
        <li className={verified ? 'is-done' : 'is-current'}>{t('auth.stepVerify')}</li>
        <li className={verified ? 'is-current' : ''}>{t('auth.stepNewPassword')}</li>
      </ol>

      {!verified ? (
        <>
          <AccountTypeTabs value={account.kind} onChange={(k) => account.setKind(k, ['account', 'code'])} />
          <SubmitForm form={formOne} onFinish={onNext} pending={check.isPending} submit={t('auth.nextStep')}>
            <AccountField {...account.field} />
            <Form.Item name="code" label={t('auth.code')} rules={codeRules(t)}>
              <CodeInput
                purpose="forget"
                getTarget={account.getTarget}
                placeholder={t('auth.codePlaceholder')}
              />
            </Form.Item>
          </SubmitForm>
        </>
      ) : (
        <Form
          layout="vertical"
          className="v-form"
          onFinish={onReset}
          footer={
            <>
              <SubmitButton pending={reset.isPending}>{t('auth.resetPassword')}</SubmitButton>
              <Button block fill="none" className="v-form__secondary" onClick={() => setVerified(null)}>
                {t('auth.previousStep')}
              </Button>
            </>
          }
        >
          <p className="v-user-auth__hint">{t('auth.newPasswordHint')}</p>
          <NewPasswordFields label={t('auth.newPassword')} />
        </Form>
      )}
    </div>
  );
}
