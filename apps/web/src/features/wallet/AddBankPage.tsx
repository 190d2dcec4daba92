import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { BankCard, BankCardBody } from '@verdant/api';
import { Form, Input, TextArea, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../shared/api';
import { useGoBack } from '../../shared/navigation';
import { QueryView } from '../../shared/ui/QueryView';
import { bankCardsQuery, saveBankCard, walletKeys } from './api';
import { idParam } from './components/hooks';
import '../../shared/ui/form.css';
import './wallet.css';
import { SubmitButton } from '../../shared/ui/SubmitButton';

type Field = Exclude<keyof BankCardBody, 'id'>;

/** Spec §3, in its order; the first five are required, the rest as the bank needs them. */
const FIELDS: { name: Field; required: boolean; long?: boolean; mono?: boolean }[] = [
  { name: 'name', required: true },
  { name: 'card_number', required: true, mono: true },
  { name: 'bank_name', required: true },
  { name: 'branch', required: false },
  { name: 'bank_address', required: false, long: true },
  { name: 'swift', required: true, mono: true },
  { name: 'holder_name', required: true },
  { name: 'iban', required: false, mono: true },
  { name: 'beneficiary_address', required: false, long: true },
  { name: 'postal_code', required: false },
];

type Values = Partial<Record<Field, string>>;

function BankForm({ card }: { card: BankCard | null }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();

  const mutation = useMutation({
    mutationFn: saveBankCard,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('common.operationSuccess') });
      void queryClient.invalidateQueries({ queryKey: walletKeys.bankCards() });
      goBack();
    },
    onError: (e) => {
      if (!(e instanceof ApiError) || e.kind === 'not-logged-in') return;
      // spec §8: "Binding failed" when the server has no better words
      Toast.show({ content: e.kind === 'server' ? e.message : t('bank.bindFailed') });
      if (e.field && FIELDS.some((f) => f.name === e.field)) {
        form.setFields([{ name: e.field as Field, errors: [e.message] }]);
      }
    },
  });

  const initial: Values = {};
  if (card) for (const f of FIELDS) initial[f.name] = card[f.name];

  const onFinish = (v: Values) => {
    const body: BankCardBody = {};
    for (const f of FIELDS) {
      const value = (v[f.name] ?? '').trim();
      if (value) body[f.name] = value;
    }
    if (card) body.id = String(card.id);
    mutation.mutate(body);
  };

  return (
    <Form
      form={form}
      layout="vertical"
      className="v-form v-wallet-card v-wallet-card--form"
      initialValues={initial}
      onFinish={onFinish}
      footer={
        <SubmitButton pending={mutation.isPending}>{card ? t('common.save') : t('bank.bind')}</SubmitButton>
      }
    >
      {FIELDS.map((f) => (
        <Form.Item
          key={f.name}
          name={f.name}
          label={
            f.required ? t(`bank.field.${f.name}`) : `${t(`bank.field.${f.name}`)} (${t('bank.optional')})`
          }
          rules={
            f.required ? [{ required: true, whitespace: true, message: t(`bank.required.${f.name}`) }] : []
          }
        >
          {f.long ? (
            <TextArea
              autoSize={{ minRows: 1, maxRows: 3 }}
              maxLength={200}
              placeholder={t(`bank.placeholder.${f.name}`)}
            />
          ) : (
            <Input
              className={f.mono ? 'v-wallet-mono' : undefined}
              autoComplete="off"
              inputMode={f.name === 'card_number' ? 'numeric' : undefined}
              maxLength={f.name === 'card_number' ? 40 : 200}
              placeholder={t(`bank.placeholder.${f.name}`)}
              clearable
            />
          )}
        </Form.Item>
      ))}
    </Form>
  );
}

/** pages/bankbind/addbank[?id=]: bind a bank card, or edit one of the user's cards. */
export default function AddBankPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = idParam(params.get('id'));
  const list = useQuery({ ...bankCardsQuery(), enabled: id !== null });

  return (
    <div className="v-wallet-page">
      <p className="v-wallet-page-note v-wallet-page-note--top">{t('bank.lead')}</p>
      {id === null ? (
        <BankForm key="new" card={null} />
      ) : (
        <QueryView query={list} loading="spinner">
          {(cards) => {
            const card = cards.find((c) => c.id === id) ?? null;
            return <BankForm key={card?.id ?? 'new'} card={card} />;
          }}
        </QueryView>
      )}
    </div>
  );
}
