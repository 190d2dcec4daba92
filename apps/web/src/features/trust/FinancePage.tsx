import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TrustProduct } from '@verdant/api';
import { Button } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatAmount } from '../../shared/money';
import { href, paths } from '../../shared/paths';
import { isLoggedIn } from '../../shared/session';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryView } from '../../shared/ui/QueryView';
import { percent, trustConfigQuery, trustReportQuery } from './api';
import '../../shared/ui/card.css';

function ProductCard({ p }: { p: TrustProduct }) {
  const { t } = useTranslation();
  const open = p.state === 'ongoing';
  return (
    <article className="v-card" aria-label={p.name}>
      <header className="v-card__head">
        <strong>{p.name}</strong>
        <span className={open ? 'v-card-state v-card-state--open' : 'v-card-state'}>
          {t(`trust.state.${p.state}`)}
        </span>
      </header>
      <div className="v-card__grid">
        <div>
          <span className="v-card__big">{percent(p.daily_rate)}%</span>
          <small>{t('trust.dailyRate')}</small>
        </div>
        <div>
          <span>{t('trust.days', { count: p.term_days })}</span>
          <small>{t('trust.term')}</small>
        </div>
        <div>
          <span>
            {formatAmount(p.min_amount, p.decimals)} {p.currency}
          </span>
          <small>{t('trust.minAmount')}</small>
        </div>
        <div>
          <span>{percent(p.total_rate)}%</span>
          <small>{t('trust.totalRate')}</small>
        </div>
      </div>
      <footer className="v-card__foot">
        <Link to={href('financeRules', { id: p.id })}>{t('trust.rules')}</Link>
        {open ? (
          <Link className="v-card__buy" to={href('financeBuy', { id: p.id })}>
            {t('trust.buy')}
          </Link>
        ) : (
          <span className="v-card__soon">{t('trust.state.soon')}</span>
        )}
      </footer>
    </article>
  );
}

/** The user's hosting at a glance (logged in only). */
function Report() {
  const { t } = useTranslation();
  const report = useQuery(trustReportQuery());
  if (!report.data) return null;
  const usdt = report.data.currencies.find((c) => c.currency === 'USDT') ?? {
    currency: 'USDT',
    decimals: 6,
    hosted: '0',
    income: '0',
  };
  return (
    <section className="v-card-report" aria-label={t('trust.report')}>
      <div>
        <small>
          {t('trust.hosted')} ({usdt.currency})
        </small>
        <strong>{formatAmount(usdt.hosted, usdt.decimals)}</strong>
      </div>
      <div>
        <small>
          {t('trust.income')} ({usdt.currency})
        </small>
        <strong>{formatAmount(usdt.income, usdt.decimals)}</strong>
      </div>
      <div>
        <small>{t('trust.hostingOrders')}</small>
        <strong>{report.data.orders.hosting}</strong>
      </div>
    </section>
  );
}

/** pages/finance/index and the Finance tab (pages/template/index): products, the user's report, links. */
export default function FinancePage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const config = useQuery(trustConfigQuery());
  const loggedIn = isLoggedIn();
  return (
    <PullToRefresh
      onRefresh={() =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: ['trust'] }),
          queryClient.invalidateQueries({ queryKey: ['user', 'trust'] }),
        ])
      }
    >
      <div className="v-card-page">
        {loggedIn && <Report />}
        <nav className="v-card-links">
          <Link to={paths.financeOrders}>
            <Button size="small" fill="outline">
              {t('titles.financeOrders')}
            </Button>
          </Link>
          <Link to={paths.publication}>
            <Button size="small" fill="outline">
              {t('titles.publication')}
            </Button>
          </Link>
        </nav>
        <QueryView query={config} isEmpty={(d) => d.products.length === 0}>
          {(d) => d.products.map((p) => <ProductCard key={p.id} p={p} />)}
        </QueryView>
      </div>
    </PullToRefresh>
  );
}
