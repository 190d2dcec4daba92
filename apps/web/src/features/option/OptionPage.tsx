import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CandlePage,
  type MarketTicker,
  OptionEvents,
  type OptionOrder,
  type OptionOrderPage,
  type OptionStatus,
  OptionStreams,
  type OptionTickMessage,
} from '@verdant/api';
import { Dialog } from 'antd-mobile';
import { DownOutline } from 'antd-mobile-icons';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useLive } from '../../shared/live';
import { tickersQuery, useLiveTickers } from '../../shared/markets';
import { formatAmount } from '../../shared/money';
import { href, loginHref } from '../../shared/paths';
import { isLoggedIn, useSession } from '../../shared/session';
import { showToast } from '../../shared/toast';
import { EmptyState } from '../../shared/ui/EmptyState';
import { OptionSheet } from '../../shared/ui/OptionSheet';
import { QueryFallback, SkeletonRows } from '../../shared/ui/QueryView';
import { TabRow } from '../../shared/ui/TabRow';
import { currenciesQuery, historyQuery, optionKeys, ordersQuery, secondsQuery } from './api';
import { BuyPopup } from './components/BuyPopup';
import { type ChartPoint, IndexChart } from './components/IndexChart';
import { OrderCard } from './components/OrderCard';
import { RulesSheet } from './components/RulesSheet';
import './option.css';

const DEFAULT_SYMBOL = 'btcusdt';
/** Live ticks kept for the chart (a little over 5 minutes at one a second). */
const MAX_TICKS = 320;
/** The two lists under the chart: orders waiting for delivery, and the delivered ones. */
const OPTION_LISTS: readonly OptionStatus[] = ['waiting', 'delivered'];

/** The live index of one market: the last half hour of closes, then every recorded tick. */
function useIndex(symbol: string) {
  const history = useQuery(historyQuery(symbol));
  const [ticks, setTicks] = useState<ChartPoint[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new market starts a new series
  useEffect(() => setTicks([]), [symbol]);
  useLive([OptionStreams.index(symbol)], {
    [OptionEvents.tick]: (p) => {
      const m = p as OptionTickMessage;
      if (m?.symbol !== symbol) return;
      setTicks((old) =>
        old.length && old[old.length - 1]!.time >= m.time
          ? old
          : [...old, { time: m.time, price: m.price }].slice(-MAX_TICKS),
      );
    },
  });
  const points = useMemo(() => {
    const closes =
      (history.data as CandlePage | undefined)?.list.map((c) => ({ time: c.time, price: c.close })) ?? [];
    const first = ticks[0]?.time ?? Number.POSITIVE_INFINITY;
    return [...closes.filter((c) => c.time < first), ...ticks];
  }, [history.data, ticks]);
  const live = ticks.length ? ticks[ticks.length - 1]!.price : null;
  return { points, live };
}

/** Re-renders every half second while `on` (the countdowns). */
function useNow(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const id = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(id);
  }, [on]);
  return now;
}

/**
 * pages/option/detail: the live index of a market, bullish and bearish buttons, the buy popup,
 * the options waiting for delivery with their countdowns, and the delivery history.
 */
