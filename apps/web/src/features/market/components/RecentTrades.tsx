import type { PublicTrade } from '@verdant/api';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../../shared/markets';
import type { BookMarket } from './BookPanel';
import './recent-trades.css';

const SHOWN = 20;
const pad = (n: number) => String(n).padStart(2, '0');
function clock(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** One trade: a trade never changes, so a new one arriving renders only itself. */
const TradeRow = memo(function TradeRow({
  trade,
  priceDecimals,
  amountDecimals,
}: {
  trade: PublicTrade;
  priceDecimals: number;
  amountDecimals: number;
}) {
  return (
    <li className="v-market-trades__row">
      <span>{clock(trade.time)}</span>
      <span className={trade.side === 'buy' ? 'v-text--up' : 'v-text--down'}>
        {formatDecimal(trade.price, priceDecimals)}
      </span>
      <span>{formatDecimal(trade.qty, amountDecimals)}</span>
    </li>
  );
});

/** The latest trades of the market, newest first; the colour is the taker's side. */
export const RecentTrades = memo(function RecentTrades({
  trades,
  market,
}: {
  trades: PublicTrade[];
  market: BookMarket;
}) {
  const { t } = useTranslation();
  return (
    <div className="v-market-trades" data-testid="trades">
      <div className="v-market-trades__row v-market-trades__row--head">
        <span>{t('market.time')}</span>
        <span>{t('market.price', { coin: market.quote })}</span>
        <span>{t('market.qty', { coin: market.base })}</span>
      </div>
      <ol className="v-market-trades__list">
        {trades.slice(0, SHOWN).map((tr) => (
          <TradeRow
            key={tr.id}
            trade={tr}
            priceDecimals={market.price_decimals}
            amountDecimals={market.amount_decimals}
          />
        ))}
      </ol>
    </div>
  );
});
