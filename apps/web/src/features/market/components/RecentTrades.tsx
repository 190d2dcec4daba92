import type { MarketTicker, PublicTrade } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../../shared/markets';
import './recent-trades.css';

const pad = (n: number) => String(n).padStart(2, '0');
function clock(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The latest trades of the market, newest first; the colour is the taker's side. */
export function RecentTrades({ trades, market }: { trades: PublicTrade[]; market: MarketTicker }) {
  const { t } = useTranslation();
  return (
    <div className="v-market-trades" data-testid="trades">
      <div className="v-market-trades__row v-market-trades__row--head">
        <span>{t('market.time')}</span>
        <span>{t('market.price', { coin: market.quote })}</span>
        <span>{t('market.qty', { coin: market.base })}</span>
      </div>
      <ol className="v-market-trades__list">
        {trades.slice(0, 20).map((tr) => (
          <li key={tr.id} className="v-market-trades__row">
            <span>{clock(tr.time)}</span>
            <span className={tr.side === 'buy' ? 'v-text--up' : 'v-text--down'}>
              {formatDecimal(tr.price, market.price_decimals)}
            </span>
            <span>{formatDecimal(tr.qty, market.amount_decimals)}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