export default function OptionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const symbol =
    (params.get('symbol') ?? DEFAULT_SYMBOL).toLowerCase().replace(/[^a-z0-9]/g, '') || DEFAULT_SYMBOL;
  const session = useSession();
  const loggedIn = isLoggedIn(session);

  const tickers = useQuery(tickersQuery());
  const seconds = useQuery(secondsQuery(symbol));
  const currencies = useQuery({ ...currenciesQuery(), enabled: true });
  const [tab, setTab] = useState<OptionStatus>('waiting');
  const [page, setPage] = useState(1);
  const waiting = useQuery(ordersQuery('waiting', 1, loggedIn));
  const history = useQuery(ordersQuery('delivered', page, loggedIn && tab === 'delivered'));
  const { points, live } = useIndex(symbol);
  useLiveTickers(symbol);

  const [sheet, setSheet] = useState<'market' | 'rules' | null>(null);
  const [buying, setBuying] = useState<'bullish' | 'bearish' | null>(null);
  const [lastDirection, setLastDirection] = useState<'bullish' | 'bearish'>('bullish');
  const [delivered, setDelivered] = useState<OptionOrder | null>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: optionKeys.all });
  useLive(
    [],
    {
      [OptionEvents.order]: (p) => {
        const o = p as OptionOrder;
        if (o?.status === 'delivered') setDelivered(o);
        refresh();
      },
    },
    loggedIn,
  );

  const waitingList = (waiting.data as OptionOrderPage | undefined)?.list ?? [];
  const now = useNow(waitingList.length > 0);

  if (tickers.data === undefined) return <QueryFallback query={tickers} />;
  const markets = tickers.data as MarketTicker[];
  const market = markets.find((m) => m.symbol === symbol) ?? markets[0];
  if (!market) return <EmptyState text={t('common.noData')} />;
  const decimals = market.price_decimals;
  const price = live ?? market.index_price ?? market.last;
  const currency = currencies.data?.[0];
  const terms = seconds.data ?? [];
  const verified = session.user?.verification === 'verified';

  const askToVerify = () => {
    void Dialog.confirm({
      content: t('option.notVerified'),
      confirmText: t('option.verify'),
      cancelText: t('common.cancel'),
      onConfirm: () => navigate(href('verification')),
    });
  };

  const open = (direction: 'bullish' | 'bearish') => {
    if (!loggedIn) {
      navigate(loginHref(location.pathname + location.search));
      return;
    }
    if (!verified) {
      askToVerify();
      return;
    }
    setLastDirection(direction);
    setBuying(direction);
    void queryClient.invalidateQueries({ queryKey: optionKeys.currencies(session.user?.id ?? 0) });
  };

  const marks = waitingList
    .filter((o) => o.symbol === market.symbol)
    .map((o) => ({ price: o.purchase.price, direction: o.direction }));
  const historyPage = history.data as OptionOrderPage | undefined;

  return (
    <div className="v-option">
      <div className="v-option__bar">
        <button type="button" className="v-option__market" onClick={() => setSheet('market')}>
          {market.name} <DownOutline />
        </button>
        <button type="button" className="v-option__rules" onClick={() => setSheet('rules')}>
          {t('option.rulesButton')}
        </button>
      </div>
      <div className="v-option__price">
        <span className="v-option__price-label">{t('option.index')}</span>
        <strong data-testid="option-price">{formatAmount(price, decimals, { pad: true })}</strong>
      </div>
      <IndexChart name={market.name} points={points} marks={marks} />

      <div className="v-option__actions">
        <button
          type="button"
          className="v-option__buy v-option__buy--bullish"
          onClick={() => open('bullish')}
        >
          ↑ {t('option.bullish')}
        </button>
        <button
          type="button"
          className="v-option__buy v-option__buy--bearish"
          onClick={() => open('bearish')}
        >
          ↓ {t('option.bearish')}
        </button>
      </div>

      {delivered && (
        <section className="v-option__delivered" aria-live="polite">
          <h2>{t('option.deliveredTitle', { result: t(`option.result.${delivered.result ?? 'flat'}`) })}</h2>
          <OrderCard order={delivered} priceDecimals={decimals} />
          <button type="button" className="v-option__dismiss" onClick={() => setDelivered(null)}>
            {t('common.close')}
          </button>
        </section>
      )}

      <TabRow
        className="v-option__tabs"
        tabClassName="v-option__tab"
        options={OPTION_LISTS}
        value={tab}
        onChange={(s) => {
          setTab(s);
          setPage(1);
        }}
        labelOf={(s) => (s === 'waiting' ? t('option.waiting') : t('option.history'))}
      />
      <div className="v-option__orders" role="tabpanel">
        {!loggedIn ? (
          <EmptyState text={t('option.logInToSee')} />
        ) : tab === 'waiting' ? (
          waitingList.length === 0 ? (
            <EmptyState text={t('option.noWaiting')} />
          ) : (
            waitingList.map((o) => (
              <OrderCard
                key={o.id}
                order={o}
                priceDecimals={markets.find((m) => m.symbol === o.symbol)?.price_decimals ?? decimals}
                current={o.symbol === market.symbol ? price : null}
                now={now}
              />
            ))
          )
        ) : history.isPending ? (
          <SkeletonRows rows={3} />
        ) : !historyPage || historyPage.list.length === 0 ? (
          <EmptyState text={t('option.noHistory')} />
        ) : (
          <>
            {historyPage.list.map((o) => (
              <OrderCard
                key={o.id}
                order={o}
                priceDecimals={markets.find((m) => m.symbol === o.symbol)?.price_decimals ?? decimals}
              />
            ))}
            <div className="v-option__pager">
              <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                {t('option.newer')}
              </button>
              <span>
                {t('option.page', {
                  page,
                  pages: Math.max(1, Math.ceil(historyPage.total / historyPage.limit)),
                })}
              </span>
              <button
                type="button"
                disabled={page * historyPage.limit >= historyPage.total}
                onClick={() => setPage(page + 1)}
              >
                {t('option.older')}
              </button>
            </div>
          </>
        )}
      </div>

      <OptionSheet
        visible={sheet === 'market'}
        title={t('option.chooseMarket')}
        options={markets.map((m) => ({ value: m.symbol, label: m.name }))}
        value={market.symbol}
        onSelect={(s) => setParams({ symbol: s }, { replace: true })}
        onClose={() => setSheet(null)}
      />
      <RulesSheet
        visible={sheet === 'rules'}
        onClose={() => setSheet(null)}
        seconds={terms}
        symbol={currency?.symbol ?? 'USDT'}
      />
      <BuyPopup
        visible={buying !== null}
        direction={buying ?? lastDirection}
        symbol={market.symbol}
        name={market.name}
        seconds={terms}
        currency={currency}
        onClose={() => setBuying(null)}
        onUnverified={() => {
          setBuying(null);
          askToVerify();
        }}
        onBought={() => {
          setBuying(null);
          setTab('waiting');
          showToast({ content: t('option.bought') });
          refresh();
        }}
      />
    </div>
  );
}
