import type { LedgerFlow } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/datetime';
import { formatAmount, isZero, NO_VALUE } from '../../../shared/money';

/** "+12.5" / "-3": a signed change, truncated to the coin's decimals. */
function signed(v: string, decimals: number): string {
  const s = formatAmount(v, decimals);
  return s.startsWith('-') || s === NO_VALUE || isZero(v) ? s : `+${s}`;
}

/** One ledger change: why, when, how much moved in available and frozen, and what is left. */
export function FlowRow({
  flow,
  decimals,
  withAccount = false,
}: {
  flow: LedgerFlow;
  decimals: number;
  withAccount?: boolean;
}) {
  const { t } = useTranslation();
  const up = !flow.delta_available.startsWith('-');
  return (
    <div className="v-flow" data-testid="flow">
      <div className="v-flow__main">
        <strong>{flow.reason_text}</strong>
        <small>
          {withAccount && `${flow.symbol} · ${t(`wallet.account.${flow.type}`)} · `}
          {formatTime(flow.time)}
        </small>
      </div>
      <div className="v-flow__amounts">
        {!isZero(flow.delta_available) && (
          <span className={up ? 'is-up' : 'is-down'}>{signed(flow.delta_available, decimals)}</span>
        )}
        {!isZero(flow.delta_frozen) && (
          <small>
            {t('wallet.frozen')} {signed(flow.delta_frozen, decimals)}
          </small>
        )}
        <small>
          {t('wallet.availableAfter')} {formatAmount(flow.available_after, decimals)}
        </small>
      </div>
    </div>
  );
}
