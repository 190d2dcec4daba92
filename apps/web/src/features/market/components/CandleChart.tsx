import {
  type Candle,
  type CandlePage,
  type ChartInterval,
  type KlineMessage,
  MarketEvents,
  MarketStreams,
} from '@verdant/api';
import type { TFunction } from 'i18next';
import {
  type Chart,
  type DeepPartial,
  dispose,
  init,
  type KLineData,
  type Period,
  registerLocale,
  type Styles,
} from 'klinecharts';
import { memo, type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useLive } from '../../../shared/live';
import type { Theme } from '../../../shared/theme';
import { fetchCandles } from '../api';
import { chartNumber, type MainIndicator, type SubIndicator } from './chart-options';
import './candle-chart.css';

const SUB_PANE = 'v_sub_pane';

const PERIODS: Record<ChartInterval, Period> = {
  timeshare: { type: 'minute', span: 1 },
  '1min': { type: 'minute', span: 1 },
  '5min': { type: 'minute', span: 5 },
  '30min': { type: 'minute', span: 30 },
  '60min': { type: 'hour', span: 1 },
  '1day': { type: 'day', span: 1 },
  '1week': { type: 'week', span: 1 },
  '1mon': { type: 'month', span: 1 },
};

// The chart draws pixels: it needs numbers. They are drawn, never computed with as money.
function toBar(c: Candle): KLineData {
  return {
    timestamp: c.time,
    open: Number(c.open),
    high: Number(c.high),
    low: Number(c.low),
    close: Number(c.close),
    volume: Number(c.volume),
    turnover: Number(c.amount),
  };
}

let dateFormatWarm = false;
/**
 * klinecharts formats its axis times with Intl.DateTimeFormat('en'); the first one made loads the
 * locale's data (tens of milliseconds on a slow phone). Made here first, in a task of its own.
 */
