import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type MarketTicker, ORDER_SIDES, ORDER_TYPES, type OrderSide, type OrderType } from '@verdant/api';
import { mulDecimal } from '@verdant/engine';
import { Button, Dialog, Input } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api';
import { formatDecimal } from '../../../shared/markets';
import { cleanAmountInput, isGreater, isZero, parseAmount } from '../../../shared/money';
import { showToast } from '../../../shared/toast';
import { TabRow } from '../../../shared/ui/TabRow';
import { placeOrder, spotBalancesQuery, tradeKeys } from '../api';
import {
  buyQuantity,
  feePercent,
  floorToStep,
  orderValue,
  percentOf,
  sellQuantity,
  stepDecimals,
} from '../trade-math';
import './order-form.css';

const SHORTCUTS = [25, 50, 75, 100] as const;

interface Props {
  market: MarketTicker;
  side: OrderSide;
  onSide: (side: OrderSide) => void;
  /** A price picked from the order book. */
  pickedPrice: string | null;
  onPlaced: () => void;
}

/** Buy or sell: limit or market, price, quantity (or amount for a market buy), balance, fee. */
export function OrderForm({ market, side, onSide, pickedPrice, onPlaced }: Props) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const balances = useQuery(spotBalancesQuery());
  const [type, setType] = useState<OrderType>('limit');
  const [price, setPrice] = useState(() =>
    market.last ? formatDecimal(market.last, market.price_decimals, false).replace(/,/g, '') : '',
  );
  const [qty, setQty] = useState('');
  const [amount, setAmount] = useState('');
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (pickedPrice) setPrice(pickedPrice);
  }, [pickedPrice]);

  const qtyDecimals = Math.min(market.amount_decimals, stepDecimals(market.lot_size));
  const quoteBalance = balances.data?.[market.quote];
  const baseBalance = balances.data?.[market.base];
  const quoteDecimals = quoteBalance?.decimals ?? market.price_decimals;
  const payCoin = side === 'buy' ? market.quote : market.base;
  const available = (side === 'buy' ? quoteBalance : baseBalance)?.available ?? '0';
  const byAmount = type === 'market' && side === 'buy';
  const feeRate = type === 'market' ? market.taker_fee : market.maker_fee;

  const priceValue = parseAmount(price, market.price_decimals);
  const qtyValue = parseAmount(qty, qtyDecimals);
  const amountValue = parseAmount(amount, quoteDecimals);
  const total =
    type === 'limit' && priceValue && qtyValue ? orderValue(priceValue, qtyValue, quoteDecimals) : null;

  const shortcut = (pct: number) => {
    if (byAmount) {
      // a market buy's amount is a multiple of tick × lot (the server's grid, docs/decisions.md)
      setAmount(
        floorToStep(percentOf(available, pct, quoteDecimals), mulDecimal(market.tick_size, market.lot_size)),
      );
      return;
    }
    if (side === 'sell') {
      setQty(sellQuantity(available, pct, market.lot_size));
      return;
    }
    const at = type === 'limit' ? priceValue : market.last;
    if (!at) {
      showToast({ content: t('trade.priceRequired') });
      return;
    }
    setQty(buyQuantity(available, pct, at, market.lot_size));
  };

  const submit = async () => {
    if (type === 'limit' && !priceValue) return showToast({ content: t('trade.priceRequired') });
    if (byAmount && !amountValue) return showToast({ content: t('trade.amountRequired') });
    if (!byAmount && !qtyValue)
      return showToast({ content: t(side === 'buy' ? 'trade.buyQtyRequired' : 'trade.sellQtyRequired') });

    const lines = [
      `${t(side === 'buy' ? 'trade.buy' : 'trade.sell')} ${market.name} · ${t(`trade.type.${type}`)}`,
      type === 'limit' ? `${t('trade.priceLabel')}: ${price} ${market.quote}` : t('trade.atMarket'),
      byAmount
        ? `${t('trade.amountLabel')}: ${amount} ${market.quote}`
        : `${t('trade.qtyLabel')}: ${qty} ${market.base}`,
      total ? `${t('trade.total')}: ${formatDecimal(total, quoteDecimals)} ${market.quote}` : null,
    ].filter(Boolean);
    const ok = await Dialog.confirm({
      title: t('trade.confirmTitle'),
      content: (
        <div className="v-market-order-confirm">
          {lines.map((l) => (
            <p key={l}>{l}</p>
          ))}
        </div>
      ),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!ok) return;
    setPending(true);
    try {
      const res = await placeOrder({
        symbol: market.symbol,
        side,
        type,
        ...(type === 'limit' ? { price: priceValue ?? '' } : {}),
        ...(byAmount ? { amount: amountValue ?? '' } : { qty: qtyValue ?? '' }),
      });
      showToast({ content: res.message || t('common.operationSuccess') });
      setQty('');
      setAmount('');
      onPlaced();
    } catch (e) {
      if (!(e instanceof ApiError && e.kind === 'not-logged-in')) {
        showToast({ content: e instanceof Error && e.message ? e.message : t('common.error') });
      }
    } finally {
      setPending(false);
      void queryClient.invalidateQueries({ queryKey: tradeKeys.orders() });
      void queryClient.invalidateQueries({ queryKey: tradeKeys.balances() });
    }
  };

  const over =
    (byAmount && amountValue && isGreater(amountValue, available)) ||
    (side === 'sell' && qtyValue && isGreater(qtyValue, available)) ||
    (side === 'buy' && total && isGreater(total, available));

  return (
    <div className="v-market-order-form">
      <TabRow
        className="v-market-order-form__sides"
        tabClassName={(s) => `v-market-order-form__side v-market-order-form__side--${s}`}
        options={ORDER_SIDES}
        value={side}
        onChange={onSide}
        labelOf={(s) => t(s === 'buy' ? 'trade.buy' : 'trade.sell')}
      />
      <TabRow
        className="v-market-order-form__types"
        tabClassName="v-market-seg"
        options={ORDER_TYPES}
        value={type}
        onChange={setType}
        labelOf={(k) => t(`trade.type.${k}`)}
      />

      {type === 'limit' ? (
        <div className="v-market-order-form__field">
          <span>{t('trade.priceLabel')}</span>
          <Input
            inputMode="decimal"
            value={price}
            onChange={(v) => setPrice(cleanAmountInput(v, market.price_decimals))}
            placeholder={t('trade.pricePlaceholder')}
            aria-label={t('trade.priceLabel')}
          />
          <em>{market.quote}</em>
        </div>
      ) : (
        <div className="v-market-order-form__field v-market-order-form__field--static">
          <span>{t('trade.priceLabel')}</span>
          <span className="v-market-order-form__static-value">{t('trade.atMarket')}</span>
        </div>
      )}

      {byAmount ? (
        <div className="v-market-order-form__field">
          <span>{t('trade.amountLabel')}</span>
          <Input
            inputMode="decimal"
            value={amount}
            onChange={(v) => setAmount(cleanAmountInput(v, quoteDecimals))}
            placeholder={t('trade.amountPlaceholder')}
            aria-label={t('trade.amountLabel')}
          />
          <em>{market.quote}</em>
        </div>
      ) : (
        <div className="v-market-order-form__field">
          <span>{t('trade.qtyLabel')}</span>
          <Input
            inputMode="decimal"
            value={qty}
            onChange={(v) => setQty(cleanAmountInput(v, qtyDecimals))}
            placeholder={t(side === 'buy' ? 'trade.buyQtyPlaceholder' : 'trade.sellQtyPlaceholder')}
            aria-label={t('trade.qtyLabel')}
          />
          <em>{market.base}</em>
        </div>
      )}

      <div className="v-market-order-form__pcts">
        {SHORTCUTS.map((p) => (
          <button
            key={p}
            type="button"
            className="v-market-seg v-market-order-form__pct"
            onClick={() => shortcut(p)}
          >
            {p}%
          </button>
        ))}
      </div>

      <dl className="v-market-order-form__facts">
        <div>
          <dt>{t('trade.available')}</dt>
          <dd data-testid="available">
            {balances.isPending
              ? '…'
              : formatDecimal(
                  available,
                  side === 'buy' ? quoteDecimals : (baseBalance?.decimals ?? market.amount_decimals),
                  false,
                )}{' '}
            {payCoin}
          </dd>
        </div>
        {type === 'limit' && (
          <div>
            <dt>{t('trade.total')}</dt>
            <dd>
              {total ? formatDecimal(total, quoteDecimals) : '—'} {market.quote}
            </dd>
          </div>
        )}
        <div>
          <dt>{t('trade.fee')}</dt>
          <dd data-testid="fee">
            {type === 'limit'
              ? t('trade.feeMakerTaker', {
                  maker: feePercent(market.maker_fee),
                  taker: feePercent(market.taker_fee),
                })
              : `${feePercent(feeRate)}%`}{' '}
            ·{' '}
            {t(side === 'buy' ? 'trade.feeInBase' : 'trade.feeInQuote', {
              coin: side === 'buy' ? market.base : market.quote,
            })}
          </dd>
        </div>
        <div>
          <dt>{t('trade.minimum')}</dt>
          <dd>
            {formatDecimal(market.min_amount, quoteDecimals, false)} {market.quote}
          </dd>
        </div>
      </dl>
      {over && !isZero(available) ? (
        <p className="v-market-order-form__warn">{t('trade.insufficient')}</p>
      ) : null}
      {over && isZero(available) ? (
        <p className="v-market-order-form__warn">{t('trade.noBalance', { coin: payCoin })}</p>
      ) : null}

      <Button
        block
        className={`v-market-order-form__submit v-market-order-form__submit--${side}`}
        loading={pending}
        disabled={pending}
        onClick={() => void submit()}
      >
        {t(side === 'buy' ? 'trade.buyCoin' : 'trade.sellCoin', { coin: market.base })}
      </Button>
    </div>
  );
}
