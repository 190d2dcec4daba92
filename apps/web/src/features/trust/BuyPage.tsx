import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Dialog, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../shared/api';
import { formatAmount, isGreater, isLess, parseAmount } from '../../shared/money';
import { href, paths } from '../../shared/paths';
import { QueryView } from '../../shared/ui/QueryView';
import { AmountField } from './AmountField';
import { buyTrust, percent, trustProductQuery } from './api';
import '../../shared/ui/card.css';

/** pages/finance/buyPage?id=: amount, agreement, confirmation sheet, then the principal is locked. */
export default function BuyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? '1') || 1;
  const info = useQuery(trustProductQuery(id));
  const [amount, setAmount] = useState('');
  const [agree, setAgree] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: buyTrust,
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message });
      void queryClient.invalidateQueries({ queryKey: ['user'] });
      void queryClient.invalidateQueries({ queryKey: ['trust'] });
      navigate(paths.financeOrders);
    },
    onError: (e) => {
      if (!(e instanceof ApiError && e.kind === 'not-logged-in')) setError(e.message);
    },
  });

  return (
    <QueryView query={info}>
      {({ product: p, available }) => {
        const submit = async () => {
          setError(null);
          // spec §5 in order: not empty, at least the minimum escrow, agreement ticked, balance
          const value = parseAmount(amount, p.decimals);
          if (!amount.trim() || value === null) return setError(t('trust.amountRequired'));
          if (isLess(value, p.min_amount))
            return setError(
              t('trust.belowMinimum', { min: formatAmount(p.min_amount, p.decimals), symbol: p.currency }),
            );
          if (!agree) return setError(t('trust.agreementRequired'));
          if (available !== null && isGreater(value, available)) return setError(t('trust.insufficient'));
          const ok = await Dialog.confirm({
            title: t('trust.confirmTitle'),
            content: t('trust.confirmBuy', {
              amount: formatAmount(value, p.decimals),
              symbol: p.currency,
              name: p.name,
              days: p.term_days,
            }),
            confirmText: t('common.confirm'),
            cancelText: t('common.cancel'),
          });
          if (ok) mutation.mutate({ product_id: String(p.id), amount: value, agree: '1' });
        };
        return (
          <div className="v-card-page">
            <h2 className="v-card-title">{p.name}</h2>
            <dl className="v-card-dl">
              <dt>{t('trust.dailyRate')}</dt>
              <dd>{percent(p.daily_rate)}%</dd>
              <dt>{t('trust.term')}</dt>
              <dd>{t('trust.days', { count: p.term_days })}</dd>
              <dt>{t('trust.minAmount')}</dt>
              <dd>
                {formatAmount(p.min_amount, p.decimals)} {p.currency}
              </dd>
              <dt>{t('trust.remaining')}</dt>
              <dd>
                {formatAmount(p.remaining, p.decimals)} {p.currency}
              </dd>
            </dl>
            <label className="v-card-label" htmlFor="trust-amount">
              {t('trust.amount')}
            </label>
            <AmountField
              id="trust-amount"
              value={amount}
              onChange={setAmount}
              decimals={p.decimals}
              symbol={p.currency}
              placeholder={t('trust.minPlaceholder', { min: formatAmount(p.min_amount, p.decimals) })}
            />
            <p className="v-card-hint">
              {t('trust.available')}:{' '}
              {available === null ? '—' : `${formatAmount(available, p.decimals)} ${p.currency}`}
            </p>
            <Checkbox checked={agree} onChange={setAgree} className="v-trust-agree">
              {t('trust.agreement')}
            </Checkbox>
            {error && (
              <p role="alert" className="v-card-error">
                {error}
              </p>
            )}
            <Button block color="primary" loading={mutation.isPending} onClick={() => void submit()}>
              {t('trust.buy')}
            </Button>
            <Button block fill="none" onClick={() => navigate(href('financeRules', { id: p.id }))}>
              {t('trust.rules')}
            </Button>
          </div>
        );
      }}
    </QueryView>
  );
}