function warmDateFormat(): void {
  if (dateFormatWarm) return;
  dateFormatWarm = true;
  new Intl.DateTimeFormat('en', {
    hour12: false,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(0);
}

function css(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}

function chartStyles(interval: ChartInterval): DeepPartial<Styles> {
  const up = css('--v-up', '#00b386');
  const down = css('--v-down', '#f6465d');
  const text = css('--v-text-3', '#6d7d97');
  const grid = css('--v-border', '#233553');
  const primary = css('--v-primary', '#00b386');
  return {
    grid: { horizontal: { color: grid }, vertical: { show: false } },
    candle: {
      type: interval === 'timeshare' ? 'area' : 'candle_solid',
      bar: {
        upColor: up,
        downColor: down,
        noChangeColor: text,
        upBorderColor: up,
        downBorderColor: down,
        noChangeBorderColor: text,
        upWickColor: up,
        downWickColor: down,
        noChangeWickColor: text,
      },
      area: {
        lineColor: primary,
        lineSize: 1.5,
        backgroundColor: [
          { offset: 0, color: 'rgba(0, 179, 134, 0.02)' },
          { offset: 1, color: 'rgba(0, 179, 134, 0.24)' },
        ],
      },
      priceMark: {
        last: { upColor: up, downColor: down, noChangeColor: text },
        high: { color: text },
        low: { color: text },
      },
      tooltip: { showRule: 'follow_cross' },
    },
    indicator: {
      bars: [{ upColor: `${up}99`, downColor: `${down}99`, noChangeColor: text }],
      tooltip: { showRule: 'always' },
    },
    xAxis: { axisLine: { color: grid }, tickText: { color: text } },
    yAxis: { axisLine: { color: grid }, tickText: { color: text } },
    separator: { color: grid },
    crosshair: {
      horizontal: { text: { backgroundColor: primary } },
      vertical: { text: { backgroundColor: primary } },
    },
  };
}

type ChartState = 'loading' | 'ready' | 'empty' | 'error';
/** The first candles, asked for while klinecharts is being set up. */
type FirstPage = { symbol: string; interval: ChartInterval; page: Promise<CandlePage> };

/** Makes the chart in `el`, its labels in the app's language, its candles from the loader. */
function createChart(
  el: HTMLDivElement,
  lang: string,
  t: TFunction,
  want: RefObject<{ symbol: string; interval: ChartInterval }>,
  push: RefObject<((bar: KLineData) => void) | null>,
  setState: (s: ChartState) => void,
  first: RefObject<FirstPage | null>,
): Chart | null {
  // the chart's own labels (crosshair tooltip) in the app's language
  const locale = `verdant-${lang}`;
  const words = ['time', 'open', 'high', 'low', 'close', 'volume', 'change', 'turnover'] as const;
  const units = ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'] as const;
  registerLocale(
    locale,
    Object.fromEntries([...words, ...units].map((k) => [k, t(`market.chart.${k}`)])) as Record<
      (typeof words)[number] | (typeof units)[number],
      string
    >,
  );
  // plain decimals on the axes and legends: klinecharts would write 0.00003 as "0.0{4}3"
  const c = init(el, { locale, decimalFold: { format: chartNumber } });
  if (!c) return null;
  // klinecharts puts its canvas box at tabindex 1, ahead of the whole page in keyboard order
  for (const n of el.querySelectorAll('[tabindex="1"]')) n.setAttribute('tabindex', '0');
  c.setDataLoader({
    getBars: async ({ type, timestamp, callback }) => {
      const asked = { ...want.current };
      if (type === 'backward' || type === 'update') return callback([], false);
      if (type === 'init') setState('loading');
      try {
        // the first page, asked for before the chart was made, if it is the one wanted
        const early = first.current;
        first.current = null;
        const page =
          type === 'init' && early?.symbol === asked.symbol && early.interval === asked.interval
            ? await early.page
            : await fetchCandles(asked.symbol, asked.interval, type === 'forward' ? timestamp : null);
        if (want.current.symbol !== asked.symbol || want.current.interval !== asked.interval) return;
        const bars = page.list.map(toBar);
        callback(bars, { forward: bars.length > 0, backward: false });
        if (type === 'init') setState(bars.length ? 'ready' : 'empty');
      } catch {
        if (want.current.symbol !== asked.symbol || want.current.interval !== asked.interval) return;
        callback([], false);
        if (type === 'init') setState('error');
      }
    },
    subscribeBar: ({ callback }) => {
      push.current = callback;
    },
    unsubscribeBar: () => {
      push.current = null;
    },
  });
  return c;
}

interface Props {
  symbol: string;
  interval: ChartInterval;
  pricePrecision: number;
  volumePrecision: number;
  main: MainIndicator | null;
  sub: SubIndicator | null;
  theme: Theme;
  lang: string;
}

/**
 * The candlestick chart (klinecharts, loaded with this module only on the chart page). Candles come
 * from `currency/new_timeshar` (scrolling left pages back with `before`), then live from the
 * `kline:<symbol>:<interval>` stream.
 */
function CandleChart({ symbol, interval, pricePrecision, volumePrecision, main, sub, theme, lang }: Props) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  // the chart once made (a state: the effects below configure it when it comes)
  const [chart, setChart] = useState<Chart | null>(null);
  // what the loader serves: read at call time, so a late answer for another interval is dropped
  const want = useRef({ symbol, interval });
  const push = useRef<((bar: KLineData) => void) | null>(null);
  const [state, setState] = useState<ChartState>('loading');
  const [attempt, setAttempt] = useState(0);
  const first = useRef<FirstPage | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let made: Chart | null = null;
    let onResize = () => {};
    let cancelled = false;
    // the candles are asked for at once; the chart is made when they are in
    const asked = want.current;
    const page = fetchCandles(asked.symbol, asked.interval, null);
    page.catch(() => {});
    first.current = { ...asked, page };
    // Not one long task: the date format (its first use loads the locale's data) in a task of its
    // own; once the first candles are in, the chart is made, configured (the effects below, run
    // at once by flushSync) and given its candles in one task, so its first drawing (the next
    // frame) is the only one: an empty chart is never drawn first.
    let timer = setTimeout(() => {
      warmDateFormat();
      void page
        .catch(() => {})
        .then(() => {
          if (cancelled) return;
          timer = setTimeout(() => {
            made = createChart(el, lang, t, want, push, setState, first);
            if (!made) return;
            const c = made;
            onResize = () => c.resize();
            window.addEventListener('resize', onResize);
            flushSync(() => setChart(c));
          }, 0);
        });
    }, 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
      if (made) dispose(el);
      setChart(null);
    };
  }, [lang, t]);

  // symbol, interval and theme: restyle and reload; attempt ("try again") reloads the same; a new
  // chart (lang re-creates it) needs all of it again
  // biome-ignore lint/correctness/useExhaustiveDependencies: theme restyles from the CSS variables
  useLayoutEffect(() => {
    const c = chart;
    if (!c) return;
    want.current = { symbol, interval };
    c.setStyles(chartStyles(interval));
    c.setSymbol({ ticker: symbol, pricePrecision, volumePrecision });
    c.setPeriod(PERIODS[interval]);
    void attempt;
  }, [chart, symbol, interval, pricePrecision, volumePrecision, theme, attempt]);

  useLayoutEffect(() => {
    const c = chart;
    if (!c) return;
    c.removeIndicator({ paneId: 'candle_pane' });
    const legend = main !== null && interval !== 'timeshare';
    if (legend) c.createIndicator({ name: main, paneId: 'candle_pane' }, true);
    // With a legend (two lines on a phone), room above the highest candle so the high-price mark
    // is not drawn under it (a number ≥ 1 is pixels); without one, klinecharts' own 20 %.
    c.overrideYAxis({ paneId: 'candle_pane', gap: { top: legend ? 96 : 0.2, bottom: 0.1 } });
  }, [chart, main, interval]);

  useLayoutEffect(() => {
    const c = chart;
    if (!c) return;
    c.removeIndicator({ paneId: SUB_PANE });
    if (sub) c.createIndicator({ name: sub, paneId: SUB_PANE });
  }, [chart, sub]);

  useLive([MarketStreams.kline(symbol, interval)], {
    [MarketEvents.kline]: (p) => {
      const m = p as KlineMessage;
      if (!m || m.symbol !== symbol || m.interval !== interval || !Array.isArray(m.list)) return;
      for (const c of m.list) push.current?.(toBar(c));
    },
  });

  return (
    <div className="v-market-chart">
      <div ref={box} className="v-market-chart__canvas" data-testid="candle-chart" />
      {state !== 'ready' && (
        <div className="v-market-chart__overlay" role={state === 'error' ? 'alert' : 'status'}>
          {state === 'loading' && <span className="v-spinner" role="img" aria-label={t('common.loading')} />}
          {state === 'empty' && <span>{t('market.noCandles')}</span>}
          {state === 'error' && (
            <>
              <span>{t('market.chartFailed')}</span>
              <button type="button" className="v-link-button" onClick={() => setAttempt((n) => n + 1)}>
                {t('common.retry')}
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}

/** Memoised: the page renders on every ticker; the chart only when its own props change. */
export default memo(CandleChart);
