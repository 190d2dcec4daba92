import { useMutation } from '@tanstack/react-query';
import { Form, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { href } from '../../shared/paths';
import { setSession } from '../../shared/session';
import { AccountField, useAccountField } from '../../shared/ui/AccountField';
import { PasswordInput } from '../../shared/ui/PasswordInput';
import { useAfterLogin, useLoginQuery } from './after-login';
import { login } from './api';
import { AccountTypeTabs } from './components/AccountTypeTabs';
import '../../shared/ui/form.css';
import './user.css';
import { SubmitForm } from '../../shared/ui/SubmitForm';

interface Values {
  account: string;
  password: string;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const account = useAccountField(form);
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

  const onFinish = (v: Values) => {
    mutation.mutate({ ...account.contact(v.account), password: v.password });
  };

  return (
    <div className="v-user-auth">
      <h2 className="v-user-auth__title">{t('auth.loginTitle')}</h2>
      <p className="v-user-auth__subtitle">{t('auth.loginSubtitle')}</p>
      <AccountTypeTabs value={account.kind} onChange={(k) => account.setKind(k)} />
      <SubmitForm form={form} onFinish={onFinish} pending={mutation.isPending} submit={t('auth.login')}>
        <AccountField {...account.field} />
        <Form.Item
          name="password"
          label={t('auth.password')}
          rules={[{ required: true, message: t('validation.passwordRequired') }]}
        >
          <PasswordInput placeholder={t('auth.passwordPlaceholder')} />
        </Form.Item>
      </SubmitForm>
      <div className="v-user-auth__links">
        <Link to={href('forgetPassword', loginQuery)}>{t('auth.forgotPassword')}</Link>
        <span>
          {t('auth.noAccount')} <Link to={href('register', loginQuery)}>{t('auth.registerNow')}</Link>
        </span>
      </div>
    </div>
  );
}
