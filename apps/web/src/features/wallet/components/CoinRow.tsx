import type { CurrencyBalance } from '@verdant/api';
import { RightOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { formatAmount, HIDDEN_AMOUNT, NO_VALUE } from '../../../shared/money';
import './coin-row.css';

interface Props {
  coin: CurrencyBalance;
  hidden?: boolean;
  usdtDecimals: number;
  onClick?: () => void;
}

/** A round badge with the coin's first letters, in place of a logo. */
export function CoinBadge({ symbol }: { symbol: string }) {
  return (
    <span className="v-wallet-coin-badge" data-symbol={symbol} aria-hidden="true">
      {symbol.slice(0, symbol.length > 4 ? 1 : 2)}
    </span>
  );
}

/** One coin of an account: total with its USDT value, available and frozen below. */
export function CoinRow({ coin, hidden = false, usdtDecimals, onClick }: Props) {
  const { t } = useTranslation();
  const amount = (v: string) => (hidden ? HIDDEN_AMOUNT : formatAmount(v, coin.decimals));
  const value = hidden
    ? HIDDEN_AMOUNT
    : coin.usdt_value === null
      ? NO_VALUE
      : `≈ ${formatAmount(coin.usdt_value, usdtDecimals)} USDT`;
  return (
    <button type="button" className="v-wallet-coin" onClick={onClick} data-coin={coin.symbol}>
      <span className="v-wallet-coin__head">
        <CoinBadge symbol={coin.symbol} />
        <span className="v-wallet-coin__name">
          <strong>{coin.symbol}</strong>
          <small>{coin.name}</small>
        </span>
        <span className="v-wallet-coin__total">
          <strong data-testid={`total-${coin.symbol}`}>{amount(coin.total)}</strong>
          <small title={coin.usdt_value === null ? t('assets.noPrice') : undefined}>{value}</small>
        </span>
        {onClick && <RightOutline className="v-wallet-coin__chevron" />}
      </span>
      <span className="v-wallet-coin__split">
        <span>
          <small>{t('wallet.available')}</small>
          <span data-testid={`available-${coin.symbol}`}>{amount(coin.available)}</span>
        </span>
        <span>
          <small>{t('wallet.frozen')}</small>
          <span data-testid={`frozen-${coin.symbol}`}>{amount(coin.frozen)}</span>
        </span>
      </span>
    </button>
  );
}
