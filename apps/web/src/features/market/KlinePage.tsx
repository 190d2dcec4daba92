import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CHART_INTERVALS,
  type ChartInterval,
  MarketEvents,
  MarketStreams,
  type MarketTicker,
  type OrderSide,
  SpotEvents,
} from '@verdant/api';
import { Button } from 'antd-mobile';
import {
  lazy,
  memo,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { currentLang } from '../../shared/i18n';
import { useLive } from '../../shared/live';
import { useAfterFirstPaint, useFrameBatch } from '../../shared/live-frame';
import { mergeTickers, tickersQuery } from '../../shared/markets';
import { href, loginHref } from '../../shared/paths';
import { isLoggedIn, useSession } from '../../shared/session';
import { useTheme } from '../../shared/theme';
import { EmptyState } from '../../shared/ui/EmptyState';
import { QueryFallback } from '../../shared/ui/QueryView';
import { TabRow } from '../../shared/ui/TabRow';
import { tradeKeys } from './api';
import { BookPanel } from './components/BookPanel';
import {
  MAIN_INDICATORS,
  type MainIndicator,
  SUB_INDICATORS,
  type SubIndicator,
} from './components/chart-options';
import { TickerSummary } from './components/TickerSummary';
import './components/candle-chart.css';
import './components/order-list.css';
import './components/tabs-row.css';
import './kline.css';

// klinecharts is only downloaded by this page, and only after the page's text is on the screen
const loadChart = () => import('./components/CandleChart');
const CandleChart = lazy(loadChart);
// the buy/sell sheet (popup, form, decimal arithmetic): after the first paint, for users only
const loadSheet = () => import('./components/OrderSheet');
const OrderSheet = lazy(loadSheet);
// the user's orders (below the fold, with their cancel dialog): users only, after the first paint
const OrderList = lazy(() => import('./components/OrderList').then((m) => ({ default: m.OrderList })));
// the star and what adding a favourite needs (dialog, toast): after the first paint
const FavouriteAction = lazy(() => import('./components/FavouriteAction'));

const DEFAULT_SYMBOL = 'btcusdt';
/** Quote coins, to name the pair from the address before the market list arrives. */
const QUOTES = ['usdt', 'usdc', 'btc', 'eth'];

function normalise(raw: string | null): string {
  return (raw ?? DEFAULT_SYMBOL).toLowerCase().replace(/[^a-z0-9]/g, '') || DEFAULT_SYMBOL;
}

/** "btcusdt" → BTC and USDT, a guess shown only until the market list says. */
function guessPair(symbol: string): { base: string; name: string } {
  const quote = QUOTES.find((q) => symbol.endsWith(q) && symbol.length > q.length);
  if (!quote) return { base: '', name: symbol.toUpperCase() };
  const base = symbol.slice(0, -quote.length).toUpperCase();
  return { base, name: `${base}/${quote.toUpperCase()}` };
}

/** The market's ticker from the socket into the cached lists, at most once per animation frame. */
function useLiveTicker(symbol: string, enabled: boolean): void {
  const queryClient = useQueryClient();
  const push = useFrameBatch<MarketTicker, MarketTicker>(
    (_acc, t) => t,
    (t) => mergeTickers(queryClient, [t]),
  );
  useLive(
    [MarketStreams.ticker(symbol)],
    {
      [MarketEvents.ticker]: (p) => {
        const t = p as MarketTicker | null;
        if (t && typeof t === 'object' && t.symbol === symbol && 'last' in t) push(t);
      },
    },
    enabled,
  );
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

/** Where the chart goes, the chart's size, until klinecharts is loaded and the market known. */
function ChartSkeleton() {
  const { t } = useTranslation();
  return (
    <div className="v-market-chart v-market-chart--skeleton" role="status" aria-label={t('common.loading')} />
  );
}

/** The indicator buttons under the chart (one main, one sub indicator, each may be off). */
const Indicators = memo(function Indicators({
  main,
  sub,
  onMain,
  onSub,
}: {
  main: MainIndicator | null;
  sub: SubIndicator | null;
  onMain: (n: MainIndicator | null) => void;
  onSub: (n: SubIndicator | null) => void;
}) {
  return (
    <div className="v-market-kline__indicators">
      {MAIN_INDICATORS.map((n) => (
        <button
          key={n}
          type="button"
          aria-pressed={main === n}
          className={`v-market-kline__ind${main === n ? ' is-active' : ''}`}
          onClick={() => onMain(main === n ? null : n)}
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
          onClick={() => onSub(sub === n ? null : n)}
        >
          {n}
        </button>
      ))}
    </div>
  );
});

/**
 * pages/trade/kline?symbol=btcusdt: chart, depth, trades, the buy/sell panel and the user's orders.
 * The page's frame, the pair's name and the buy/sell bar paint at once, before any market data;
 * the chart library, the socket and the order sheet come after that first paint. Socket messages
 * are applied once per animation frame, and the book renders apart from the chart.
 */
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
  const painted = useAfterFirstPaint();

  const [interval, setIntervalChoice] = useState<ChartInterval>('1min');
  const [main, setMain] = useState<MainIndicator | null>('MA');
  const [sub, setSub] = useState<SubIndicator | null>('VOL');
  const [side, setSide] = useState<OrderSide | null>(null);
  const [sheetWanted, setSheetWanted] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  const lastSide = useRef<OrderSide>('buy');

  // asked for once the page's frame is on the screen (a cached list shows at once)
  const tickers = useQuery({ ...tickersQuery(), enabled: painted });
  useLiveTicker(symbol, painted);
  useLiveOrders(loggedIn && painted);

  useEffect(() => {
    if (painted && loggedIn) void loadSheet().catch(() => {});
  }, [painted, loggedIn]);

  // what the market list's answers and ticker messages render comes as a transition, in slices
  // that leave the main thread free between them, rather than as one long task
  const list = useDeferredValue(tickers.data);
  const market = list?.find((m) => m.symbol === symbol);
  const guess = useMemo(() => guessPair(symbol), [symbol]);
  const priceDecimals = market?.price_decimals;
  const amountDecimals = market?.amount_decimals;
  const base = market?.base;
  const quote = market?.quote;
  const bookMarket = useMemo(
    () =>
      priceDecimals === undefined || amountDecimals === undefined || base === undefined || quote === undefined
        ? undefined
        : { base, quote, price_decimals: priceDecimals, amount_decimals: amountDecimals },
    [base, quote, priceDecimals, amountDecimals],
  );

  const openForm = useCallback(
    (s: OrderSide) => {
      if (!loggedIn) {
        navigate(loginHref(location.pathname + location.search));
        return;
      }
      lastSide.current = s;
      setSheetWanted(true);
      setSide(s);
    },
    [loggedIn, navigate, location.pathname, location.search],
  );
  const onPick = useCallback(
    (p: string) => {
      setPicked(p);
      openForm(lastSide.current);
    },
    [openForm],
  );

  if (tickers.data === undefined && tickers.isError) return <QueryFallback query={tickers} />;
  if (list !== undefined && !market)
    return (
      <div className="v-market-kline__missing">
        <EmptyState text={t('market.notFound')} />
        <Button size="small" color="primary" onClick={() => navigate(href('trade'))}>
          {t('market.allMarkets')}
        </Button>
      </div>
    );

  return (
    <div className="v-market-kline">
      {painted && market && (
        <Suspense fallback={null}>
          <FavouriteAction market={market} />
        </Suspense>
      )}
      <div className="v-market-kline__title">
        <h1>{market?.name ?? guess.name}</h1>
      </div>
      <TickerSummary market={market} base={guess.base} />

      <TabRow
        className="v-market-kline__intervals"
        tabClassName="v-market-kline__interval"
        label={t('market.interval')}
        options={CHART_INTERVALS}
        value={interval}
        onChange={setIntervalChoice}
        labelOf={(i) => t(`market.intervals.${i}`)}
      />

      {painted && priceDecimals !== undefined && amountDecimals !== undefined ? (
        <Suspense fallback={<ChartSkeleton />}>
          <CandleChart
            symbol={symbol}
            interval={interval}
            pricePrecision={priceDecimals}
            volumePrecision={amountDecimals}
            main={main}
            sub={sub}
            theme={theme}
            lang={currentLang()}
          />
        </Suspense>
      ) : (
        <ChartSkeleton />
      )}

      <Indicators main={main} sub={sub} onMain={setMain} onSub={setSub} />

      <BookPanel symbol={symbol} market={bookMarket} live={painted} onPick={onPick} />

      {loggedIn ? (
        painted &&
        market && (
          <Suspense fallback={null}>
            <OrderList market={market} />
          </Suspense>
        )
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

      {sheetWanted && market && (
        <Suspense fallback={null}>
          <OrderSheet
            market={market}
            side={side}
            onSide={(s) => {
              setSide(s);
              lastSide.current = s;
            }}
            onClose={() => setSide(null)}
            pickedPrice={picked}
            onPlaced={() => {
              setSide(null);
              void queryClient.invalidateQueries({ queryKey: tradeKeys.deal(symbol) });
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
