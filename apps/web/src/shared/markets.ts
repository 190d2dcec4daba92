import { type QueryClient, queryOptions, useQueryClient } from '@tanstack/react-query';
import { MarketEvents, MarketStreams, type MarketTicker, Paths } from '@verdant/api';
import { api } from './api';
import { useLive } from './live';
import { getSession } from './session';
import './ui/trend.css';

// Market tickers, shared by Home and the market pages. Kept free of decimal.js: Home is the first
// load, and prices here are only shown and ordered, never computed with (string operations).

export const marketKeys = {
  all: ['market'] as const,
  /** Per viewer: the `favourite` flag differs between visitors and users. */
  tickers: (viewer: number) => ['market', 'tickers', viewer] as const,
};

function viewerId(): number {
  return getSession().user?.id ?? 0;
}

export function tickersQuery() {
  return queryOptions({
    queryKey: marketKeys.tickers(viewerId()),
    queryFn: ({ signal }) => api.get<MarketTicker[]>(Paths.quotations, undefined, { signal }),
    staleTime: 10_000,
  });
}

/** Merges fresh tickers (from the socket) into every cached list; a broadcast knows no favourites. */
export function mergeTickers(queryClient: QueryClient, fresh: readonly MarketTicker[]): void {
  const bySymbol = new Map(fresh.map((t) => [t.symbol, t]));
  queryClient.setQueriesData<MarketTicker[]>({ queryKey: ['market', 'tickers'] }, (old) =>
    old?.map((t) => {
      const f = bySymbol.get(t.symbol);
      return f ? { ...f, favourite: t.favourite } : t;
    }),
  );
}

function isTicker(v: unknown): v is MarketTicker {
  return Boolean(v && typeof v === 'object' && 'symbol' in v && 'last' in v);
}

/** Keeps the cached tickers live: every market (`tickers`), or one market (`ticker:<symbol>`). */
export function useLiveTickers(symbol?: string, enabled = true): void {
  const queryClient = useQueryClient();
  useLive(
    [symbol ? MarketStreams.ticker(symbol) : MarketStreams.tickers],
    symbol
      ? {
          [MarketEvents.ticker]: (p) => {
            if (isTicker(p) && p.symbol === symbol) mergeTickers(queryClient, [p]);
          },
        }
      : {
          [MarketEvents.tickers]: (p) => {
            if (Array.isArray(p)) mergeTickers(queryClient, p.filter(isTicker));
          },
        },
    enabled,
  );
}

// ---- decimal strings, by string operations only ---------------------------------------------

const DEC_RE = /^-?\d+(\.\d+)?$/;

function split(v: string): { neg: boolean; int: string; frac: string } {
  const neg = v.startsWith('-');
  const [int = '0', frac = ''] = (neg ? v.slice(1) : v).split('.');
  return { neg, int: int.replace(/^0+(?=\d)/, ''), frac };
}

/** Orders two decimal strings (-1, 0, 1); anything malformed counts as the lowest. */
export function compareDecimalStrings(a: string | null, b: string | null): number {
  const va = a !== null && DEC_RE.test(a);
  const vb = b !== null && DEC_RE.test(b);
  if (!va || !vb) return va === vb ? 0 : va ? 1 : -1;
  const x = split(a as string);
  const y = split(b as string);
  const zero = (p: typeof x) => /^0*$/.test(p.int + p.frac);
  const sx = zero(x) ? 0 : x.neg ? -1 : 1;
  const sy = zero(y) ? 0 : y.neg ? -1 : 1;
  if (sx !== sy) return sx < sy ? -1 : 1;
  const len = Math.max(x.frac.length, y.frac.length);
  const fx = x.frac.padEnd(len, '0');
  const fy = y.frac.padEnd(len, '0');
  let r = x.int.length - y.int.length;
  if (r === 0) r = x.int < y.int ? -1 : x.int > y.int ? 1 : fx < fy ? -1 : fx > fy ? 1 : 0;
  r = Math.sign(r);
  return sx < 0 ? -r : r;
}

/** "1234.5678" → "1,234.56" (truncated, never rounded; with pad "1,234.50"). "—" when absent. */
export function formatDecimal(value: string | null | undefined, decimals: number, pad = true): string {
  if (value === null || value === undefined || !DEC_RE.test(value)) return '—';
  const { neg, int, frac } = split(value);
  let f = frac.slice(0, Math.max(0, decimals));
  if (pad) f = f.padEnd(decimals, '0');
  else f = f.replace(/0+$/, '');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const s = f ? `${grouped}.${f}` : grouped;
  return neg && /[1-9]/.test(s) ? `-${s}` : s;
}

export type Trend = 'up' | 'down' | 'flat';

export function trendOf(change: string | null | undefined): Trend {
  if (!change || !DEC_RE.test(change) || /^-?0*(\.0*)?$/.test(change)) return 'flat';
  return change.startsWith('-') ? 'down' : 'up';
}

/** "1.5" → "+1.50%", "-0.3" → "-0.30%", null → "—". */
export function formatChange(change: string | null | undefined): string {
  if (change === null || change === undefined || !DEC_RE.test(change)) return '—';
  const s = formatDecimal(change, 2);
  return trendOf(change) === 'up' ? `+${s}%` : `${s}%`;
}

/** Volumes on a small screen: 1,234,567.8 → "1.23M" (truncated). */
export function formatCompact(value: string | null | undefined, decimals = 2): string {
  if (value === null || value === undefined || !DEC_RE.test(value)) return '—';
  const { int, frac } = split(value);
  const units: [number, string][] = [
    [9, 'B'],
    [6, 'M'],
    [3, 'K'],
  ];
  for (const [digits, unit] of units) {
    if (int.length > digits) {
      const head = int.slice(0, int.length - digits);
      const tail = int
        .slice(int.length - digits)
        .slice(0, decimals)
        .replace(/0+$/, '');
      return `${head.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${tail ? `.${tail}` : ''}${unit}`;
    }
  }
  return formatDecimal(`${int}.${frac || '0'}`, decimals, false);
}
