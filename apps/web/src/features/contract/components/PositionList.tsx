import type { ContractPosition, ContractStatus } from '@verdant/api';
import { profitAndLoss } from '@verdant/engine';
import { Button, Dialog } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/datetime';
import { formatDecimal } from '../../../shared/markets';
import { EmptyState } from '../../../shared/ui/EmptyState';

interface Props {
  status: ContractStatus;
  list: readonly ContractPosition[];
  /** The latest index price from the socket (null until one arrives). */
  price: string | null;
  priceDecimals: number;
  currencyDecimals: number;
  onClose: (p: ContractPosition) => void;
  onStops: (p: ContractPosition) => void;
  onCancel: (p: ContractPosition) => void;
}

/** Positions of one status; a holding one's current price and P&L follow the live index. */
export function PositionList(props: Props) {
  const { t } = useTranslation();
  const { list, status } = props;
  if (list.length === 0) return <EmptyState text={t('common.noData')} />;
  return (
    <ul className="v-contract-positions">
      {list.map((p) => (
        <PositionCard key={p.id} p={p} {...props} status={status} />
      ))}
    </ul>
  );
}

function PositionCard({
  p,
  price,
  priceDecimals,
  currencyDecimals,
  onClose,
  onStops,
  onCancel,
}: Props & { p: ContractPosition }) {
  const { t } = useTranslation();
  const px = (v: string | null) => (v === null ? '—' : formatDecimal(v, priceDecimals, false));
  const money = (v: string | null) => (v === null ? '—' : formatDecimal(v, currencyDecimals, false));
  const live = p.status === 'holding' && price !== null && p.open_price !== null;
  const current = live ? price : p.current_price;
  const pnl = live ? profitAndLoss(p.direction, p.open_price!, price!, p.lots, p.lot_value) : p.pnl;
  const trend = pnl === null || pnl === '0' ? '' : pnl.startsWith('-') ? ' is-down' : ' is-up';
  const showHistory = () =>
    Dialog.alert({
      title: t('contract.history'),
      confirmText: t('common.close'),
      content: (
        <ol className="v-contract-history">
          {p.history.map((e) => (
            <li key={`${e.kind}${e.time}`}>
              <strong>{t(`contract.event.${e.kind}`)}</strong>
              {e.price !== null && <span> {px(e.price)}</span>}
              {e.take_profit !== null && (
                <span>
                  {' '}
                  {t('contract.takeProfit')} {px(e.take_profit)} / {t('contract.stopLoss')} {px(e.stop_loss)}
                </span>
              )}
              {e.tick && (
                <div className="v-contract-history__tick">
                  {t('contract.tick', {
                    price: px(e.tick.price),
                    time: formatTime(e.tick.time),
                    source: e.tick.source,
                    id: e.tick.id,
                  })}
                </div>
              )}
            </li>
          ))}
        </ol>
      ),
    });
  return (
    <li className="v-contract-position" data-testid={`position-${p.id}`}>
      <div className="v-contract-position__head">
        <span className={`v-contract-position__dir is-${p.direction}`}>{t(`contract.${p.direction}`)}</span>
        <span>
          {p.name} · {p.multiple}×
        </span>
        <span className="v-contract-position__status">
          {p.close_reason ? t(`contract.reason.${p.close_reason}`) : t(`contract.status.${p.status}`)}
        </span>
      </div>
      <dl className="v-contract-position__grid">
        <dt>{t('contract.lotsLabel')}</dt>
        <dd>{p.lots}</dd>
        <dt>{t('contract.openPrice')}</dt>
        <dd>{px(p.open_price ?? p.price)}</dd>
        <dt>{t('contract.currentPrice')}</dt>
        <dd data-testid="current-price">{px(current)}</dd>
        <dt>{t('contract.pnl')}</dt>
        <dd className={`v-contract-pnl${trend}`} data-testid="pnl">
          {money(pnl)}
        </dd>
        <dt>{t('contract.marketValue')}</dt>
        <dd>{money(p.market_value)}</dd>
        <dt>{t('contract.margin')}</dt>
        <dd>{money(p.margin)}</dd>
        <dt>{t('contract.fee')}</dt>
        <dd>{money(p.fee)}</dd>
        <dt>{t('contract.liquidationPrice')}</dt>
        <dd>{px(p.liquidation_price)}</dd>
        <dt>{t('contract.takeProfit')}</dt>
        <dd data-testid="tp">{px(p.take_profit)}</dd>
        <dt>{t('contract.stopLoss')}</dt>
        <dd data-testid="sl">{px(p.stop_loss)}</dd>
        {p.payout !== null && (
          <>
            <dt>{t('contract.payout')}</dt>
            <dd>{money(p.payout)}</dd>
          </>
        )}
      </dl>
      <div className="v-contract-position__actions">
        <button type="button" className="v-contract-link" onClick={showHistory}>
          {t('contract.history')}
        </button>
        {(p.status === 'holding' || p.status === 'pending') && (
          <Button size="mini" fill="outline" onClick={() => onStops(p)}>
            {t('contract.setStops')}
          </Button>
        )}
        {p.status === 'holding' && (
          <Button size="mini" color="primary" onClick={() => onClose(p)}>
            {t('contract.close')}
          </Button>
        )}
        {p.status === 'pending' && (
          <Button size="mini" color="danger" onClick={() => onCancel(p)}>
            {t('contract.cancel')}
          </Button>
        )}
      </div>
    </li>
  );
}
