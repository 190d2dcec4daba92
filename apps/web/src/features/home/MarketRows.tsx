import type { UseQueryResult } from '@tanstack/react-query';
import type { MarketTicker } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { compareDecimalStrings, formatChange, formatDecimal, trendOf } from '../../shared/markets';
import { href } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';

type TickersQuery = UseQueryResult<MarketTicker[], Error>;

/** Home keeps to plain elements: antd-mobile components would weigh on the first load. */
function LoadFailed({ query }: { query: TickersQuery }) {
  const { t } = useTranslation();
  return (
    <div className="v-empty v-home__error" role="alert">
      <span>{query.error?.message || t('common.error')}</span>
      <button type="button" className="v-home__retry" onClick={() => void query.refetch()}>
        {t('common.retry')}
      </button>
    </div>
  );
}

function Skeleton({ rows }: { rows: number }) {
  const { t } = useTranslation();
  return (
    <div className="v-home__skeleton" role="status" aria-label={t('common.loading')}>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <div key={i} className="v-home__skeleton-row" />
      ))}
    </div>
  );
}

/** The trading pairs with latest price and 24 h change; a row opens the chart. */
export function MarketRows({ query }: { query: TickersQuery }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  if (query.isPending) return <Skeleton rows={6} />;
  if (query.isError && !query.data) return <LoadFailed query={query} />;
  const list = query.data ?? [];
  if (list.length === 0) return <EmptyState text={t('common.noData')} />;
  return (
    <ul className="v-home__rows">
      {list.map((m) => (
        <li key={m.symbol}>
          <button
            type="button"
            className="v-home__row"
            onClick={() => navigate(href('kline', { symbol: m.symbol }))}
          >
            <span className="v-home__pair">
              <strong>{m.base}</strong>
              <small>/{m.quote}</small>
              <em>
                {t('market.vol')} {formatDecimal(m.volume_24h, 2, false)}
              </em>
            </span>
            <span className="v-home__price" data-testid={`price-${m.symbol}`}>
              {formatDecimal(m.last, m.price_decimals)}
            </span>
            <span className={`v-chip v-chip--${trendOf(m.change_24h)}`}>{formatChange(m.change_24h)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The three markets that rose most in 24 hours. */
export function Gainers({ query }: { query: TickersQuery }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const top = [...(query.data ?? [])]
    .filter((m) => m.change_24h !== null)
    .sort((a, b) => compareDecimalStrings(b.change_24h, a.change_24h))
    .slice(0, 3);
  return (
    <section className="v-home__gainers" aria-labelledby="home-gainers">
      <h2 id="home-gainers">{t('market.gainers')}</h2>
      {query.isPending ? (
        // cards of the same size, empty: the prices arrive without moving what is below
        <div className="v-home__gainer-cards" role="status" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <div key={i} className="v-home__gainer v-home__gainer--pending" aria-hidden="true">
              <span className="v-home__gainer-name">{'\u00a0'}</span>
              <span className="v-home__gainer-price">{'\u00a0'}</span>
              <span>{'\u00a0'}</span>
            </div>
          ))}
        </div>
      ) : top.length === 0 ? (
        query.isError ? (
          <LoadFailed query={query} />
        ) : (
          <EmptyState text={t('common.noData')} />
        )
      ) : (
        <div className="v-home__gainer-cards">
          {top.map((m) => {
            const trend = trendOf(m.change_24h);
            return (
              <button
                key={m.symbol}
                type="button"
                className="v-home__gainer"
                onClick={() => navigate(href('kline', { symbol: m.symbol }))}
              >
                <span className="v-home__gainer-name">{m.name}</span>
                <span className={`v-home__gainer-price v-text--${trend}`}>
                  {formatDecimal(m.last, m.price_decimals)}
                </span>
                <span className={`v-text--${trend}`}>{formatChange(m.change_24h)}</span>
              </button>
            );
          })}
        </div>
      )}
    </section>
  );
}
