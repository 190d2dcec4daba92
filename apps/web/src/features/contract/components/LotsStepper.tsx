import { AddOutline, MinusOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';

/** What a price field keeps of what is typed: digits and the decimal point. */
export const cleanDecimal = (raw: string) => raw.replace(/[^0-9.]/g, '');

/** Lots: a whole number from 1 to the per-order maximum, typed or stepped. */
export function LotsStepper({
  value,
  max,
  onChange,
}: {
  value: number;
  max: number;
  onChange: (n: number) => void;
}) {
  const { t } = useTranslation();
  const clamp = (n: number) => Math.min(max, Math.max(1, Math.floor(n)));
  return (
    <div className="v-contract-stepper">
      <button
        type="button"
        aria-label={t('contract.fewerLots')}
        disabled={value <= 1}
        onClick={() => onChange(clamp(value - 1))}
      >
        <MinusOutline />
      </button>
      <input
        inputMode="numeric"
        aria-label={t('contract.lotsLabel')}
        value={String(value)}
        onChange={(e) => {
          const digits = e.target.value.replace(/\D/g, '');
          onChange(clamp(digits === '' ? 1 : Number(digits)));
        }}
      />
      <button
        type="button"
        aria-label={t('contract.moreLots')}
        disabled={value >= max}
        onClick={() => onChange(clamp(value + 1))}
        data-testid="more-lots"
      >
        <AddOutline />
      </button>
    </div>
  );
}
