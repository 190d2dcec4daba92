import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { formatTime } from '../../shared/datetime';
import { formatAmount } from '../../shared/money';
import { href } from '../../shared/paths';
import { QueryView } from '../../shared/ui/QueryView';
import { launchpadProjectQuery, percent } from './api';
import '../../shared/ui/card.css';
import './launchpad.css';

/** pages/publication/details?id=: the project's terms and introduction. */
export default function DetailsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id') ?? '1') || 1;
  const info = useQuery(launchpadProjectQuery(id));
  return (
    <QueryView query={info}>
      {({ project: p }) => (
        <div className="v-card-page">
          <h2 className="v-card-title">
            {p.name} ({p.coin})
          </h2>
          <dl className="v-card-dl">
            <dt>{t('launchpad.stateLabel')}</dt>
            <dd>{t(`launchpad.state.${p.state}`)}</dd>
            <dt>{t('launchpad.issuePrice')}</dt>
            <dd>
              {p.issue_price} {p.pay_currency}
            </dd>
            <dt>{t('launchpad.payCurrency')}</dt>
            <dd>{p.pay_currency}</dd>
            <dt>{t('launchpad.totalSupply')}</dt>
            <dd>
              {formatAmount(p.total_supply, p.coin_decimals)} {p.coin}
            </dd>
            <dt>{t('launchpad.limits')}</dt>
            <dd>
              {formatAmount(p.user_min, p.pay_decimals)} – {formatAmount(p.user_max, p.pay_decimals)}{' '}
              {p.pay_currency}
            </dd>
            <dt>{t('launchpad.startTime')}</dt>
            <dd>{formatTime(p.starts_at)}</dd>
            <dt>{t('launchpad.closeTime')}</dt>
            <dd>{formatTime(p.ends_at)}</dd>
            <dt>{t('launchpad.launchTime')}</dt>
            <dd>{formatTime(p.launch_at)}</dd>
            <dt>{t('launchpad.lockup')}</dt>
            <dd>{t('launchpad.days', { count: p.lockup_days })}</dd>
            <dt>{t('launchpad.expectedReturn')}</dt>
            <dd>{percent(p.expected_return)}%</dd>
            <dt>{t('launchpad.progress')}</dt>
            <dd>
              {formatAmount(p.subscribed, p.pay_decimals)} / {formatAmount(p.capacity, p.pay_decimals)}
            </dd>
          </dl>
          <h3 className="v-launchpad-subtitle">{t('launchpad.intro')}</h3>
          <p className="v-launchpad-intro">{p.intro}</p>
          <Button
            block
            color="primary"
            disabled={p.state !== 'subscribing'}
            onClick={() => navigate(href('publicationPurchase', { id: p.id }))}
          >
            {t('launchpad.subscribe')}
          </Button>
        </div>
      )}
    </QueryView>
  );
}
