import { useQuery } from '@tanstack/react-query';
import type { MarketTicker } from '@verdant/api';
import { Button, SearchBar } from 'antd-mobile';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useAfterFirstPaint } from '../../shared/live-frame';
import {
  formatChange,
  formatCompact,
  formatDecimal,
  tickersQuery,
  trendOf,
  useLiveTickers,
} from '../../shared/markets';
import { href, loginHref } from '../../shared/paths';
import { isLoggedIn, useSession } from '../../shared/session';
import { EmptyState } from '../../shared/ui/EmptyState';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryView } from '../../shared/ui/QueryView';
import { TabRow } from '../../shared/ui/TabRow';
import { FavouriteStar } from './components/FavouriteStar';
import { useToggleFavourite } from './favourites';
import './components/tabs-row.css';
import './market-list.css';

type View = 'all' | 'favourites';
const VIEWS: readonly View[] = ['favourites', 'all'];

function matches(m: MarketTicker, search: string): boolean {
  const q = search
    .trim()
    .toLowerCase()
    .replace(/[\s/_-]/g, '');
  if (!q) return true;
  return m.symbol.includes(q) || m.base.toLowerCase().includes(q);
}

/** Spot tab: every market with live price and 24 h change; search and favourites. */
export default function MarketListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const session = useSession();
  const [view, setView] = useState<View>('all');
  const [search, setSearch] = useState('');
  const tickers = useQuery(tickersQuery());
  // the socket client (a chunk of its own, with its evaluation) after the page's first paint
  useLiveTickers(undefined, useAfterFirstPaint());
  const toggle = useToggleFavourite();

  const list = useMemo(
    () => (tickers.data ?? []).filter((m) => (view === 'all' || m.favourite) && matches(m, search)),
    [tickers.data, view, search],
  );

  let body: React.ReactNode;
  if (view === 'favourites' && !isLoggedIn(session))
    body = (
      <div className="v-market-list__login">
        <EmptyState text={t('market.loginForFavourites')} />
        <Button
          color="primary"
          size="small"
          onClick={() => navigate(loginHref(location.pathname + location.search))}
        >
          {t('market.logIn')}
        </Button>
      </div>
    );
  else if (list.length === 0)
    body = (
      <EmptyState
        text={
          search ? t('market.noMatch') : view === 'favourites' ? t('market.noFavourites') : t('common.noData')
        }
      />
    );
  else
    body = (
      <ul className="v-market-list__list">
        {list.map((m) => (
          <li key={m.symbol}>
            <div className="v-market-list__row">
              <FavouriteStar
                on={m.favourite}
                name={m.name}
                onToggle={() => void toggle(m.symbol, !m.favourite)}
              />
              <button
                type="button"
                className="v-market-list__open"
                onClick={() => navigate(href('kline', { symbol: m.symbol }))}
              >
                <span className="v-market-list__pair">
                  <strong>{m.base}</strong>
                  <small>/{m.quote}</small>
                  <em>
                    {t('market.vol')} {formatCompact(m.amount_24h)}
                  </em>
                </span>
                <span className="v-market-list__price" data-testid={`price-${m.symbol}`}>
                  {formatDecimal(m.last, m.price_decimals)}
                </span>
                <span className={`v-chip v-chip--${trendOf(m.change_24h)}`}>
                  {formatChange(m.change_24h)}
                </span>
              </button>
            </div>
          </li>
        ))}
      </ul>
    );

  return (
    <div className="v-market-list">
      <div className="v-market-list__top">
        <SearchBar
          placeholder={t('market.searchPlaceholder')}
          value={search}
          onChange={setSearch}
          aria-label={t('market.search')}
        />
        {/* the chart page's tab row: antd-mobile's Tabs would bring its animation library before the first paint */}
        <TabRow<View>
          options={VIEWS}
          value={view}
          onChange={setView}
          labelOf={(k) => (k === 'all' ? t('market.all') : t('market.favourites'))}
          className="v-market-tabs-row v-market-list__tabs"
          tabClassName="v-market-tabs-row__tab"
        />
        <div className="v-market-list__head">
          <span>{t('home.pair')}</span>
          <span>{t('home.lastPrice')}</span>
          <span>{t('home.change24h')}</span>
        </div>
      </div>
      <PullToRefresh onRefresh={() => tickers.refetch()}>
        <QueryView query={tickers} rows={8}>
          {() => body}
        </QueryView>
      </PullToRefresh>
    </div>
  );
}
