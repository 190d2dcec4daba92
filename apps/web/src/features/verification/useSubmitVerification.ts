import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { userKeys } from '../../shared/account';
import { ApiError } from '../../shared/api';
import { paths } from '../../shared/paths';
import { verificationKeys } from './api';

/**
 * Sends a basic or advanced submission: on success the state and the profile are read again
 * and the user is back on the verification index; a refusal shows the server's message (and
 * `onFieldError` may put it under the field it names).
 */
export function useSubmitVerification<B>(
  submit: (body: B) => Promise<{ message: string }>,
  onFieldError?: (e: ApiError) => void,
) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submit,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('kyc.submitted') });
      void queryClient.invalidateQueries({ queryKey: verificationKeys.status() });
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
      navigate(paths.verification, { replace: true });
    },
    onError: (e) => {
      if (!(e instanceof ApiError) || e.kind === 'not-logged-in') return;
      Toast.show({ content: e.message });
      onFieldError?.(e);
    },
  });
}
