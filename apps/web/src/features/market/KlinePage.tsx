import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CHART_INTERVALS,
  type ChartInterval,
  type Deal,
  type DepthMessage,
  MarketEvents,
  MarketStreams,
  type OrderSide,
  SpotEvents,
  type TradesMessage,
} from '@verdant/api';
import { Button, Popup } from 'antd-mobile';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { currentLang } from '../../shared/i18n';
import { useLive } from '../../shared/live';
import { tickersQuery, useLiveTickers } from '../../shared/markets';
import { href, loginHref } from '../../shared/paths';
import { isLoggedIn, useSession } from '../../shared/session';
import { useTheme } from '../../shared/theme';
import { EmptyState } from '../../shared/ui/EmptyState';
import { NavBarAction } from '../../shared/ui/NavBarAction';
import { PageLoading } from '../../shared/ui/PageLoading';
import { QueryView } from '../../shared/ui/QueryView';
import { TabRow } from '../../shared/ui/TabRow';
import { dealQuery, tradeKeys } from './api';
import {
  MAIN_INDICATORS,
  type MainIndicator,
  SUB_INDICATORS,
  type SubIndicator,
} from './components/chart-options';
import { DepthBook } from './components/DepthBook';
import { FavouriteStar } from './components/FavouriteStar';
import { OrderForm } from './components/OrderForm';
import { OrderList } from './components/OrderList';
import { RecentTrades } from './components/RecentTrades';
import { TickerSummary } from './components/TickerSummary';
import { useToggleFavourite } from './favourites';
import './components/candle-chart.css';
import './components/order-list.css';
import './components/tabs-row.css';
import './kline.css';

// klinecharts is only downloaded by this page, and only once it renders the chart
const CandleChart = lazy(() => import('./components/CandleChart'));

const DEFAULT_SYMBOL = 'btcusdt';
const MAX_TRADES = 50;
/** Under the chart: the order book or the latest trades. */
const BOOK_VIEWS = ['depth', 'trades'] as const;

function normalise(raw: string | null): string {
  return (raw ?? DEFAULT_SYMBOL).toLowerCase().replace(/[^a-z0-9]/g, '') || DEFAULT_SYMBOL;
}

/** Keeps the market's recent trades and depth live in the query cache. */
function useLiveDeal(symbol: string): void {
  const queryClient = useQueryClient();
  const key = tradeKeys.deal(symbol);
  useLive([MarketStreams.depth(symbol), MarketStreams.trades(symbol)], {
    [MarketEvents.depth]: (p) => {
      const m = p as DepthMessage;
      if (m?.symbol !== symbol) return;
      queryClient.setQueryData<Deal>(key, (old) =>
        old ? { ...old, depth: { bids: m.bids, asks: m.asks } } : old,
      );
    },
    [MarketEvents.trades]: (p) => {
      const m = p as TradesMessage;
      if (m?.symbol !== symbol || !Array.isArray(m.list)) return;
      queryClient.setQueryData<Deal>(key, (old) => {
        if (!old) return old;
        const seen = new Set(old.trades.map((tr) => tr.id));
        const fresh = [...m.list].reverse().filter((tr) => !seen.has(tr.id));
        return { ...old, trades: [...fresh, ...old.trades].slice(0, MAX_TRADES) };
      });
    },
  });
}

/** The user's own order changes: refresh their orders and balances. */
function useLiveOrders(enabled: boolean): void {
  const queryClient = useQueryClient();
  useLive(
    [],
    {
      [SpotEvents.order]: () => {
        void queryClient.invalidateQueries({ queryKey: tradeKeys.orders() });
        void queryClient.invalidateQueries({ queryKey: tradeKeys.balances() });
      },
    },
    enabled,
  );
}

