import type { ContractPosition } from '@verdant/api';
import { Button, Input, Popup } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../shared/api';
import { showToast } from '../../../shared/toast';
import { setStops } from '../api';
import { cleanDecimal as clean } from './LotsStepper';

/** lever/setstop: both prices, or both empty to remove them. */
export function StopsSheet({
  position,
  onClose,
  onSaved,
}: {
  position: ContractPosition | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [tp, setTp] = useState('');
  const [sl, setSl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [shownFor, setShownFor] = useState<string | null>(null);
  if (position && shownFor !== position.id) {
    setShownFor(position.id);
    setTp(position.take_profit ?? '');
    setSl(position.stop_loss ?? '');
    setError(null);
  }
  const save = async () => {
    if (!position) return;
    try {
      await setStops(position.id, tp.trim(), sl.trim());
      showToast(t('contract.stopsSaved'));
      onSaved();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <Popup visible={position !== null} onMaskClick={onClose} bodyClassName="v-contract-stops">
      <h2>{t('contract.setStops')}</h2>
      <div className="v-contract-form__row">
        <span>{t('contract.takeProfit')}</span>
        <Input
          inputMode="decimal"
          value={tp}
          onChange={(v) => setTp(clean(v))}
          aria-label={t('contract.takeProfit')}
        />
      </div>
      <div className="v-contract-form__row">
        <span>{t('contract.stopLoss')}</span>
        <Input
          inputMode="decimal"
          value={sl}
          onChange={(v) => setSl(clean(v))}
          aria-label={t('contract.stopLoss')}
        />
      </div>
      {error && (
        <div className="v-contract-form__error" role="alert">
          {error}
        </div>
      )}
      <Button block color="primary" onClick={() => void save()} data-testid="save-stops">
        {t('common.confirm')}
      </Button>
    </Popup>
  );
}
