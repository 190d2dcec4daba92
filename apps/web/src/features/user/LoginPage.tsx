import { useMutation } from '@tanstack/react-query';
import type { AccountType } from '@verdant/api';
import { Form, Input, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { emailRules, phoneRules } from '../../shared/form-rules';
import { href } from '../../shared/paths';
import { setSession } from '../../shared/session';
import { PasswordInput } from '../../shared/ui/PasswordInput';
import { DEFAULT_AREA_CODE, PhoneInput } from '../../shared/ui/PhoneInput';
import { normalizePhone } from '../../shared/validation';
import { useAfterLogin, useLoginQuery } from './after-login';
import { login } from './api';
import { AccountTypeTabs } from './components/AccountTypeTabs';
import '../../shared/ui/form.css';
import './user.css';
import { SubmitButton } from '../../shared/ui/SubmitButton';

interface Values {
  account: string;
  password: string;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [type, setType] = useState<AccountType>('mobile');
  const [areaCode, setAreaCode] = useState(DEFAULT_AREA_CODE);
  const afterLogin = useAfterLogin();
  const loginQuery = useLoginQuery();

  const mutation = useMutation({
    mutationFn: login,
    onSuccess: ({ token, user }) => {
      setSession(token, user);
      Toast.show({ icon: 'success', content: t('auth.loginSuccess') });
      afterLogin();
    },
  });

  const switchType = (next: AccountType) => {
    setType(next);
    form.resetFields(['account']);
  };

  const onFinish = (v: Values) => {
    mutation.mutate(
      type === 'mobile'
        ? { account: normalizePhone(v.account), area_code: areaCode, password: v.password }
        : { account: v.account.trim(), password: v.password },
    );
  };

  return (
    <div className="v-user-auth">
      <h2 className="v-user-auth__title">{t('auth.loginTitle')}</h2>
      <p className="v-user-auth__subtitle">{t('auth.loginSubtitle')}</p>
      <AccountTypeTabs value={type} onChange={switchType} />
      <Form
        form={form}
        layout="vertical"
        className="v-form"
        onFinish={onFinish}
        footer={<SubmitButton pending={mutation.isPending}>{t('auth.login')}</SubmitButton>}
      >
        {type === 'mobile' ? (
          <Form.Item key="mobile" name="account" label={t('auth.phone')} rules={phoneRules(t)} validateFirst>
            <PhoneInput
              areaCode={areaCode}
              onAreaCodeChange={setAreaCode}
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
        )}
        <Form.Item
          name="password"
          label={t('auth.password')}
          rules={[{ required: true, message: t('validation.passwordRequired') }]}
        >
          <PasswordInput placeholder={t('auth.passwordPlaceholder')} />
        </Form.Item>
      </Form>
      <div className="v-user-auth__links">
        <Link to={href('forgetPassword', loginQuery)}>{t('auth.forgotPassword')}</Link>
        <span>
          {t('auth.noAccount')} <Link to={href('register', loginQuery)}>{t('auth.registerNow')}</Link>
        </span>
      </div>
    </div>
  );
}