/** pages/trade/kline?symbol=btcusdt: chart, depth, trades, the buy/sell panel and the user's orders. */
export default function KlinePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const symbol = normalise(params.get('symbol'));
  const session = useSession();
  const loggedIn = isLoggedIn(session);
  const theme = useTheme();
  const queryClient = useQueryClient();

  const [interval, setIntervalChoice] = useState<ChartInterval>('1min');
  const [main, setMain] = useState<MainIndicator | null>('MA');
  const [sub, setSub] = useState<SubIndicator | null>('VOL');
  const [book, setBook] = useState<(typeof BOOK_VIEWS)[number]>('depth');
  const [side, setSide] = useState<OrderSide | null>(null);
  const [lastSide, setLastSide] = useState<OrderSide>('buy');
  const [picked, setPicked] = useState<string | null>(null);

  const tickers = useQuery(tickersQuery());
  const deal = useQuery(dealQuery(symbol));
  useLiveTickers(symbol);
  useLiveDeal(symbol);
  useLiveOrders(loggedIn);
  const toggle = useToggleFavourite();

  return (
    <QueryView query={tickers}>
      {(list) => {
        const market = list.find((m) => m.symbol === symbol);
        if (!market)
          return (
            <div className="v-market-kline__missing">
              <EmptyState text={t('market.notFound')} />
              <Button size="small" color="primary" onClick={() => navigate(href('trade'))}>
                {t('market.allMarkets')}
              </Button>
            </div>
          );

        const openForm = (s: OrderSide) => {
          if (!loggedIn) {
            navigate(loginHref(location.pathname + location.search));
            return;
          }
          setLastSide(s);
          setSide(s);
        };

        return (
          <div className="v-market-kline">
            <NavBarAction>
              <FavouriteStar
                on={market.favourite}
                name={market.name}
                onToggle={() => void toggle(symbol, !market.favourite)}
              />
            </NavBarAction>
            <div className="v-market-kline__title">
              <h1>{market.name}</h1>
            </div>
            <TickerSummary market={market} />

            <TabRow
              className="v-market-kline__intervals"
              tabClassName="v-market-kline__interval"
              label={t('market.interval')}
              options={CHART_INTERVALS}
              value={interval}
              onChange={setIntervalChoice}
              labelOf={(i) => t(`market.intervals.${i}`)}
            />

            <Suspense
              fallback={
                <div className="v-market-chart">
                  <PageLoading />
                </div>
              }
            >
              <CandleChart
                symbol={symbol}
                interval={interval}
                pricePrecision={market.price_decimals}
                volumePrecision={market.amount_decimals}
                main={main}
                sub={sub}
                theme={theme}
                lang={currentLang()}
              />
            </Suspense>

            <div className="v-market-kline__indicators">
              {MAIN_INDICATORS.map((n) => (
                <button
                  key={n}
                  type="button"
                  aria-pressed={main === n}
                  className={`v-market-kline__ind${main === n ? ' is-active' : ''}`}
                  onClick={() => setMain(main === n ? null : n)}
                >
                  {n}
                </button>
              ))}
              <span className="v-market-kline__ind-sep" aria-hidden="true" />
              {SUB_INDICATORS.map((n) => (
                <button
                  key={n}
                  type="button"
                  aria-pressed={sub === n}
                  className={`v-market-kline__ind${sub === n ? ' is-active' : ''}`}
                  onClick={() => setSub(sub === n ? null : n)}
                >
                  {n}
                </button>
              ))}
            </div>

            <section className="v-market-kline__book">
              <TabRow
                className="v-market-tabs-row"
                tabClassName="v-market-tabs-row__tab"
                options={BOOK_VIEWS}
                value={book}
                onChange={setBook}
                labelOf={(k) => t(k === 'depth' ? 'market.depth' : 'market.trades')}
              />
              <QueryView query={deal}>
                {(d) =>
                  book === 'depth' ? (
                    d.depth.bids.length + d.depth.asks.length === 0 ? (
                      <EmptyState text={t('common.noData')} />
                    ) : (
                      <DepthBook
                        depth={d.depth}
                        market={market}
                        onPick={(p) => {
                          setPicked(p);
                          openForm(lastSide);
                        }}
                      />
                    )
                  ) : d.trades.length === 0 ? (
                    <EmptyState text={t('common.noData')} />
                  ) : (
                    <RecentTrades trades={d.trades} market={market} />
                  )
                }
              </QueryView>
            </section>

            {loggedIn ? (
              <OrderList market={market} />
            ) : (
              <section className="v-market-orders v-market-orders--visitor">
                <EmptyState text={t('trade.loginToSeeOrders')} />
              </section>
            )}

            <div className="v-market-kline__actions">
              <Button className="v-market-kline__buy" onClick={() => openForm('buy')}>
                {loggedIn ? t('trade.buy') : t('trade.loginToBuy')}
              </Button>
              <Button className="v-market-kline__sell" onClick={() => openForm('sell')}>
                {loggedIn ? t('trade.sell') : t('trade.loginToSell')}
              </Button>
            </div>

            <Popup
              visible={side !== null}
              onMaskClick={() => setSide(null)}
              onClose={() => setSide(null)}
              bodyClassName="v-market-kline__sheet"
              destroyOnClose
            >
              {side && (
                <OrderForm
                  market={market}
                  side={side}
                  onSide={(s) => {
                    setSide(s);
                    setLastSide(s);
                  }}
                  pickedPrice={picked}
                  onPlaced={() => {
                    setSide(null);
                    void queryClient.invalidateQueries({ queryKey: tradeKeys.deal(symbol) });
                  }}
                />
              )}
            </Popup>
          </div>
        );
      }}
    </QueryView>
  );
}
