import { type AdminDeposit, AdminPaths } from '@verdant/api';
import { Descriptions, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PrivateImage } from '../../ui/PrivateImage';
import { amountColumn, ReviewQueue, submittedColumn } from './ReviewQueue';

/** Deposit requests: look at the voucher, pass with the amount that arrived, or reject with a reason. */
export default function DepositsPage() {
  const { t } = useTranslation();
  return (
    <ReviewQueue<AdminDeposit, 'pending' | 'approved' | 'rejected' | 'all'>
      title={t('nav.deposits')}
      queue="deposits"
      listPath={AdminPaths.deposits}
      statuses={['pending', 'approved', 'rejected', 'all']}
      expandedRowRender={(d) => (
        <Space align="start" size="large">
          <PrivateImage src={d.image} alt={t('review.voucher')} />
          <Descriptions size="small" column={1}>
            <Descriptions.Item label={t('review.chain')}>{d.chain ?? t('review.bank')}</Descriptions.Item>
            <Descriptions.Item label={t('review.address')}>{d.address ?? '—'}</Descriptions.Item>
            {d.reject_reason ? (
              <Descriptions.Item label={t('review.reason')}>{d.reject_reason}</Descriptions.Item>
            ) : null}
          </Descriptions>
        </Space>
      )}
      columns={[
        { title: t('review.user'), dataIndex: 'user_account' },
        amountColumn(t('review.amount')),
        submittedColumn(t('review.submitted')),
      ]}
      passText={t('review.pass')}
      pass={{
        kind: 'text',
        path: AdminPaths.approveDeposit,
        field: 'amount',
        max: 40,
        title: (d) => t('review.passDeposit', { id: d.id }),
        label: (d) => t('review.creditedAmount', { symbol: d.symbol }),
        initial: (d) => d.amount,
        extra: (d) => (
          <Typography.Paragraph>
            {t('review.passDepositHint', { amount: d.amount, symbol: d.symbol, user: d.user_account })}
          </Typography.Paragraph>
        ),
      }}
      reject={{
        kind: 'text',
        path: AdminPaths.rejectDeposit,
        field: 'reason',
        title: (d) => t('review.rejectDeposit', { id: d.id }),
        label: () => t('review.reason'),
      }}
    />
  );
}
