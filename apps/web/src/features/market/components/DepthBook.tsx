import type { Depth, DepthLevel, MarketTicker } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { compareDecimalStrings, formatDecimal } from '../../../shared/markets';
import './depth-book.css';

const ROWS = 10;

/** Width of a level's bar, relative to the largest shown (a drawing, not money). */
function widths(levels: DepthLevel[]): number[] {
  const max = levels.reduce((m, l) => (compareDecimalStrings(l.qty, m) > 0 ? l.qty : m), '0');
  const top = Number(max);
  return levels.map((l) => (top > 0 ? Math.max(2, Math.round((Number(l.qty) / top) * 100)) : 0));
}

function Side({
  levels,
  side,
  market,
  onPick,
}: {
  levels: DepthLevel[];
  side: 'bid' | 'ask';
  market: MarketTicker;
  onPick: (price: string) => void;
}) {
  const w = widths(levels);
  return (
    <ol className={`v-market-depth__side v-market-depth__side--${side}`}>
      {levels.map((l, i) => (
        <li key={l.price}>
          <button type="button" className="v-market-depth__row" onClick={() => onPick(l.price)}>
            <span className="v-market-depth__bar" style={{ width: `${w[i]}%` }} />
            {side === 'bid' ? (
              <>
                <span>{formatDecimal(l.qty, market.amount_decimals)}</span>
                <span className="v-text--up">{formatDecimal(l.price, market.price_decimals)}</span>
              </>
            ) : (
              <>
                <span className="v-text--down">{formatDecimal(l.price, market.price_decimals)}</span>
                <span>{formatDecimal(l.qty, market.amount_decimals)}</span>
              </>
            )}
          </button>
        </li>
      ))}
    </ol>
  );
}

/** The order book: bids left (best first), asks right (best first). Tapping a level picks its price. */
export function DepthBook({
  depth,
  market,
  onPick,
}: {
  depth: Depth;
  market: MarketTicker;
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
}
