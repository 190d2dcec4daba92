import { BankcardOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../shared/paths';
import { EmptyState } from '../../shared/ui/EmptyState';
import { ErrorState } from '../../shared/ui/ErrorState';
import { NavBarAction } from '../../shared/ui/NavBarAction';
import { PageLoading } from '../../shared/ui/PageLoading';
import { BANK_ID } from './api';
import { useCurrencies } from './components/hooks';
import { WithdrawForm } from './components/WithdrawForm';
import './wallet.css';

/** pages/assets/withdraw/bank/bank: bank money (currency 9999) to one of the user's bound cards. */
export default function WithdrawBankPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const currencies = useCurrencies();

  if (currencies.isPending) return <PageLoading />;
  if (currencies.isError)
    return <ErrorState error={currencies.error} onRetry={() => void currencies.refetch()} />;
  const cur = currencies.data.find((c) => c.is_fiat && c.can_withdraw) ?? currencies.byId(BANK_ID);
  if (!cur?.can_withdraw) return <EmptyState text={t('common.noData')} />;

  return (
    <div className="v-wallet-page">
      <NavBarAction>
        <button
          type="button"
          className="v-wallet-navbar-icon"
          aria-label={t('titles.bankCards')}
          onClick={() => navigate(paths.bankCards)}
        >
          <BankcardOutline />
        </button>
      </NavBarAction>
      <WithdrawForm cur={cur} kind="bank" />
    </div>
  );
}
