import { useMutation } from '@tanstack/react-query';
import { FEEDBACK_PICTURES_MAX, SUPPORT_TEXT_MAX } from '@verdant/api';
import { Form, TextArea, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../shared/api';
import { PictureUploader } from '../../shared/ui/PictureUploader';
import { SubmitForm } from '../../shared/ui/SubmitForm';
import { sendFeedback } from './api';

type Values = { content?: string } & Record<`picture${number}`, string | undefined>;
const SLOTS = Array.from({ length: FEEDBACK_PICTURES_MAX }, (_, i) => `picture${i}` as const);

/** The help centre's feedback: text and up to three pictures, sent once the server accepts them. */
export function FeedbackForm({ onSent }: { onSent: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const mutation = useMutation({
    mutationFn: (v: Values) =>
      sendFeedback(
        (v.content ?? '').trim(),
        SLOTS.map((s) => v[s]).filter((p): p is string => Boolean(p)),
      ),
    onSuccess: () => {
      Toast.show({ icon: 'success', content: t('help.feedbackSent') });
      form.resetFields();
      onSent();
    },
    onError: (e) => {
      if (!(e instanceof ApiError) || e.kind === 'not-logged-in') return;
      Toast.show({ content: e.message });
    },
  });

  return (
    <section className="v-help__feedback" aria-label={t('help.feedback')}>
      <SubmitForm
        form={form}
        onFinish={(v) => mutation.mutate(v)}
        pending={mutation.isPending}
        submit={t('help.sendFeedback')}
      >
        <Form.Item
          name="content"
          label={t('help.feedbackLabel')}
          rules={[
            { required: true, whitespace: true, message: t('help.feedbackRequired') },
            { max: SUPPORT_TEXT_MAX, message: t('help.tooLong', { max: SUPPORT_TEXT_MAX }) },
          ]}
        >
          <TextArea
            placeholder={t('help.feedbackPlaceholder')}
            rows={4}
            maxLength={SUPPORT_TEXT_MAX}
            showCount
            aria-label={t('help.feedbackLabel')}
          />
        </Form.Item>
        <Form.Item label={t('help.pictures', { max: FEEDBACK_PICTURES_MAX })} className="v-form__plain">
          <div className="v-help__pictures">
            {SLOTS.map((s) => (
              <Form.Item key={s} name={s} noStyle>
                <PictureUploader label={t('help.addPicture')} />
              </Form.Item>
            ))}
          </div>
        </Form.Item>
      </SubmitForm>
    </section>
  );
}
