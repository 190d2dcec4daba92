import { Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { cleanAmountInput, formatAmount, isGreater } from '../../../shared/money';
import './amount-input.css';
import './fields.css';

interface Props {
  value?: string;
  onChange?: (value: string) => void;
  decimals: number;
  symbol: string;
  /** The "all" shortcut fills in this amount. */
  all?: string | null;
  placeholder?: string;
  id?: string;
  label?: string;
}

/** An amount as a decimal string: digits and one point, at most the currency's decimals. */
export function AmountInput({ value, onChange, decimals, symbol, all, placeholder, id, label }: Props) {
  const { t } = useTranslation();
  return (
    <div className="v-wallet-amount">
      <Input
        id={id}
        aria-label={label}
        className="v-wallet-amount__input"
        inputMode="decimal"
        autoComplete="off"
        value={value ?? ''}
        placeholder={placeholder}
        onChange={(v) => onChange?.(cleanAmountInput(v, decimals))}
      />
      <span className="v-wallet-amount__symbol">{symbol}</span>
      {all !== undefined && (
        <button
          type="button"
          className="v-wallet-amount__all"
          disabled={!all}
          onClick={() => all && onChange?.(all)}
        >
          {t('wallet.all')}
        </button>
      )}
    </div>
  );
}

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  decimals: number;
  symbol: string;
  /** What the account holds, said under the field. */
  available: string;
  /** What "all" fills in (the available amount unless a fee or limit lowers it); none when 0. */
  max?: string;
  placeholder?: string;
}

/** An amount field on a wallet card: its label, the input with "all", and the available amount under it. */
export function AmountField({
  id,
  label,
  available,
  max = available,
  decimals,
  symbol,
  ...input
}: FieldProps) {
  const { t } = useTranslation();
  return (
    <>
      <label className="v-wallet-field-card__label" htmlFor={id}>
        {label}
      </label>
      <AmountInput
        {...input}
        id={id}
        decimals={decimals}
        symbol={symbol}
        all={isGreater(max, '0') ? formatAmount(max, decimals, { group: false }) : null}
      />
      <p className="v-wallet-field-card__hint">
        {t('wallet.availableAmount', { amount: formatAmount(available, decimals), symbol })}
      </p>
    </>
  );
}
