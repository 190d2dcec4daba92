import { Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { cleanAmountInput } from '../../../shared/money';
import './amount-input.css';

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
