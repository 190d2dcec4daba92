import { AdminPaths, type AdminWithdrawal } from '@verdant/api';
import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { amountColumn, ReviewQueue, submittedColumn } from './ReviewQueue';

function bankLines(snapshot: unknown): [string, string][] {
  if (!snapshot || typeof snapshot !== 'object') return [];
  return Object.entries(snapshot as Record<string, unknown>)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
    .map(([k, v]) => [k, String(v)]);
}

/** Withdrawal requests: pay out and pass with the transaction reference, or reject (the money returns). */
export default function WithdrawalsPage() {
  const { t } = useTranslation();
  return (
    <ReviewQueue<AdminWithdrawal, 'pending' | 'approved' | 'rejected' | 'all'>
      title={t('nav.withdrawals')}
      queue="withdrawals"
      listPath={AdminPaths.withdrawals}
      statuses={['pending', 'approved', 'rejected', 'all']}
      expandedRowRender={(w) => (
        <Descriptions size="small" column={2}>
          <Descriptions.Item label={t('review.chain')}>{w.chain ?? t('review.bank')}</Descriptions.Item>
          <Descriptions.Item label={t('review.address')}>
            <Typography.Text copyable={Boolean(w.address)}>{w.address ?? '—'}</Typography.Text>
          </Descriptions.Item>
          {bankLines(w.bank_snapshot).map(([k, v]) => (
            <Descriptions.Item key={k} label={k}>
              {v}
            </Descriptions.Item>
          ))}
          {w.remark ? <Descriptions.Item label={t('review.remark')}>{w.remark}</Descriptions.Item> : null}
          {w.tx_ref ? <Descriptions.Item label={t('review.txRef')}>{w.tx_ref}</Descriptions.Item> : null}
          {w.reject_reason ? (
            <Descriptions.Item label={t('review.reason')}>{w.reject_reason}</Descriptions.Item>
          ) : null}
        </Descriptions>
      )}
      columns={[
        { title: t('review.user'), dataIndex: 'user_account' },
        amountColumn(t('review.amount')),
        { title: t('review.fee'), render: (_, w) => `${w.fee} ${w.symbol}` },
        submittedColumn(t('review.submitted')),
      ]}
      passText={t('review.pass')}
      pass={{
        kind: 'text',
        path: AdminPaths.approveWithdrawal,
        field: 'tx_ref',
        title: (w) => t('review.passWithdrawal', { id: w.id }),
        label: () => t('review.txRef'),
        extra: (w) => (
          <Typography.Paragraph>
            {t('review.passWithdrawalHint', {
              amount: w.amount,
              symbol: w.symbol,
              to: w.address ?? t('review.bank'),
            })}
          </Typography.Paragraph>
        ),
      }}
      reject={{
        kind: 'text',
        path: AdminPaths.rejectWithdrawal,
        field: 'reason',
        title: (w) => t('review.rejectWithdrawal', { id: w.id }),
        label: () => t('review.reason'),
      }}
    />
  );
}
