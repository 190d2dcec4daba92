import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { formatAmount } from '../../shared/money';
import { QueryView } from '../../shared/ui/QueryView';
import { percent, trustProductQuery } from './api';
import '../../shared/ui/card.css';

/** pages/finance/rulePage?id=: how the product pays and what early redemption costs (its own rule). */
export default function RulePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? '1') || 1;
  const info = useQuery(trustProductQuery(id));
  return (
    <QueryView query={info}>
      {({ product: p }) => (
        <div className="v-card-page v-card-rules">
          <h2 className="v-card-title">{p.name}</h2>
          <p>
            {t('trust.ruleYield', {
              rate: percent(p.daily_rate),
              days: p.term_days,
              total: percent(p.total_rate),
              min: formatAmount(p.min_amount, p.decimals),
              symbol: p.currency,
            })}
          </p>
          <p>{t('trust.rulePayout')}</p>
          <p>
            {p.penalty_rule === 'daily_interest'
              ? t('trust.rulePenaltyDaily', { times: p.penalty_rate })
              : t('trust.rulePenaltyRemaining', { ratio: percent(p.penalty_rate) })}
          </p>
          <p>{t('trust.ruleTruncate', { decimals: p.decimals })}</p>
        </div>
      )}
    </QueryView>
  );
}
