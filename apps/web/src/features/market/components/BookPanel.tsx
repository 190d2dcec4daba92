import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type Deal,
  type DepthMessage,
  MarketEvents,
  MarketStreams,
  type MarketTicker,
  type PublicTrade,
  type TradesMessage,
} from '@verdant/api';
import { memo, useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLive } from '../../../shared/live';
import { useFrameBatch } from '../../../shared/live-frame';
import { EmptyState } from '../../../shared/ui/EmptyState';
import { QueryView, SkeletonRows } from '../../../shared/ui/QueryView';
import { TabRow } from '../../../shared/ui/TabRow';
import { dealQuery, tradeKeys } from '../api';
import { DepthBook } from './DepthBook';
import { RecentTrades } from './RecentTrades';

const MAX_TRADES = 50;
/** Under the chart: the order book or the latest trades. */
const BOOK_VIEWS = ['depth', 'trades'] as const;

/** What the book and the trades need of a market: its coins and how many decimals they show. */
export type BookMarket = Pick<MarketTicker, 'base' | 'quote' | 'price_decimals' | 'amount_decimals'>;

/** Socket messages of a frame: the latest depth, the trades newest first (at most MAX_TRADES). */
interface DealBatch {
  depth?: Deal['depth'];
  trades: PublicTrade[];
}

/**
 * Keeps the market's recent trades and depth live in the query cache, one cache write (one
 * render of the book) per animation frame however many messages arrived.
 */
function useLiveDeal(symbol: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  const push = useFrameBatch<{ depth?: Deal['depth']; trades?: PublicTrade[] }, DealBatch>(
    (acc, m) => ({
      depth: m.depth ?? acc?.depth,
      trades: m.trades ? [...m.trades, ...(acc?.trades ?? [])].slice(0, MAX_TRADES) : (acc?.trades ?? []),
    }),
    (batch) =>
      queryClient.setQueryData<Deal>(tradeKeys.deal(symbol), (old) => {
        if (!old) return old;
        let trades = old.trades;
        if (batch.trades.length) {
          const seen = new Set(old.trades.map((tr) => tr.id));
          const fresh = batch.trades.filter((tr) => {
            if (seen.has(tr.id)) return false;
            seen.add(tr.id);
            return true;
          });
          if (fresh.length) trades = [...fresh, ...old.trades].slice(0, MAX_TRADES);
        }
        const depth = batch.depth ?? old.depth;
        return trades === old.trades && depth === old.depth ? old : { ...old, depth, trades };
      }),
  );
  useLive(
    [MarketStreams.depth(symbol), MarketStreams.trades(symbol)],
    {
      [MarketEvents.depth]: (p) => {
        const m = p as DepthMessage;
        if (m?.symbol === symbol) push({ depth: { bids: m.bids, asks: m.asks } });
      },
      [MarketEvents.trades]: (p) => {
        const m = p as TradesMessage;
        // a message lists its trades oldest first
        if (m?.symbol === symbol && Array.isArray(m.list)) push({ trades: [...m.list].reverse() });
      },
    },
    enabled,
  );
}

interface Props {
  symbol: string;
  /** Unknown until the market list arrives: grey rows until then. */
  market: BookMarket | undefined;
  /** Whether the page's first paint is done: the book's query and socket streams wait for it. */
  live: boolean;
  onPick: (price: string) => void;
}

/**
 * The order book or the latest trades, with their tabs. Its own query and socket updates render
 * this panel only, never the chart or the rest of the page.
 */
export const BookPanel = memo(function BookPanel({ symbol, market, live, onPick }: Props) {
  const { t } = useTranslation();
  const [book, setBook] = useState<(typeof BOOK_VIEWS)[number]>('depth');
  const deal = useQuery({ ...dealQuery(symbol), enabled: live });
  // rendered as a transition, in slices (see KlinePage)
  const data = useDeferredValue(deal.data);
  useLiveDeal(symbol, live);
  return (
    <section className="v-market-kline__book">
      <TabRow
        className="v-market-tabs-row"
        tabClassName="v-market-tabs-row__tab"
        options={BOOK_VIEWS}
        value={book}
        onChange={setBook}
        labelOf={(k) => t(k === 'depth' ? 'market.depth' : 'market.trades')}
      />
      {market === undefined ? (
        <SkeletonRows rows={6} />
      ) : (
        <QueryView query={{ ...deal, data }} rows={6}>
          {(d) =>
            book === 'depth' ? (
              d.depth.bids.length + d.depth.asks.length === 0 ? (
                <EmptyState text={t('common.noData')} />
              ) : (
                <DepthBook depth={d.depth} market={market} onPick={onPick} />
              )
            ) : d.trades.length === 0 ? (
              <EmptyState text={t('common.noData')} />
            ) : (
              <RecentTrades trades={d.trades} market={market} />
            )
          }
        </QueryView>
      )}
    </section>
  );
});
