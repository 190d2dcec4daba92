import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { userKeys } from '../../shared/account';
import { paths } from '../../shared/paths';
import { clearSession } from '../../shared/session';
import { NewPasswordFields } from '../../shared/ui/NewPasswordFields';
import { PasswordInput } from '../../shared/ui/PasswordInput';
import { changeLoginPassword } from './api';
import '../../shared/ui/form.css';
import './settings.css';
import { SubmitForm } from '../../shared/ui/SubmitForm';

interface Values {
  old_password: string;
  password: string;
  re_password: string;
}

export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();

  const mutation = useMutation({
    mutationFn: changeLoginPassword,
    onSuccess: async ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('security.passwordChanged') });
      // The server ended every session: leave for login first, so this page's guard does not
      // send the user there a second time with a backpage.
      await navigate(paths.login, { replace: true });
      clearSession();
      queryClient.removeQueries({ queryKey: userKeys.all });
    },
  });

  return (
    <div className="v-settings v-settings--form">
      <SubmitForm
        form={form}
        onFinish={(v) => mutation.mutate(v)}
        pending={mutation.isPending}
        submit={t('common.confirm')}
      >
        <Form.Item
          name="old_password"
          label={t('security.oldPassword')}
          rules={[{ required: true, message: t('validation.oldPasswordRequired') }]}
        >
          <PasswordInput placeholder={t('security.oldPasswordPlaceholder')} />
        </Form.Item>
        <NewPasswordFields
          label={t('security.newPassword')}
          confirmLabel={t('security.repeatPassword')}
          requiredMessage={t('validation.newPasswordRequired')}
          confirmRequiredMessage={t('validation.repeatRequired')}
        />
        <p className="v-settings-form-note">{t('security.changePasswordNote')}</p>
      </SubmitForm>
    </div>
  );
}
