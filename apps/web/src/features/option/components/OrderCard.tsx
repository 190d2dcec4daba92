import type { OptionOrder } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/datetime';
import { formatAmount } from '../../../shared/money';
import { secondsLeft, standing } from '../format';

interface Props {
  order: OptionOrder;
  priceDecimals: number;
  /** The live index of the order's market (waiting orders). */
  current?: string | null;
  now?: number;
}

/**
 * One option: while waiting, the countdown and the live price against the purchase price; once
 * delivered, the result. Both ticks (time, price) are shown so the user can check the result.
 */
export function OrderCard({ order: o, priceDecimals, current = null, now = Date.now() }: Props) {
  const { t } = useTranslation();
  const px = (v: string | null | undefined) => formatAmount(v, priceDecimals, { pad: true });
  const money = (v: string | null) => formatAmount(v, 6);
  const waiting = o.status === 'waiting';
  // the device's clock may differ from the server's: never more than the option's own time
  const left = Math.min(o.seconds, secondsLeft(Date.parse(o.deliver_at), 0, now));
  const now_ = waiting ? standing(o.direction, o.purchase.price, current) : null;
  return (
    <article className={`v-option-order v-option-order--${o.direction}`} data-testid={`option-order-${o.id}`}>
      <header className="v-option-order__head">
        <strong>{o.name}</strong>
        <span className={`v-option-order__dir v-option-order__dir--${o.direction}`}>
          {o.direction === 'bullish' ? t('option.bullish') : t('option.bearish')}
        </span>
        <span>{t('option.seconds', { n: o.seconds })}</span>
        {waiting ? (
          <span className="v-option-order__countdown" data-testid="option-countdown" aria-live="polite">
            {left > 0 ? t('option.countdown', { n: left }) : t('option.delivering')}
          </span>
        ) : (
          <span
            className={`v-option-order__result v-option-order__result--${o.result}`}
            data-testid="option-result"
          >
            {t(`option.result.${o.result ?? 'flat'}`)}
          </span>
        )}
      </header>
      <dl className="v-option-order__rows">
        <div>
          <dt>{t('option.amount')}</dt>
          <dd>
            {money(o.amount)} {o.currency}
          </dd>
        </div>
        <div>
          <dt>{t('option.purchasePrice')}</dt>
          <dd>{px(o.purchase.price)}</dd>
        </div>
        <div>
          <dt>{t('option.purchaseTick')}</dt>
          <dd>
            #{o.purchase.id} · {formatTime(o.purchase.time)}
          </dd>
        </div>
        {waiting ? (
          <>
            <div>
              <dt>{t('option.currentPrice')}</dt>
              <dd className={now_ ? `v-option-order__now--${now_}` : undefined}>
                {px(current)} {now_ && `· ${t(`option.standing.${now_}`)}`}
              </dd>
            </div>
            <div>
              <dt>{t('option.deliverAt')}</dt>
              <dd>{formatTime(o.deliver_at)}</dd>
            </div>
            <div>
              <dt>{t('option.expectedProfit')}</dt>
              <dd>
                +{money(o.expected_profit)} {o.currency}
              </dd>
            </div>
          </>
        ) : (
          <>
            <div>
              <dt>{t('option.deliveryPrice')}</dt>
              <dd>{px(o.delivery?.price)}</dd>
            </div>
            <div>
              <dt>{t('option.deliveryTick')}</dt>
              <dd>{o.delivery ? `#${o.delivery.id} · ${formatTime(o.delivery.time)}` : '—'}</dd>
            </div>
            <div>
              <dt>{t('option.pnl')}</dt>
              <dd className={`v-option-order__pnl v-option-order__pnl--${o.result}`} data-testid="option-pnl">
                {o.pnl && !o.pnl.startsWith('-') && o.pnl !== '0' ? '+' : ''}
                {money(o.pnl)} {o.currency}
              </dd>
            </div>
            <div>
              <dt>{t('option.fee')}</dt>
              <dd>
                {money(o.fee)} {o.currency}
              </dd>
            </div>
            <div>
              <dt>{t('option.purchaseTime')}</dt>
              <dd>{formatTime(o.purchase_time)}</dd>
            </div>
          </>
        )}
      </dl>
    </article>
  );
}
