import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MarketTicker, SpotOrder } from '@verdant/api';
import { Dialog } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api';
import { formatDecimal } from '../../../shared/markets';
import { showToast } from '../../../shared/toast';
import { QueryView } from '../../../shared/ui/QueryView';
import { TabRow } from '../../../shared/ui/TabRow';
import { cancelOrder, type OrderView, ordersQuery, tradeKeys } from '../api';
import './order-list.css';
import './tabs-row.css';

const ORDER_VIEWS: readonly OrderView[] = ['current', 'history'];

const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO time as "01-31 14:05:09" in the device's time zone: the year is left out to keep the card short. */
function when(iso: string): string {
  const d = new Date(iso);
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function OrderCard({
  order,
  market,
  onCancel,
}: {
  order: SpotOrder;
  market: MarketTicker;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const pd = market.price_decimals;
  const qd = market.amount_decimals;
  return (
    <li className="v-market-order" data-testid={`order-${order.id}`}>
      <div className="v-market-order__top">
        <span className={`v-market-order__side v-text--${order.side === 'buy' ? 'up' : 'down'}`}>
          {t(order.side === 'buy' ? 'trade.buy' : 'trade.sell')} · {t(`trade.type.${order.type}`)}
        </span>
        <span className="v-market-order__time">{when(order.created_at)}</span>
        {onCancel ? (
          <button type="button" className="v-market-order__cancel" onClick={onCancel}>
            {t('trade.cancel')}
          </button>
        ) : (
          <span className={`v-market-order__status v-market-order__status--${order.status}`}>
            {t(`trade.status.${order.status}`)}
          </span>
        )}
      </div>
      <dl className="v-market-order__grid">
        <div>
          <dt>{t('trade.priceLabel')}</dt>
          <dd>{order.price ? formatDecimal(order.price, pd) : t('trade.atMarket')}</dd>
        </div>
        <div>
          <dt>{order.qty !== null ? t('trade.qtyLabel') : t('trade.amountLabel')}</dt>
          <dd>
            {order.qty !== null
              ? formatDecimal(order.qty, qd, false)
              : formatDecimal(order.amount, pd, false)}
          </dd>
        </div>
        <div>
          <dt>{t('trade.filled')}</dt>
          <dd>{formatDecimal(order.filled_qty, qd, false)}</dd>
        </div>
        <div>
          <dt>{t('trade.avgPrice')}</dt>
          <dd>{formatDecimal(order.avg_price, pd)}</dd>
        </div>
        <div>
          <dt>{t('trade.filledAmount')}</dt>
          <dd>{formatDecimal(order.filled_amount, pd, false)}</dd>
        </div>
        <div>
          <dt>{t('trade.fee')}</dt>
          <dd>
            {formatDecimal(order.fee, 8, false)} {order.fee_currency}
          </dd>
        </div>
      </dl>
      {order.fills.length > 0 && (
        <details className="v-market-order__fills">
          <summary>{t('trade.fills', { count: order.fills.length })}</summary>
          <ol>
            {order.fills.map((f) => (
              <li key={f.id}>
                <span>{when(f.time)}</span>
                <span>
                  {formatDecimal(f.qty, qd, false)} @ {formatDecimal(f.price, pd)}
                </span>
                <span>
                  {t(`trade.role.${f.role}`)} · {formatDecimal(f.fee, 8, false)} {f.fee_currency}
                </span>
              </li>
            ))}
          </ol>
        </details>
      )}
    </li>
  );
}

/** The user's orders on this market: open ones (with cancel) and past ones with their fills. */
export function OrderList({ market }: { market: MarketTicker }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [view, setView] = useState<OrderView>('current');
  const orders = useQuery(ordersQuery(market.symbol, view));

  const cancel = async (order: SpotOrder) => {
    const ok = await Dialog.confirm({
      content: t('trade.cancelConfirm'),
      confirmText: t('trade.cancel'),
      cancelText: t('trade.keep'),
    });
    if (!ok) return;
    try {
      const res = await cancelOrder(order.id);
      showToast({ content: res.message || t('common.operationSuccess') });
    } catch (e) {
      if (!(e instanceof ApiError && e.kind === 'not-logged-in'))
        showToast({ content: e instanceof Error && e.message ? e.message : t('common.error') });
    } finally {
      void queryClient.invalidateQueries({ queryKey: tradeKeys.orders() });
      void queryClient.invalidateQueries({ queryKey: tradeKeys.balances() });
    }
  };

  const body = (
    <QueryView query={orders} rows={3} isEmpty={(d) => d.list.length === 0} emptyText={t('trade.noOrders')}>
      {(d) => (
        <ul className="v-market-orders__list">
          {d.list.map((o) => (
            <OrderCard
              key={o.id}
              order={o}
              market={market}
              onCancel={o.status === 'waiting' ? () => void cancel(o) : undefined}
            />
          ))}
        </ul>
      )}
    </QueryView>
  );

  return (
    <section className="v-market-orders" aria-label={t('trade.orders')}>
      <TabRow
        className="v-market-tabs-row"
        tabClassName="v-market-tabs-row__tab"
        options={ORDER_VIEWS}
        value={view}
        onChange={setView}
        labelOf={(k) => t(k === 'current' ? 'trade.currentOrders' : 'trade.pastOrders')}
      />
      {body}
    </section>
  );
}
