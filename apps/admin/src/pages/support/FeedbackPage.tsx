import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type AdminFeedback, AdminSupportPaths } from '@verdant/api';
import { Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { SupportPicture } from './SupportPicture';

interface Paged<T> {
  items: T[];
  total: number;
}
const PAGE_SIZE = 20;

/** Users' feedback from the help centre, newest first, with its pictures (support and admin). */
export default function FeedbackPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['admin', 'help', 'feedback', page],
    queryFn: () => api.get<Paged<AdminFeedback>>(AdminSupportPaths.feedback, { page, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  return (
    <Table
      rowKey="id"
      loading={list.isPending}
      dataSource={list.data?.items ?? []}
      pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage }}
      columns={[
        {
          title: t('support.feedback.time'),
          dataIndex: 'created_at',
          render: (v: string) => new Date(v).toLocaleString(),
        },
        { title: t('support.account'), dataIndex: 'user_account' },
        {
          title: t('support.feedback.content'),
          render: (_, f: AdminFeedback) => (
            <Space direction="vertical">
              <Typography.Text style={{ whiteSpace: 'pre-wrap' }}>{f.content}</Typography.Text>
              {f.pictures.length > 0 && (
                <Space>
                  {f.pictures.map((p) => (
                    <SupportPicture key={p} name={p} />
                  ))}
                </Space>
              )}
            </Space>
          ),
        },
      ]}
    />
  );
}
