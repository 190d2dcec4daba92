import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CURRENCY_IDS } from '@verdant/api';
import { Button } from 'antd-mobile';
import { MessageOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { openCustomerService } from '../../shared/customer';
import { formatAmount } from '../../shared/money';
import { href } from '../../shared/paths';
import { allOf, QueryView } from '../../shared/ui/QueryView';
import { depositAddressQuery } from './api';
import { BankDetails } from './components/BankDetails';
import { useCurrencies } from './components/hooks';
import './wallet.css';
import './deposit.css';
import './vip.css';

/**
 * The VIP deposit channel (Home's "VIP deposit channel"): large deposits by bank transfer to the
 * platform's own account, arranged with online service. It is said plainly: the same review and
 * the same ledger as any deposit, no better rate and no shortcut.
 */
export default function VipDepositPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const currencies = useCurrencies();
  const fiat =
    currencies.data?.find((c) => c.id === CURRENCY_IDS.BANK && c.can_deposit) ??
    currencies.data?.find((c) => c.is_fiat && c.can_deposit);
  const bank = useQuery({ ...depositAddressQuery(fiat?.id ?? 0, ''), enabled: Boolean(fiat) });

  const contact = () => void openCustomerService(queryClient, navigate).catch(() => {});

  return (
    <QueryView query={allOf(currencies, fiat ? bank : { ...bank, isPending: false, data: null })}>
      {() => {
        return (
          <div className="v-wallet-page">
            <section className="v-wallet-card v-wallet-vip">
              <h2 className="v-wallet-vip__title">{t('vip.title')}</h2>
              <p>{t('vip.lead')}</p>
            </section>
            <ol className="v-wallet-tips v-vip__steps">
              <li>{t('vip.step1')}</li>
              <li>{t('vip.step2')}</li>
              <li>{t('vip.step3')}</li>
            </ol>
            {fiat && bank.data?.bank ? (
              <>
                <h3 className="v-wallet-vip__subtitle">{t('vip.bankTitle')}</h3>
                <BankDetails bank={bank.data.bank} />
                <ul className="v-wallet-tips">
                  <li>
                    {t('deposit.minTip', {
                      min: formatAmount(bank.data.min_deposit, fiat.decimals),
                      symbol: fiat.symbol,
                    })}
                  </li>
                  <li>{t('vip.sameReview')}</li>
                </ul>
              </>
            ) : (
              <p className="v-wallet-page-note">{t('vip.noBank')}</p>
            )}
            <div className="v-wallet-actions v-wallet-actions--stack">
              <Button block color="primary" size="large" onClick={contact}>
                <MessageOutline /> {t('vip.contact')}
              </Button>
              {fiat && bank.data?.bank && (
                <Button
                  block
                  size="large"
                  color="primary"
                  fill="outline"
                  onClick={() => navigate(href('depositCharge', { currency_id: fiat.id }))}
                >
                  {t('deposit.submitProof')}
                </Button>
              )}
            </div>
          </div>
        );
      }}
    </QueryView>
  );
}
