import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FundPasswordBody } from '@verdant/api';
import { Form, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasFundPasswordQuery, userCenterQuery, userKeys } from '../../shared/account';
import { codeRules } from '../../shared/form-rules';
import { formatPhone, maskEmail } from '../../shared/format';
import { useGoBack } from '../../shared/navigation';
import { CodeInput } from '../../shared/ui/CodeInput';
import { FundPasscodeItem } from '../../shared/ui/FundPasscodeItem';
import { QueryView } from '../../shared/ui/QueryView';
import type { CodeTarget } from '../../shared/verification-code';
import { updateFundPassword } from './api';
import '../../shared/ui/form.css';
import './settings.css';
import { SubmitForm } from '../../shared/ui/SubmitForm';

interface Values {
  old_password?: string;
  code?: string;
  password: string;
  re_password: string;
}

type Via = 'mobile' | 'email';

export default function ChangePayPasswordPage() {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const queryClient = useQueryClient();
  const hasFund = useQuery(hasFundPasswordQuery());
  const center = useQuery(userCenterQuery());
  const [form] = Form.useForm<Values>();
  const [useCode, setUseCode] = useState(false);
  const [chosenVia, setVia] = useState<Via | null>(null);

  const mutation = useMutation({
    mutationFn: updateFundPassword,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('fund.saved') });
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      goBack();
    },
  });

  return (
    <QueryView query={hasFund} loading="spinner">
      {(isSet) => {
        const user = center.data;
        const channels: Via[] = [];
        if (user?.mobile) channels.push('mobile');
        if (user?.email) channels.push('email');
        const via: Via | undefined = chosenVia && channels.includes(chosenVia) ? chosenVia : channels[0];

        const describe = (v: Via) =>
          v === 'mobile' ? formatPhone(user?.area_code, user?.mobile ?? '') : maskEmail(user?.email ?? '');

        const getTarget = (): CodeTarget | null => {
          if (!user || !via) return null;
          return via === 'mobile'
            ? { kind: 'mobile', areaCode: user.area_code ?? '', mobile: user.mobile ?? '' }
            : { kind: 'email', email: user.email ?? '' };
        };

        const onFinish = (v: Values) => {
          const body: FundPasswordBody = { password: v.password, re_password: v.re_password };
          if (isSet && useCode) {
            body.code = v.code?.trim();
            body.code_type = via;
          } else if (isSet) {
            body.old_password = v.old_password;
          }
          mutation.mutate(body);
        };

        return (
          <div className="v-settings v-settings--form">
            <p className="v-settings-form-lead">{isSet ? t('fund.changeLead') : t('fund.setLead')}</p>
            <SubmitForm
              form={form}
              onFinish={onFinish}
              pending={mutation.isPending}
              submit={t('common.confirm')}
            >
              {isSet && !useCode && (
                <FundPasscodeItem key="old" name="old_password" label={t('fund.current')} />
              )}
              {isSet && useCode && (
                <>
                  {channels.length > 1 && (
                    <fieldset className="v-settings-chips">
                      <legend className="v-visually-hidden">{t('fund.sendTo')}</legend>
                      {channels.map((c) => (
                        <button
                          key={c}
                          type="button"
                          aria-pressed={c === via}
                          className={c === via ? 'v-settings-chip is-active' : 'v-settings-chip'}
                          onClick={() => setVia(c)}
                        >
                          {c === 'mobile' ? t('auth.phone') : t('auth.email')}
                        </button>
                      ))}
                    </fieldset>
                  )}
                  <Form.Item
                    key="code"
                    name="code"
                    label={via ? t('fund.codeSentTo', { target: describe(via) }) : t('auth.code')}
                    rules={codeRules(t)}
                  >
                    <CodeInput
                      purpose="fund_password"
                      getTarget={getTarget}
                      placeholder={t('auth.codePlaceholder')}
                    />
                  </Form.Item>
                </>
              )}
              {isSet && channels.length > 0 && (
                <button
                  type="button"
                  className="v-link-button v-settings-form__switch"
                  onClick={() => {
                    setUseCode((v) => !v);
                    form.resetFields(['old_password', 'code']);
                  }}
                >
                  {useCode ? t('fund.useCurrent') : t('fund.useCode')}
                </button>
              )}
              <FundPasscodeItem name="password" label={t('fund.new')} />
              <FundPasscodeItem name="re_password" label={t('fund.confirm')} sameAs="password" />
              <p className="v-settings-form-note">{t('fund.note')}</p>
            </SubmitForm>
          </div>
        );
      }}
    </QueryView>
  );
}
