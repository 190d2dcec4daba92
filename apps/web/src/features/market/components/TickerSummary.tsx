import type { MarketTicker } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { formatChange, formatCompact, formatDecimal, trendOf } from '../../../shared/markets';
import './ticker-summary.css';

/** Last price, 24 h change, high, low and volume of one market. */
export function TickerSummary({ market }: { market: MarketTicker }) {
  const { t } = useTranslation();
  const trend = trendOf(market.change_24h);
  const d = market.price_decimals;
  return (
    <section className="v-market-ticker" aria-label={t('market.summary')}>
      <div className="v-market-ticker__main">
        <strong className={`v-market-ticker__last v-text--${trend}`} data-testid="last-price">
          {formatDecimal(market.last, d)}
        </strong>
        <span className={`v-text--${trend}`}>{formatChange(market.change_24h)}</span>
        <small>
          {t('market.index')} {formatDecimal(market.index_price, d)}
        </small>
      </div>
      <dl className="v-market-ticker__stats">
        <div>
          <dt>{t('market.high24h')}</dt>
          <dd>{formatDecimal(market.high_24h, d)}</dd>
        </div>
        <div>
          <dt>{t('market.low24h')}</dt>
          <dd>{formatDecimal(market.low_24h, d)}</dd>
        </div>
        <div>
          <dt>{t('market.volume24h', { coin: market.base })}</dt>
          <dd>{formatCompact(market.volume_24h)}</dd>
        </div>
      </dl>
    </section>
  );
}
