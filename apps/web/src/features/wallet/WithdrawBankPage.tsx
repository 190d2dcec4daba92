import { CURRENCY_IDS } from '@verdant/api';
import { BankcardOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';
import { NavBarIconButton } from '../../shared/ui/NavBarAction';
import { QueryView } from '../../shared/ui/QueryView';
import { useCurrencies } from './components/hooks';
import { WithdrawForm } from './components/WithdrawForm';
import './wallet.css';

/** pages/assets/withdraw/bank/bank: bank money (currency 9999) to one of the user's bound cards. */
export default function WithdrawBankPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const currencies = useCurrencies();

  return (
    <QueryView query={currencies}>
      {(list) => {
        const cur = list.find((c) => c.is_fiat && c.can_withdraw) ?? currencies.byId(CURRENCY_IDS.BANK);
        if (!cur?.can_withdraw) return <EmptyState text={t('common.noData')} />;

        return (
          <div className="v-wallet-page">
            <NavBarIconButton label={t('titles.bankCards')} onClick={() => navigate(paths.bankCards)}>
              <BankcardOutline />
            </NavBarIconButton>
            <WithdrawForm cur={cur} kind="bank" />
          </div>
        );
      }}
    </QueryView>
  );
}
