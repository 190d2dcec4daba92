import { Input } from 'antd-mobile';
import { cleanAmountInput } from '../../shared/money';

interface Props {
  id: string;
  value: string;
  onChange: (v: string) => void;
  decimals: number;
  symbol: string;
  placeholder?: string;
}

/** An amount as a decimal string: digits and one point, at most the currency's decimals. */
export function AmountField({ id, value, onChange, decimals, symbol, placeholder }: Props) {
  return (
    <div className="v-card-amount">
      <Input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        onChange={(v) => onChange(cleanAmountInput(v, decimals))}
      />
      <span>{symbol}</span>
    </div>
  );
}
