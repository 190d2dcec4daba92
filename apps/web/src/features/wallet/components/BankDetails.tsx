import type { BankDetails as Details } from '@verdant/api';
import { NoticeBar } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { CopyValue } from './CopyValue';
import { InfoRows } from './InfoRows';
import '../wallet.css';

/** The platform's bank account a bank deposit is sent to (spec §2: bank details shown). */
export function BankDetails({ bank }: { bank: Details }) {
  const { t } = useTranslation();
  const copy = (v: string, mono = true) => (v ? <CopyValue value={v} mono={mono} /> : '—');
  return (
    <>
      {!bank.configured && (
        <NoticeBar className="v-wallet-notice" color="alert" wrap content={t('deposit.bankNotConfigured')} />
      )}
      <InfoRows
        className="v-wallet-card"
        rows={[
          { label: t('deposit.bankName'), value: bank.bank_name || '—' },
          { label: t('deposit.accountName'), value: copy(bank.account_name, false) },
          { label: t('deposit.accountNumber'), value: copy(bank.account_number) },
          { label: t('deposit.swift'), value: copy(bank.swift) },
          { label: t('deposit.bankAddress'), value: bank.bank_address || '—' },
          bank.remark ? { label: t('deposit.reference'), value: bank.remark } : null,
        ]}
      />
    </>
  );
}
