import { AdminConfigPaths, AdminSupportPaths, type BankDetails, type CustomerUrlSetting } from '@verdant/api';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ConfigCard } from './ConfigCard';

const bankForm = (v: BankDetails) => ({
  bank_name: v.configured ? v.bank_name : '',
  account_name: v.configured ? v.account_name : '',
  account_number: v.configured ? v.account_number : '',
  swift: v.configured ? v.swift : '',
  bank_address: v.configured ? v.bank_address : '',
  remark: v.configured ? v.remark : '',
});
const urlForm = (v: CustomerUrlSetting) => ({ url: v.external ?? '' });

/**
 * The platform's own details: the bank account bank deposits go to, and where "online service"
 * leads (that setting belongs to the help centre; shown and edited here through its API).
 */
export default function PlatformPage() {
  const { t } = useTranslation();
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
        {t('nav.configPlatform')}
      </Typography.Title>
      <ConfigCard<BankDetails>
        titleKey="config.bank.title"
        helpKey="config.bank.help"
        getPath={AdminConfigPaths.bankDetails}
        savePath={AdminConfigPaths.saveBankDetails}
        fields={['bank_name', 'account_name', 'account_number', 'swift', 'bank_address', 'remark'].map(
          (name) => ({
            name,
            kind: 'text' as const,
          }),
        )}
        toForm={bankForm}
        footer={(v) =>
          v.configured ? null : (
            <Typography.Paragraph type="warning">{t('config.bank.placeholder')}</Typography.Paragraph>
          )
        }
      />
      <ConfigCard<CustomerUrlSetting>
        titleKey="config.customer.title"
        helpKey="config.customer.help"
        getPath={AdminSupportPaths.customerUrl}
        savePath={AdminSupportPaths.customerUrl}
        fields={[{ name: 'url', kind: 'text', helpKey: 'config.customer.urlHelp' }]}
        toForm={urlForm}
        footer={(v) => (
          <Typography.Paragraph type="secondary">
            {t('config.customer.now', { url: v.url })}
          </Typography.Paragraph>
        )}
      />
    </Space>
  );
}
