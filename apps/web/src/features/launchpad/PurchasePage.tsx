import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Input, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../shared/api';
import { cleanAmountInput, formatAmount, isGreater, isLess, parseAmount } from '../../shared/money';
import { paths } from '../../shared/paths';
import { QueryView } from '../../shared/ui/QueryView';
import { launchpadProjectQuery, subscribeLaunchpad } from './api';
import '../../shared/ui/card.css';
import './launchpad.css';

/** pages/publication/purchase?id=: the amount in the payment currency, a confirmation, then it is frozen for review. */
export default function PurchasePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? '1') || 1;
  const info = useQuery(launchpadProjectQuery(id));
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: subscribeLaunchpad,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message });
      void queryClient.invalidateQueries({ queryKey: ['launchpad'] });
      void queryClient.invalidateQueries({ queryKey: ['user'] });
      navigate(paths.publication);
    },
    onError: (e) => {
      if (!(e instanceof ApiError && e.kind === 'not-logged-in')) setError(e.message);
    },
  });
  return (
    <QueryView query={info}>
      {({ project: p, available }) => {
        const submit = async () => {
          setError(null);
          const value = parseAmount(amount, p.pay_decimals);
          if (!amount.trim() || value === null) return setError(t('launchpad.amountRequired'));
          const range = { min: p.user_min, max: p.user_max, symbol: p.pay_currency };
          if (isLess(value, p.user_min) || isGreater(value, p.user_max))
            return setError(t('launchpad.range', range));
          if (available !== null && isGreater(value, available)) return setError(t('launchpad.insufficient'));
          const ok = await Dialog.confirm({
            title: t('launchpad.confirmTitle'),
            content: t('launchpad.confirm', {
              amount: formatAmount(value, p.pay_decimals),
              symbol: p.pay_currency,
              coin: p.coin,
            }),
            confirmText: t('common.confirm'),
            cancelText: t('common.cancel'),
          });
          if (ok) mutation.mutate({ project_id: String(p.id), amount: value });
        };
        return (
          <div className="v-card-page">
            <h2 className="v-card-title">
              {p.name} ({p.coin})
            </h2>
            <p>
              {t('launchpad.issuePrice')}: {p.issue_price} {p.pay_currency}
            </p>
            <label htmlFor="lp-amount" className="v-card-label">
              {t('launchpad.amount')} ({p.pay_currency})
            </label>
            <div className="v-card-amount">
              <Input
                id="lp-amount"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                placeholder={t('launchpad.range', {
                  min: p.user_min,
                  max: p.user_max,
                  symbol: p.pay_currency,
                })}
                onChange={(v) => setAmount(cleanAmountInput(v, p.pay_decimals))}
              />
            </div>
            <p className="v-card-hint">
              {t('launchpad.available')}:{' '}
              {available === null ? '—' : `${formatAmount(available, p.pay_decimals)} ${p.pay_currency}`}
            </p>
            {error && (
              <p role="alert" className="v-card-error">
                {error}
              </p>
            )}
            <Button
              block
              color="primary"
              loading={mutation.isPending}
              disabled={p.state !== 'subscribing'}
              onClick={() => void submit()}
            >
              {t('launchpad.subscribe')}
            </Button>
          </div>
        );
      }}
    </QueryView>
  );
}
