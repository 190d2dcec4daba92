import type { ContractMarket } from '@verdant/api';
import { Popup } from 'antd-mobile';
import { useTranslation } from 'react-i18next';

interface Props {
  visible: boolean;
  onClose: () => void;
  contract: ContractMarket;
}

const percent = (fraction: string) => `${(Number(fraction) * 100).toFixed(3).replace(/\.?0+$/, '')}%`;

/** How contracts work, in the user's language: the same rules docs/decisions.md states. */
export function RulesSheet({ visible, onClose, contract }: Props) {
  const { t } = useTranslation();
  const params = {
    lot: contract.lot_value,
    base: contract.name.split('/')[0],
    currency: contract.currency,
    open: percent(contract.open_fee_rate),
    close: percent(contract.close_fee_rate),
    maintenance: percent(contract.maintenance_rate),
    multiples: contract.multiples.join('×, '),
    maxOrder: contract.max_lots_per_order,
    maxUser: contract.max_lots_per_user,
    maxPositions: contract.max_open_positions,
  };
  const rules = ['lot', 'margin', 'fee', 'pnl', 'price', 'stops', 'liquidation', 'limit', 'limits'] as const;
  return (
    <Popup
      visible={visible}
      onMaskClick={onClose}
      onClose={onClose}
      bodyClassName="v-contract-rules"
      showCloseButton
    >
      <h2>{t('contract.rules.title', { name: contract.name })}</h2>
      <ol>
        {rules.map((r) => (
          <li key={r}>{t(`contract.rules.${r}`, params)}</li>
        ))}
      </ol>
    </Popup>
  );
}
