import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Popup, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { userKeys } from '../../shared/account';
import { ApiError } from '../../shared/api';
import { codeRules } from '../../shared/form-rules';
import { setUser } from '../../shared/session';
import { AccountField, useAccountField } from '../../shared/ui/AccountField';
import { CodeInput } from '../../shared/ui/CodeInput';
import { SubmitForm } from '../../shared/ui/SubmitForm';
import '../../shared/ui/form.css';
import { bindContact } from './api';

export type BindKind = 'mobile' | 'email';

interface Values {
  account: string;
  code: string;
}

/**
 * Adds the contact the account was not registered with (set/sms_other_mail): the new phone or
 * e-mail, a code sent to it (purpose `bind`), then "Link". On success the account page shows it.
 */
export function BindContactSheet({ kind, onClose }: { kind: BindKind | null; onClose: () => void }) {
  return (
    <Popup
      visible={kind !== null}
      onMaskClick={onClose}
      onClose={onClose}
      showCloseButton
      destroyOnClose
      bodyClassName="v-sheet"
    >
      {kind && <BindForm key={kind} kind={kind} onDone={onClose} />}
    </Popup>
  );
}

function BindForm({ kind, onDone }: { kind: BindKind; onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const account = useAccountField(form, kind);

  const mutation = useMutation({
    mutationFn: (v: Values) =>
      bindContact({ type: kind, ...account.contact(v.account), code: v.code.trim() }),
    onSuccess: ({ data, message }) => {
      queryClient.setQueryData(userKeys.center(), data);
      setUser(data); // the side menu and the security page read the stored copy
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      Toast.show({ icon: 'success', content: message || t('account.bound') });
      onDone();
    },
    onError: (e) => {
      // a refusal about one field is shown under it; anything else as a toast
      if (e instanceof ApiError && (e.field === 'account' || e.field === 'code')) {
        form.setFields([{ name: e.field, errors: [e.message] }]);
      } else {
        Toast.show({ content: e instanceof ApiError ? e.message : t('account.bindFailed') });
      }
    },
  });

  return (
    <>
      <h3 className="v-sheet__title">
        {kind === 'mobile' ? t('account.bindPhone') : t('account.bindEmail')}
      </h3>
      <p className="v-sheet__body">
        {kind === 'mobile' ? t('account.bindPhoneLead') : t('account.bindEmailLead')}
      </p>
      <SubmitForm
        form={form}
        onFinish={(v) => mutation.mutate(v)}
        pending={mutation.isPending}
        submit={t('account.bindSubmit')}
      >
        <AccountField {...account.field} />
        <Form.Item name="code" label={t('auth.code')} rules={codeRules(t)}>
          <CodeInput purpose="bind" getTarget={account.getTarget} placeholder={t('auth.codePlaceholder')} />
        </Form.Item>
      </SubmitForm>
    </>
  );
}
