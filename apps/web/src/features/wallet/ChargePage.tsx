import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CURRENCY_IDS } from '@verdant/api';
import { Form, Toast } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../shared/api';
import { formatAmount, isLess, parseAmount } from '../../shared/money';
import { href } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';
import { PictureUploader } from '../../shared/ui/PictureUploader';
import { QueryView } from '../../shared/ui/QueryView';
import { depositAddressQuery, requestDeposit, walletKeys } from './api';
import { AmountInput } from './components/AmountInput';
import { BankDetails } from './components/BankDetails';
import { idParam, useCurrencies } from './components/hooks';
import { InfoRows } from './components/InfoRows';
import '../../shared/ui/form.css';
import './wallet.css';
import { SubmitForm } from '../../shared/ui/SubmitForm';

interface Values {
  amount?: string;
  image?: string;
}

/** pages/assets/deposit/charge: the amount sent and its proof picture, for an operator to review. */
export default function ChargePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const currencies = useCurrencies();
  const [form] = Form.useForm<Values>();
  const cur = currencies.byId(idParam(params.get('currency_id'), CURRENCY_IDS.USDT));
  // a bank deposit shows where to send the money again, beside the voucher it asks for
  const bank = useQuery({ ...depositAddressQuery(cur?.id ?? 0, ''), enabled: Boolean(cur?.is_fiat) });

  const mutation = useMutation({
    mutationFn: requestDeposit,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message || t('deposit.submitted') });
      void queryClient.invalidateQueries({ queryKey: walletKeys.deposits() });
      navigate(href('record', { tab: 'deposit' }), { replace: true });
    },
    onError: (e) => {
      if (e instanceof ApiError && e.kind === 'not-logged-in') return;
      // spec §8: "Failed to submit" when the server has no better words
      Toast.show({
        content: e instanceof ApiError && e.kind === 'server' ? e.message : t('deposit.submitFailed'),
      });
      if (e instanceof ApiError && e.field && ['amount', 'image'].includes(e.field)) {
        form.setFields([{ name: e.field as keyof Values, errors: [e.message] }]);
      }
    },
  });

  return (
    <QueryView query={currencies}>
      {() => {
        if (!cur?.can_deposit) return <EmptyState text={t('common.noData')} />;
        const wantedChain = params.get('chain') ?? '';
        const chain = cur.is_fiat
          ? null
          : cur.chains.includes(wantedChain)
            ? wantedChain
            : (cur.chains[0] ?? null);
        const min = formatAmount(cur.min_deposit, cur.decimals);

        const onFinish = (v: Values) => {
          const amount = parseAmount(v.amount ?? '', cur.decimals);
          if (!amount || !v.image) return;
          mutation.mutate({
            currency_id: String(cur.id),
            ...(chain ? { chain } : {}),
            amount,
            image: v.image,
          });
        };

        return (
          <div className="v-wallet-page">
            <InfoRows
              className="v-wallet-card"
              rows={[
                { label: t('wallet.coin'), value: cur.symbol, tone: 'strong' },
                chain
                  ? { label: t('wallet.chain'), value: chain }
                  : { label: t('deposit.method'), value: t('deposit.bankTransfer') },
                { label: t('deposit.minimum'), value: `${min} ${cur.symbol}` },
              ]}
            />
            {cur.is_fiat && bank.data?.bank && <BankDetails bank={bank.data.bank} />}
            <SubmitForm
              form={form}
              className="v-wallet-card v-wallet-card--form"
              onFinish={onFinish}
              pending={mutation.isPending}
              submit={t('deposit.submit')}
            >
              <Form.Item
                name="amount"
                label={cur.is_fiat ? t('deposit.transferAmount') : t('deposit.amount')}
                validateFirst
                rules={[
                  { required: true, message: t('wallet.amountRequired') },
                  {
                    validator: async (_r, value: unknown) => {
                      const a = parseAmount(typeof value === 'string' ? value : '', cur.decimals);
                      if (!a) throw new Error(t('wallet.amountInvalid'));
                      if (isLess(a, cur.min_deposit))
                        throw new Error(t('deposit.belowMin', { min, symbol: cur.symbol }));
                    },
                  },
                ]}
              >
                <AmountInput
                  decimals={cur.decimals}
                  symbol={cur.symbol}
                  placeholder={t('deposit.amountPlaceholder', { min })}
                />
              </Form.Item>
              <Form.Item
                name="image"
                label={cur.is_fiat ? t('deposit.voucher') : t('deposit.proof')}
                rules={[{ required: true, message: t('deposit.proofRequired') }]}
                className="v-form__plain"
                description={t('deposit.proofHelp')}
              >
                <PictureUploader label={t('deposit.uploadProof')} />
              </Form.Item>
            </SubmitForm>
            <p className="v-wallet-page-note">{t('deposit.reviewNote')}</p>
          </div>
        );
      }}
    </QueryView>
  );
}
