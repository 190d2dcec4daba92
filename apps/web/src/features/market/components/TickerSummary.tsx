import type { MarketTicker } from '@verdant/api';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatChange, formatCompact, formatDecimal, trendOf } from '../../../shared/markets';
import './ticker-summary.css';

/**
 * Last price, 24 h change, high, low and volume of one market. Before the market list arrives
 * (`market` undefined) the same boxes with dashes, so nothing moves when the figures come.
 */
export const TickerSummary = memo(function TickerSummary({
  market,
  base,
}: {
  market: MarketTicker | undefined;
  /** The base coin, known from the address before the market list arrives. */
  base: string;
}) {
  const { t } = useTranslation();
  const trend = market ? trendOf(market.change_24h) : 'flat';
  const d = market?.price_decimals ?? 2;
  return (
    <section
      className="v-market-ticker"
      aria-label={t('market.summary')}
      aria-busy={market ? undefined : true}
    >
      <div className="v-market-ticker__main">
        <strong className={`v-market-ticker__last v-text--${trend}`} data-testid="last-price">
          {formatDecimal(market?.last, d)}
        </strong>
        <span className={`v-text--${trend}`}>{market ? formatChange(market.change_24h) : '—'}</span>
        <small>
          {t('market.index')} {formatDecimal(market?.index_price, d)}
        </small>
      </div>
      <dl className="v-market-ticker__stats">
        <div>
          <dt>{t('market.high24h')}</dt>
          <dd>{formatDecimal(market?.high_24h, d)}</dd>
        </div>
        <div>
          <dt>{t('market.low24h')}</dt>
          <dd>{formatDecimal(market?.low_24h, d)}</dd>
        </div>
        <div>
          <dt>{t('market.volume24h', { coin: market?.base ?? base })}</dt>
          <dd>{market ? formatCompact(market.volume_24h) : '—'}</dd>
        </div>
      </dl>
    </section>
  );
});
