import { useMutation } from '@tanstack/react-query';
import { Button, Checkbox, Form, Input, Popup, Toast } from 'antd-mobile';
import { type ReactNode, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { codeRules } from '../../shared/form-rules';
import { href } from '../../shared/paths';
import { setSession } from '../../shared/session';
import { CodeInput } from '../../shared/ui/CodeInput';
import { NewPasswordFields } from '../../shared/ui/NewPasswordFields';
import '../../shared/ui/form.css';
import { AccountField, useAccountField } from '../../shared/ui/AccountField';
import { useAfterLogin, useLoginQuery } from './after-login';
import { register } from './api';
import { AccountTypeTabs } from './components/AccountTypeTabs';
import './user.css';
import { SubmitForm } from '../../shared/ui/SubmitForm';

/** The link inside the checkbox label: opens the agreement without ticking the box. */
function AgreementLink({ onOpen, children }: { onOpen: () => void; children?: ReactNode }) {
  return (
    <button
      type="button"
      className="v-link-button"
      onClick={(e) => {
        e.preventDefault();
        e.stopPropagation();
        onOpen();
      }}
    >
      {children}
    </button>
  );
}

interface Values {
  account: string;
  code: string;
  password: string;
  re_password: string;
  invite_code?: string;
  agree: boolean;
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [form] = Form.useForm<Values>();
  const account = useAccountField(form);
  const [agreementOpen, setAgreementOpen] = useState(false);
  const afterLogin = useAfterLogin();
  const loginQuery = useLoginQuery();

  const mutation = useMutation({
    mutationFn: register,
    onSuccess: ({ token, user }) => {
      setSession(token, user);
      Toast.show({ icon: 'success', content: t('auth.registerSuccess') });
      afterLogin();
    },
  });

  const onFinish = (v: Values) => {
    mutation.mutate({
      type: account.kind,
      ...account.contact(v.account),
      code: v.code.trim(),
      password: v.password,
      re_password: v.re_password,
      agree: '1',
      invite_code: v.invite_code?.trim() || undefined,
    });
  };

  return (
    <div className="v-user-auth">
      <h2 className="v-user-auth__title">{t('auth.registerTitle')}</h2>
      <p className="v-user-auth__subtitle">{t('auth.registerSubtitle')}</p>
      <AccountTypeTabs value={account.kind} onChange={(k) => account.setKind(k, ['account', 'code'])} />
      <SubmitForm
        form={form}
        initialValues={{ invite_code: params.get('invite') ?? '', agree: false }}
        onFinish={onFinish}
        pending={mutation.isPending}
        submit={t('auth.register')}
      >
        <AccountField {...account.field} />
        <Form.Item name="code" label={t('auth.code')} rules={codeRules(t)}>
          <CodeInput
            purpose="register"
            getTarget={account.getTarget}
            placeholder={t('auth.codePlaceholder')}
          />
        </Form.Item>
        <NewPasswordFields />
        <Form.Item name="invite_code" label={t('auth.inviteCode')}>
          <Input placeholder={t('auth.inviteCodePlaceholder')} autoComplete="off" clearable />
        </Form.Item>
        <Form.Item
          name="agree"
          valuePropName="checked"
          className="v-form__agree"
          rules={[
            {
              validator: async (_rule, value: unknown) => {
                if (value !== true) throw new Error(t('validation.agreement'));
              },
            },
          ]}
        >
          <Checkbox>
            <Trans
              i18nKey="auth.agree"
              components={{ terms: <AgreementLink onOpen={() => setAgreementOpen(true)} /> }}
            />
          </Checkbox>
        </Form.Item>
      </SubmitForm>
      <div className="v-user-auth__links v-user-auth__links--center">
        <span>
          {t('auth.haveAccount')} <Link to={href('login', loginQuery)}>{t('auth.loginNow')}</Link>
        </span>
      </div>
      <Popup
        visible={agreementOpen}
        onMaskClick={() => setAgreementOpen(false)}
        onClose={() => setAgreementOpen(false)}
        showCloseButton
        bodyClassName="v-sheet"
      >
        <h3 className="v-sheet__title">{t('agreement.title')}</h3>
        <div className="v-sheet__body">
          <p>{t('agreement.p1')}</p>
          <p>{t('agreement.p2')}</p>
          <p>{t('agreement.p3')}</p>
          <p>{t('agreement.p4')}</p>
        </div>
        <Button
          block
          color="primary"
          onClick={() => {
            form.setFieldValue('agree', true);
            form.validateFields(['agree']).catch(() => {});
            setAgreementOpen(false);
          }}
        >
          {t('agreement.accept')}
        </Button>
      </Popup>
    </div>
  );
}
