import type { OptionSeconds } from '@verdant/api';
import { Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { formatAmount } from '../../../shared/money';
import { percent } from '../format';

interface Props {
  visible: boolean;
  onClose: () => void;
  seconds: readonly OptionSeconds[];
  symbol: string;
}

/** The payout table and the rules that decide a result, shown before any purchase (docs/decisions.md). */
export function RulesSheet({ visible, onClose, seconds, symbol }: Props) {
  const { t } = useTranslation();
  return (
    <Popup visible={visible} onMaskClick={onClose} onClose={onClose} bodyClassName="v-option-rules">
      <h2 className="v-option-rules__title">{t('option.rulesTitle')}</h2>
      <RulesText seconds={seconds} symbol={symbol} />
      <button type="button" className="v-option-rules__close" onClick={onClose}>
        {t('common.close')}
      </button>
    </Popup>
  );
}

export function RulesText({ seconds, symbol }: { seconds: readonly OptionSeconds[]; symbol: string }) {
  const { t } = useTranslation();
  const fee = seconds[0] ? percent(seconds[0].fee_rate) : '0';
  return (
    <div className="v-option-rules__body">
      <table className="v-option-rules__table">
        <caption>{t('option.payoutTable')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('option.deliveryTime')}</th>
            <th scope="col">{t('option.profitRatio')}</th>
            <th scope="col">{t('option.stakeRange')}</th>
          </tr>
        </thead>
        <tbody>
          {seconds.map((s) => (
            <tr key={s.seconds}>
              <td>{t('option.seconds', { n: s.seconds })}</td>
              <td>{percent(s.profit_ratio)}%</td>
              <td>
                {formatAmount(s.min_amount, 6)} – {formatAmount(s.max_amount, 6)} {symbol}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ul className="v-option-rules__list">
        <li>{t('option.rules.direction')}</li>
        <li>{t('option.rules.ticks')}</li>
        <li>{t('option.rules.win', { fee })}</li>
        <li>{t('option.rules.loss')}</li>
        <li>{t('option.rules.flat')}</li>
        <li>{t('option.rules.check')}</li>
      </ul>
    </div>
  );
}
