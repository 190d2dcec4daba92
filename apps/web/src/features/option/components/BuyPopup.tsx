import type { OptionOrder, OptionSeconds, PayableCurrency } from '@verdant/api';
import { ErrorCode } from '@verdant/api';
import { winPayout } from '@verdant/engine';
import { Button, Input, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../shared/api';
import { cleanAmountInput, formatAmount, isGreater, isLess, parseAmount } from '../../../shared/money';
import { href } from '../../../shared/paths';
import { submitOption } from '../api';
import { percent } from '../format';
import { RulesText } from './RulesSheet';

interface Props {
  visible: boolean;
  direction: 'bullish' | 'bearish';
  symbol: string;
  name: string;
  seconds: readonly OptionSeconds[];
  currency: PayableCurrency | undefined;
  onClose: () => void;
  onBought: (order: OptionOrder) => void;
  /** The server says the account is not verified: the page asks to verify. */
  onUnverified: () => void;
}

/**
 * The buy popup: delivery time first, then the amount (its range shown), the balance of the
 * option account, the expected profit and the rules; checked here in the spec's order and again
 * by the server, whose message is shown as it comes.
 */
export function BuyPopup({
  visible,
  direction,
  symbol,
  name,
  seconds,
  currency,
  onClose,
  onBought,
  onUnverified,
}: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<number | null>(null);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<{ text: string; recharge?: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const terms = seconds.find((s) => s.seconds === chosen);
  const decimals = currency?.decimals ?? 6;
  const unit = currency?.symbol ?? '';
  const parsed = parseAmount(amount, decimals);
  const expected =
    terms && parsed
      ? winPayout({ amount: parsed, profitRatio: terms.profit_ratio, feeRate: terms.fee_rate, decimals })
      : null;

  function check(): string | null {
    if (!terms) return t('option.chooseTimeFirst');
    if (!amount.trim()) return t('option.amountRequired');
    const range = {
      min: formatAmount(terms.min_amount, decimals),
      max: formatAmount(terms.max_amount, decimals),
      symbol: unit,
    };
    if (!parsed || isLess(parsed, terms.min_amount) || isGreater(parsed, terms.max_amount))
      return t('option.amountOutOfRange', range);
    return null;
  }

  async function buy() {
    const problem = check();
    if (problem) {
      setError({ text: problem });
      return;
    }
    if (currency?.available != null && isGreater(parsed!, currency.available)) {
      setError({ text: t('option.insufficient'), recharge: true });
      return;
    }
    setError(null);
    setBusy(true);
    try {
      const order = await submitOption({
        symbol,
        seconds: chosen!,
        currency: unit,
        amount: parsed!,
        direction,
      });
      setAmount('');
      onBought(order);
    } catch (e) {
      if (e instanceof ApiError && e.code === ErrorCode.VERIFICATION_REQUIRED) onUnverified();
      else if (e instanceof ApiError)
        setError({ text: e.message, recharge: e.code === ErrorCode.INSUFFICIENT_BALANCE });
      else setError({ text: t('common.error') });
    } finally {
      setBusy(false);
    }
  }

  const up = direction === 'bullish';
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="v-option-buy">
      <h2 className={`v-option-buy__title v-option-buy__title--${direction}`}>
        {name} · {up ? t('option.bullish') : t('option.bearish')}
      </h2>
      <fieldset className="v-option-buy__times">
        <legend>{t('option.deliveryTime')}</legend>
        {seconds.map((s) => (
          <button
            key={s.seconds}
            type="button"
            aria-pressed={chosen === s.seconds}
            className={`v-option-buy__time${chosen === s.seconds ? ' is-active' : ''}`}
            onClick={() => {
              setChosen(s.seconds);
              setError(null);
            }}
          >
            <strong>{t('option.seconds', { n: s.seconds })}</strong>
            <span>{t('option.profitOf', { ratio: percent(s.profit_ratio) })}</span>
          </button>
        ))}
      </fieldset>
      <label className="v-option-buy__label" htmlFor="v-option-amount">
        {t('option.amount')} ({unit})
      </label>
      <Input
        id="v-option-amount"
        className="v-option-buy__amount"
        inputMode="decimal"
        value={amount}
        placeholder={
          terms
            ? t('option.rangePlaceholder', {
                min: formatAmount(terms.min_amount, decimals),
                max: formatAmount(terms.max_amount, decimals),
                symbol: unit,
              })
            : t('option.chooseTimeFirst')
        }
        onChange={(v) => {
          setAmount(cleanAmountInput(v, decimals));
          setError(null);
        }}
      />
      <dl className="v-option-buy__facts">
        <div>
          <dt>{t('option.balance')}</dt>
          <dd>
            {currency?.available == null ? '—' : `${formatAmount(currency.available, decimals)} ${unit}`}{' '}
            <button
              type="button"
              className="v-option-buy__link"
              onClick={() => navigate(href('transfer', { from: 'spot', to: 'option' }))}
            >
              {t('option.transferIn')}
            </button>
          </dd>
        </div>
        <div>
          <dt>{t('option.expectedProfit')}</dt>
          <dd className="v-option-buy__profit" data-testid="option-expected">
            {expected ? `+${formatAmount(expected.net, decimals)} ${unit}` : '—'}
          </dd>
        </div>
        <div>
          <dt>{t('option.fee')}</dt>
          <dd>{expected ? `${formatAmount(expected.fee, decimals)} ${unit}` : '—'}</dd>
        </div>
      </dl>
      {error && (
        <p className="v-option-buy__error" role="alert">
          {error.text}{' '}
          {error.recharge && (
            <button type="button" className="v-option-buy__link" onClick={() => navigate(href('deposit'))}>
              {t('option.recharge')}
            </button>
          )}
        </p>
      )}
      <details className="v-option-buy__rules">
        <summary>
          {t('option.rulesShort', {
            fee: terms ? percent(terms.fee_rate) : percent(seconds[0]?.fee_rate ?? '0'),
          })}
        </summary>
        <RulesText seconds={seconds} symbol={unit} />
      </details>
      <Button
        block
        shape="rounded"
        loading={busy}
        className={`v-option-buy__confirm v-option-buy__confirm--${direction}`}
        onClick={() => void buy()}
      >
        {t('option.confirm')}
      </Button>
    </Popup>
  );
}
