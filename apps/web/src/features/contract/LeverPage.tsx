import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type CandlePage,
  type ContractDeal,
  ContractEvents,
  type ContractPosition,
  type ContractStatus,
  ContractStreams,
  type ContractTick,
} from '@verdant/api';
import { type ContractSpec, checkStops, openCost } from '@verdant/engine';
import { Button, Dialog, Input, Selector, Tabs } from 'antd-mobile';
import { QuestionCircleOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '../../shared/api';
import { useLive } from '../../shared/live';
import { formatDecimal } from '../../shared/markets';
import { isGreater } from '../../shared/money';
import { href, loginHref } from '../../shared/paths';
import { isLoggedIn, useSession } from '../../shared/session';
import { showToast } from '../../shared/toast';
import { NavBarIconButton } from '../../shared/ui/NavBarAction';
import { QueryFallback, QueryView } from '../../shared/ui/QueryView';
import { TabRow } from '../../shared/ui/TabRow';
import {
  cancelOrder,
  closeAll,
  closePosition,
  contractKeys,
  dealQuery,
  lineQuery,
  positionsQuery,
  submitOrder,
} from './api';
import { cleanDecimal as clean, LotsStepper } from './components/LotsStepper';
import { PositionList } from './components/PositionList';
import { PriceLine } from './components/PriceLine';
import { RulesSheet } from './components/RulesSheet';
import { StopsSheet } from './components/StopsSheet';
import './contract.css';

const STATUSES: readonly ContractStatus[] = ['holding', 'pending', 'closed', 'cancelled'];
const MAX_POINTS = 240;

/** pages/lever/index?symbol=btcusdt: contract trading (spec §2). */
export default function LeverPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const symbol = (params.get('symbol') ?? 'btcusdt').toLowerCase().replace(/[^a-z0-9]/g, '') || 'btcusdt';
  const loggedIn = isLoggedIn(useSession());
  const queryClient = useQueryClient();

  const deal = useQuery(dealQuery(symbol, loggedIn));
  const line = useQuery(lineQuery(symbol));
  const [tab, setTab] = useState<ContractStatus>('holding');
  const positions = useQuery({ ...positionsQuery(symbol, tab), enabled: loggedIn });
  const [live, setLive] = useState<{ symbol: string; ticks: ContractTick[] }>({ symbol, ticks: [] });
  const ticks = live.symbol === symbol ? live.ticks : [];

  const [direction, setDirection] = useState<'long' | 'short'>('long');
  const [type, setType] = useState<'market' | 'limit'>('market');
  const [price, setPrice] = useState('');
  const [lots, setLots] = useState(1);
  const [multiple, setMultiple] = useState<number | null>(null);
  const [withStops, setWithStops] = useState(false);
  const [tp, setTp] = useState('');
  const [sl, setSl] = useState('');
  const [rules, setRules] = useState(false);
  const [stopsFor, setStopsFor] = useState<ContractPosition | null>(null);
  const [busy, setBusy] = useState(false);
  const [fieldError, setFieldError] = useState<{ field: string; message: string } | null>(null);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: contractKeys.positions() });
    void queryClient.invalidateQueries({ queryKey: ['contract', 'deal'] });
  };

  useLive([ContractStreams.tick(symbol)], {
    [ContractEvents.tick]: (payload) => {
      const tick = payload as ContractTick;
      if (tick?.symbol !== symbol) return;
      setLive((old) => {
        const list = old.symbol === symbol ? old.ticks : [];
        if (list.at(-1)?.id === tick.id) return old;
        return { symbol, ticks: [...list, tick].slice(-MAX_POINTS) };
      });
    },
    [ContractEvents.position]: () => refresh(),
  });

  if (deal.data === undefined) return <QueryFallback query={deal} />;
  const data: ContractDeal = deal.data;
  const c = data.current;
  const current = ticks.at(-1)?.price ?? c.price?.price ?? null;
  const chosen =
    multiple !== null && c.multiples.includes(multiple) ? multiple : (c.multiples[1] ?? c.multiples[0]!);
  const spec: ContractSpec = {
    lotValue: c.lot_value,
    multiples: c.multiples,
    openFeeRate: c.open_fee_rate,
    closeFeeRate: c.close_fee_rate,
    maintenanceRate: c.maintenance_rate,
    maxLotsPerOrder: c.max_lots_per_order,
    maxLotsPerUser: c.max_lots_per_user,
    maxOpenPositions: c.max_open_positions,
    decimals: c.currency_decimals,
    tickSize: c.tick_size,
  };
  const orderPrice = type === 'limit' ? (price.trim() === '' ? null : price.trim()) : current;
  const cost =
    orderPrice !== null && /^\d+(\.\d+)?$/.test(orderPrice) ? openCost(spec, orderPrice, lots, chosen) : null;
  const available = data.balance?.available ?? '0';
  const short = loggedIn && cost !== null && isGreater(cost.total, available);
  const money = (v: string | null | undefined) =>
    v == null ? '—' : formatDecimal(v, c.currency_decimals, false);
  const px = (v: string | null | undefined) => (v == null ? '—' : formatDecimal(v, c.price_decimals, false));

  const history = (line.data as CandlePage | undefined)?.list.map((x) => x.close) ?? [];
  const points = [...history, ...ticks.map((x) => x.price)].slice(-MAX_POINTS);

  const requireLogin = () => {
    navigate(loginHref(location.pathname + location.search));
  };

  const submit = async () => {
    if (!loggedIn) return requireLogin();
    setFieldError(null);
    // the rules the server applies, said before asking to confirm
    if (withStops) {
      const bad =
        tp.trim() === '' || sl.trim() === ''
          ? 'stopsRequired'
          : orderPrice
            ? checkStops(direction, orderPrice, tp.trim(), sl.trim())
            : null;
      if (bad) {
        const key = bad as 'stopsRequired' | 'takeProfitSide' | 'stopLossSide';
        setFieldError({ field: 'stops', message: t(`contract.errors.${key}`, { price: px(orderPrice) }) });
        return;
      }
    }
    const ok = await Dialog.confirm({
      title: t(direction === 'long' ? 'contract.confirmLong' : 'contract.confirmShort'),
      content: (
        <dl className="v-contract-confirm">
          <dt>{t('contract.price')}</dt>
          <dd>{type === 'market' ? t('contract.marketPrice', { price: px(current) }) : px(orderPrice)}</dd>
          <dt>{t('contract.lotsLabel')}</dt>
          <dd>
            {lots} × {c.lot_value} · {chosen}×
          </dd>
          <dt>{t('contract.marketValue')}</dt>
          <dd>{money(cost?.marketValue)}</dd>
          <dt>{t('contract.margin')}</dt>
          <dd>{money(cost?.margin)}</dd>
          <dt>{t('contract.fee')}</dt>
          <dd>{money(cost?.fee)}</dd>
          <dt>{t('contract.available')}</dt>
          <dd>
            {money(available)} {c.currency}
          </dd>
        </dl>
      ),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    setBusy(true);
    try {
      await submitOrder({
        symbol,
        direction,
        type,
        price: type === 'limit' ? price.trim() : undefined,
        lots: String(lots),
        multiple: String(chosen),
        take_profit: withStops ? tp.trim() : undefined,
        stop_loss: withStops ? sl.trim() : undefined,
      });
      showToast(t('contract.submitted'));
      setTab(type === 'market' ? 'holding' : 'pending');
      refresh();
    } catch (e) {
      if (e instanceof ApiError && e.kind === 'server')
        setFieldError({ field: e.field ?? '', message: e.message });
      else if (e instanceof ApiError) showToast(e.message);
    } finally {
      setBusy(false);
    }
  };

  const onClose = async (p: ContractPosition) => {
    const ok = await Dialog.confirm({
      content: t('contract.closeConfirm', { name: p.name, lots: p.lots }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await closePosition(p.id);
      showToast(t('contract.closed'));
    } catch {
      // the API client showed the server's message
    }
    refresh();
  };

  const onCloseAll = async () => {
    const ok = await Dialog.confirm({
      content: t('contract.closeAllConfirm', { name: c.name }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    try {
      await closeAll(symbol);
      showToast(t('contract.closed'));
    } catch {
      // shown by the API client
    }
    refresh();
  };

  const onCancel = async (p: ContractPosition) => {
    try {
      await cancelOrder(p.id);
      showToast(t('contract.cancelled'));
    } catch {
      // shown by the API client
    }
    refresh();
  };

  const err = (field: string) =>
    fieldError && fieldError.field === field ? (
      <div className="v-contract-form__error" role="alert">
        {fieldError.message}
      </div>
    ) : null;

  return (
    <div className="v-contract">
      <NavBarIconButton label={t('contract.rulesButton')} onClick={() => setRules(true)}>
        <QuestionCircleOutline />
      </NavBarIconButton>
      <TabRow
        className="v-contract-markets"
        tabClassName="v-contract-markets__item"
        label={t('contract.markets')}
        options={data.list.map((m) => m.symbol)}
        value={symbol}
        onChange={(s) => setParams({ symbol: s }, { replace: true })}
        labelOf={(s) => data.list.find((m) => m.symbol === s)?.name ?? s}
      />
      <div className="v-contract-price">
        <span className="v-contract-price__label">{t('contract.indexPrice')}</span>
        <strong data-testid="index-price">{px(current)}</strong>
        <span className="v-contract-price__unit">{c.currency}</span>
      </div>
      <PriceLine points={points} />

      <section className="v-contract-form" aria-label={t('contract.order')}>
        <div className="v-contract-form__sides">
          <button
            type="button"
            className={`v-contract-form__side is-long${direction === 'long' ? ' is-active' : ''}`}
            aria-pressed={direction === 'long'}
            onClick={() => setDirection('long')}
          >
            {t('contract.long')}
          </button>
          <button
            type="button"
            className={`v-contract-form__side is-short${direction === 'short' ? ' is-active' : ''}`}
            aria-pressed={direction === 'short'}
            onClick={() => setDirection('short')}
          >
            {t('contract.short')}
          </button>
        </div>
        <Selector
          columns={2}
          value={[type]}
          onChange={(v) => v[0] && setType(v[0])}
          options={[
            { label: t('contract.market'), value: 'market' as const },
            { label: t('contract.limit'), value: 'limit' as const },
          ]}
        />
        <div className="v-contract-form__row">
          <span>{t('contract.price')}</span>
          {type === 'market' ? (
            <span className="v-contract-form__value">
              {t('contract.marketPrice', { price: px(current) })}
            </span>
          ) : (
            <Input
              inputMode="decimal"
              value={price}
              placeholder={t('contract.pricePlaceholder')}
              onChange={(v) => setPrice(clean(v))}
              aria-label={t('contract.price')}
            />
          )}
        </div>
        {err('price')}
        <div className="v-contract-form__row">
          <span>{t('contract.lotsLabel')}</span>
          <LotsStepper value={lots} max={c.max_lots_per_order} onChange={setLots} />
        </div>
        <div className="v-contract-form__hint">
          {t('contract.lotHint', { lot: c.lot_value, base: c.name.split('/')[0] })}
        </div>
        {err('lots')}
        <div className="v-contract-form__row v-contract-form__row--stack">
          <span>{t('contract.multiple')}</span>
          <Selector
            columns={Math.min(5, c.multiples.length)}
            value={[chosen]}
            onChange={(v) => v[0] && setMultiple(v[0])}
            options={c.multiples.map((m) => ({ label: `${m}×`, value: m }))}
          />
        </div>
        {err('multiple')}
        <label className="v-contract-form__check">
          <input type="checkbox" checked={withStops} onChange={(e) => setWithStops(e.target.checked)} />
          <span>{t('contract.withStops')}</span>
        </label>
        {withStops && (
          <div className="v-contract-form__stops">
            <Input
              inputMode="decimal"
              value={tp}
              placeholder={t('contract.takeProfit')}
              onChange={(v) => setTp(clean(v))}
              aria-label={t('contract.takeProfit')}
            />
            <Input
              inputMode="decimal"
              value={sl}
              placeholder={t('contract.stopLoss')}
              onChange={(v) => setSl(clean(v))}
              aria-label={t('contract.stopLoss')}
            />
          </div>
        )}
        {err('stops')}
        {err('take_profit')}
        {err('stop_loss')}
        <dl className="v-contract-form__summary">
          <dt>{t('contract.marketValue')}</dt>
          <dd>{money(cost?.marketValue)}</dd>
          <dt>{t('contract.margin')}</dt>
          <dd data-testid="margin">{money(cost?.margin)}</dd>
          <dt>{t('contract.fee')}</dt>
          <dd data-testid="fee">{money(cost?.fee)}</dd>
          <dt>{t('contract.available')}</dt>
          <dd data-testid="available">{loggedIn ? `${money(available)} ${c.currency}` : '—'}</dd>
        </dl>
        {err('')}
        {short && (
          <div className="v-contract-form__short" role="alert">
            <span>{t('contract.short_balance')}</span>
            <Button size="mini" color="primary" fill="outline" onClick={() => navigate(href('transfer'))}>
              {t('contract.transfer')}
            </Button>
          </div>
        )}
        <Button
          block
          color={direction === 'long' ? 'success' : 'danger'}
          loading={busy}
          onClick={() => void submit()}
          data-testid="submit"
        >
          {loggedIn
            ? t(direction === 'long' ? 'contract.openLong' : 'contract.openShort')
            : t('contract.loginFirst')}
        </Button>
      </section>

      {loggedIn && (
        <section className="v-contract-orders">
          <Tabs activeKey={tab} onChange={(k) => setTab(k as ContractStatus)}>
            {STATUSES.map((s) => (
              <Tabs.Tab key={s} title={t(`contract.tabs.${s}`)} />
            ))}
          </Tabs>
          {tab === 'holding' && (positions.data?.list.length ?? 0) > 1 && (
            <Button
              size="mini"
              fill="outline"
              className="v-contract-orders__all"
              onClick={() => void onCloseAll()}
            >
              {t('contract.closeAll')}
            </Button>
          )}
          <QueryView query={positions} rows={2}>
            {(page) => (
              <PositionList
                status={tab}
                list={page.list}
                price={current}
                priceDecimals={c.price_decimals}
                currencyDecimals={c.currency_decimals}
                onClose={(p) => void onClose(p)}
                onStops={setStopsFor}
                onCancel={(p) => void onCancel(p)}
              />
            )}
          </QueryView>
        </section>
      )}

      <RulesSheet visible={rules} onClose={() => setRules(false)} contract={c} />
      <StopsSheet
        position={stopsFor}
        onClose={() => setStopsFor(null)}
        onSaved={() => {
          setStopsFor(null);
          refresh();
        }}
      />
    </div>
  );
}
