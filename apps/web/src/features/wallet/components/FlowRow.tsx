import type { LedgerFlow } from '@verdant/api';
import type { i18n as I18n } from 'i18next';
import { useTranslation } from 'react-i18next';
import type en from '../../../locales/en.json';
import { formatTime } from '../../../shared/datetime';
import { formatAmount, isZero, NO_VALUE } from '../../../shared/money';
import '../wallet.css';
import './records.css';

type ReasonKey = `wallet.reason.${keyof typeof en.wallet.reason}`;

/** "+12.5" / "-3": a signed change, truncated to the coin's decimals. */
function signed(v: string, decimals: number): string {
  const s = formatAmount(v, decimals);
  return s.startsWith('-') || s === NO_VALUE || isZero(v) ? s : `+${s}`;
}

/**
 * Why a balance changed, in the interface's language. A reason this app does not know yet (a
 * newer server) shows the server's own text when it translated it, else a generic label: the
 * bare code (`spot_fill`) means nothing to a user.
 */
export function reasonLabel(i18n: I18n, flow: Pick<LedgerFlow, 'reason' | 'reason_text'>): string {
  const key = `wallet.reason.${flow.reason}`;
  if (/^[a-z0-9_]+$/.test(flow.reason) && i18n.exists(key)) return i18n.t(key as ReasonKey);
  const serverText = flow.reason_text.trim();
  return serverText && serverText !== flow.reason ? serverText : i18n.t('wallet.reason.other');
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
  const { t, i18n } = useTranslation();
  const up = !flow.delta_available.startsWith('-');
  return (
    <div className="v-wallet-tile v-wallet-flow" data-testid="flow">
      <div className="v-wallet-flow__main">
        <strong>{reasonLabel(i18n, flow)}</strong>
        <small>
          {withAccount && `${flow.symbol} · ${t(`wallet.account.${flow.type}`)} · `}
          {formatTime(flow.time)}
        </small>
      </div>
      <div className="v-wallet-flow__amounts">
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
