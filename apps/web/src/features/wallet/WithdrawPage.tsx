import { CURRENCY_IDS } from '@verdant/api';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { href } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';
import { QueryView } from '../../shared/ui/QueryView';
import { Chips } from './components/Chips';
import { idParam, useCurrencies } from './components/hooks';
import { WithdrawForm } from './components/WithdrawForm';
import './wallet.css';
import { RecordsAction } from './components/RecordsAction';

/** pages/assets/withdraw/index: a coin to one of the user's saved addresses. Bank goes to its own page. */
export default function WithdrawPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const currencies = useCurrencies();

  return (
    <QueryView query={currencies}>
      {(list) => {
        const coins = list.filter((c) => c.can_withdraw && !c.is_fiat);
        const bank = list.find((c) => c.can_withdraw && c.is_fiat);
        const wanted = idParam(params.get('currency_id'), CURRENCY_IDS.USDT);
        const cur = coins.find((c) => c.id === wanted) ?? coins[0];

        return (
          <div className="v-wallet-page">
            <RecordsAction to={href('record', { tab: 'withdraw' })} label={t('titles.record')} />
            <section className="v-wallet-card">
              <Chips
                legend={t('wallet.coin')}
                options={[
                  ...coins.map((c) => ({ value: String(c.id), label: c.symbol })),
                  ...(bank ? [{ value: 'bank', label: t('withdraw.toBank') }] : []),
                ]}
                value={cur ? String(cur.id) : null}
                onChange={(v) =>
                  v === 'bank'
                    ? navigate(href('withdrawBank'))
                    : setParams({ currency_id: v }, { replace: true })
                }
              />
            </section>
            {cur ? (
              <WithdrawForm key={cur.id} cur={cur} kind="address" />
            ) : (
              <EmptyState text={t('common.noData')} />
            )}
          </div>
        );
      }}
    </QueryView>
  );
}
