import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Form, Input, Modal, Segmented, Tag } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { TONE, type Tone } from '../../ui/tone';

/**
 * One review decision: sent once (the button shows it is sending and cannot be pressed again),
 * then the queue and the menu's counts are read again. The server decides once anyway.
 */
export function useDecision<B extends Record<string, unknown>>(path: string, queue: string) {
  const client = useQueryClient();
  const { message } = App.useApp();
  return useMutation({
    mutationFn: (body: B) => api.post<unknown>(path, body),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['admin', queue] });
      void client.invalidateQueries({ queryKey: ['admin', 'queues'] });
    },
    onError: (e: Error) => {
      void message.error(e.message);
      // a request decided meanwhile (another operator, another tab) leaves the pending list
      void client.invalidateQueries({ queryKey: ['admin', queue] });
    },
  });
}

/** The statuses a queue lists; pending first. */
export function StatusFilter<S extends string>({
  value,
  onChange,
  statuses,
}: {
  value: S;
  onChange: (s: S) => void;
  statuses: readonly S[];
}) {
  const { t } = useTranslation();
  return (
    <Segmented<S>
      value={value}
      onChange={onChange}
      options={statuses.map((s) => ({ value: s, label: t(`review.status.${s}`) }))}
    />
  );
}

const TONES: Record<string, Tone> = {
  pending: 'gold',
  review: 'gold',
  approved: 'green',
  verified: 'green',
  passed: 'green',
  rejected: 'red',
};

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation();
  return <Tag style={TONE[TONES[status] ?? 'grey']}>{t(`review.status.${status}`)}</Tag>;
}

/**
 * A decision that needs one text (a rejection reason, a payout reference, an amount): the form
 * in a modal, confirmed with the modal's button, which shows it is sending.
 */
export function TextDecisionModal({
  open,
  title,
  label,
  field,
  initial,
  required = true,
  max = 200,
  extra,
  okText,
  danger,
  busy,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  title: string;
  label: string;
  field: string;
  initial?: string;
  required?: boolean;
  max?: number;
  extra?: ReactNode;
  okText: string;
  danger?: boolean;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (value: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Record<string, string>>();
  const [error, setError] = useState<string | null>(null);
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: Boolean(danger), loading: busy, disabled: busy }}
      onCancel={onCancel}
      destroyOnHidden
      onOk={() =>
        form
          .validateFields()
          .then((v) => {
            setError(null);
            return onSubmit((v[field] ?? '').trim()).catch((e: Error) => setError(e.message));
          })
          .catch(() => undefined)
      }
    >
      {extra}
      <Form form={form} layout="vertical" preserve={false} initialValues={{ [field]: initial ?? '' }}>
        <Form.Item
          name={field}
          label={label}
          rules={required ? [{ required: true, whitespace: true, message: t('review.required') }] : []}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
        >
          {max > 60 ? <Input.TextArea rows={3} maxLength={max} showCount /> : <Input maxLength={max} />}
        </Form.Item>
      </Form>
    </Modal>
  );
}
