import { AdminPaths, type AdminVerification } from '@verdant/api';
import { Descriptions, Segmented, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PrivateImage } from '../../ui/PrivateImage';
import { ReviewQueue, submittedColumn } from './ReviewQueue';

const LEVELS = ['', 'basic', 'advanced'] as const;

/** Identity verifications: read the details, look at the photos, pass or reject with a reason. */
export default function KycPage() {
  const { t } = useTranslation();
  const [level, setLevel] = useState<(typeof LEVELS)[number]>('');
  return (
    <ReviewQueue<AdminVerification, 'pending' | 'verified' | 'rejected' | 'all'>
      title={t('nav.kyc')}
      queue="verifications"
      listPath={AdminPaths.verifications}
      statuses={['pending', 'verified', 'rejected', 'all']}
      params={{ level }}
      filters={
        <Segmented
          value={level}
          onChange={setLevel}
          options={LEVELS.map((l) => ({ value: l, label: t(`review.level.${l || 'all'}`) }))}
        />
      }
      expandedRowRender={(v) => (
        <Space direction="vertical">
          <Descriptions size="small" column={2}>
            <Descriptions.Item label={t('review.country')}>{v.country_name}</Descriptions.Item>
            <Descriptions.Item label={t('review.address')}>{v.address || '—'}</Descriptions.Item>
            {v.reject_reason ? (
              <Descriptions.Item label={t('review.reason')}>{v.reject_reason}</Descriptions.Item>
            ) : null}
          </Descriptions>
          {v.level === 'advanced' ? (
            <Space size="large" wrap>
              {(['front', 'back', 'holding'] as const).map((side) => (
                <Space key={side} direction="vertical" size={4}>
                  <Typography.Text type="secondary">{t(`review.photo.${side}`)}</Typography.Text>
                  <PrivateImage src={v[side]} alt={t(`review.photo.${side}`)} />
                </Space>
              ))}
            </Space>
          ) : null}
        </Space>
      )}
      columns={[
        { title: t('review.user'), dataIndex: 'user_account' },
        {
          title: t('review.levelTitle'),
          dataIndex: 'level',
          render: (l: string) => t(`review.level.${l}`),
        },
        { title: t('review.name'), dataIndex: 'name' },
        { title: t('review.idNumber'), dataIndex: 'id_number' },
        submittedColumn(t('review.submitted')),
      ]}
      passText={t('review.pass')}
      pass={{
        kind: 'confirm',
        path: AdminPaths.approveVerification,
        title: (v) => t('review.passVerification', { name: v.name }),
      }}
      reject={{
        kind: 'text',
        path: AdminPaths.rejectVerification,
        field: 'reason',
        title: (v) => t('review.rejectVerification', { name: v.name }),
        label: () => t('review.reason'),
      }}
    />
  );
}
