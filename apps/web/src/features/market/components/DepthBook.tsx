import type { Depth, DepthLevel } from '@verdant/api';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { compareDecimalStrings, formatDecimal } from '../../../shared/markets';
import type { BookMarket } from './BookPanel';
import './depth-book.css';

const ROWS = 10;

/** Width of a level's bar, relative to the largest shown (a drawing, not money). */
function widths(levels: DepthLevel[]): number[] {
  const max = levels.reduce((m, l) => (compareDecimalStrings(l.qty, m) > 0 ? l.qty : m), '0');
  const top = Number(max);
  return levels.map((l) => (top > 0 ? Math.max(2, Math.round((Number(l.qty) / top) * 100)) : 0));
}

/** One level; a depth message that leaves it as it was does not render it again. */
const Level = memo(function Level({
  price,
  qty,
  width,
  side,
  priceDecimals,
  amountDecimals,
  onPick,
}: {
  price: string;
  qty: string;
  width: number;
  side: 'bid' | 'ask';
  priceDecimals: number;
  amountDecimals: number;
  onPick: (price: string) => void;
}) {
  const p = formatDecimal(price, priceDecimals);
  const q = formatDecimal(qty, amountDecimals);
  return (
    <li>
      <button type="button" className="v-market-depth__row" onClick={() => onPick(price)}>
        <span className="v-market-depth__bar" style={{ width: `${width}%` }} />
        {side === 'bid' ? (
          <>
            <span>{q}</span>
            <span className="v-text--up">{p}</span>
          </>
        ) : (
          <>
            <span className="v-text--down">{p}</span>
            <span>{q}</span>
          </>
        )}
      </button>
    </li>
  );
});

function Side({
  levels,
  side,
  market,
  onPick,
}: {
  levels: DepthLevel[];
  side: 'bid' | 'ask';
  market: BookMarket;
  onPick: (price: string) => void;
}) {
  const w = widths(levels);
  return (
    <ol className={`v-market-depth__side v-market-depth__side--${side}`}>
      {levels.map((l, i) => (
        <Level
          key={l.price}
          price={l.price}
          qty={l.qty}
          width={w[i] ?? 0}
          side={side}
          priceDecimals={market.price_decimals}
          amountDecimals={market.amount_decimals}
          onPick={onPick}
        />
      ))}
    </ol>
  );
}

/** The order book: bids left (best first), asks right (best first). Tapping a level picks its price. */
export const DepthBook = memo(function DepthBook({
  depth,
  market,
  onPick,
}: {
  depth: Depth;
  market: BookMarket;
  onPick: (price: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="v-market-depth" data-testid="depth">
      <div className="v-market-depth__head">
        <span>{t('market.bidQty', { coin: market.base })}</span>
        <span>{t('market.price', { coin: market.quote })}</span>
        <span>{t('market.askQty', { coin: market.base })}</span>
      </div>
      <div className="v-market-depth__body">
        <Side levels={depth.bids.slice(0, ROWS)} side="bid" market={market} onPick={onPick} />
        <Side levels={depth.asks.slice(0, ROWS)} side="ask" market={market} onPick={onPick} />
      </div>
    </div>
  );
});
