import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AdminPaths, type AuditEntry, type OperatorRow } from '@verdant/api';
import { Alert, Button, DatePicker, Form, Input, Select, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';

interface Paged<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

interface Filters {
  operator_id?: number;
  action?: string;
  target_type?: string;
  target_id?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

const PAGE_SIZE = 20;

const short = (v: unknown) => {
  const s = v === undefined ? '' : JSON.stringify(v);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
};

/** What an action changed: the fields whose value differs, each as before → after. */
export function changes(before: unknown, after: unknown): string[] {
  const isObj = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    return [...new Set([...Object.keys(before), ...Object.keys(after)])]
      .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
      .map((k) => `${k}: ${short(before[k])} → ${short(after[k])}`);
  }
  if (before === null && after === null) return [];
  if (before === null) return [short(after)];
  if (after === null) return [`${short(before)} → ∅`];
  return [`${short(before)} → ${short(after)}`];
}

/** The audit log (admins): who did what to which row, filtered and paged, newest first. */
export default function AuditPage() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const operators = useQuery({
    queryKey: ['admin', 'operators'],
    queryFn: () => api.get<OperatorRow[]>(AdminPaths.operators),
  });
  const query = {
    operator_id: filters.operator_id,
    action: filters.action?.trim(),
    target_type: filters.target_type?.trim(),
    target_id: filters.target_id?.trim(),
    from: filters.range?.[0]?.startOf('day').toISOString(),
    to: filters.range?.[1]?.endOf('day').toISOString(),
    page,
    limit: PAGE_SIZE,
  };
  const list = useQuery({
    queryKey: ['admin', 'audit', query],
    queryFn: () => api.get<Paged<AuditEntry>>(AdminPaths.audit, query),
    placeholderData: keepPreviousData,
  });

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
        {t('nav.audit')}
      </Typography.Title>
      <Form<Filters>
        layout="inline"
        onFinish={(v) => {
          setFilters(v);
          setPage(1);
        }}
      >
        <Form.Item name="operator_id" label={t('audit.operator')}>
          <Select
            allowClear
            style={{ width: 180 }}
            loading={operators.isLoading}
            options={(operators.data ?? []).map((o) => ({ value: o.id, label: o.username }))}
          />
        </Form.Item>
        <Form.Item name="action" label={t('audit.action')}>
          <Input placeholder="deposit.approve" style={{ width: 170 }} />
        </Form.Item>
        <Form.Item name="target_type" label={t('audit.targetType')}>
          <Input placeholder="deposit" style={{ width: 130 }} />
        </Form.Item>
        <Form.Item name="target_id" label={t('audit.targetId')}>
          <Input style={{ width: 100 }} />
        </Form.Item>
        <Form.Item name="range" label={t('audit.dates')}>
          <DatePicker.RangePicker allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
        </Form.Item>
      </Form>
      {list.error ? <Alert type="error" showIcon title={list.error.message} /> : null}
      <Table<AuditEntry>
        rowKey="id"
        size="small"
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          {
            title: t('audit.time'),
            dataIndex: 'created_at',
            width: 180,
            render: (v: string) => new Date(v).toLocaleString(),
          },
          {
            title: t('audit.operator'),
            dataIndex: 'operator_username',
            render: (v: string | null) => v ?? t('audit.commandLine'),
          },
          { title: t('audit.action'), dataIndex: 'action' },
          {
            title: t('audit.target'),
            render: (_, r) => (r.target_type ? `${r.target_type} #${r.target_id ?? ''}` : ''),
          },
          {
            title: t('audit.change'),
            render: (_, r) => (
              <Typography.Text style={{ fontSize: 12, wordBreak: 'break-word' }}>
                {changes(r.before, r.after).map((line) => (
                  <div key={line}>{line}</div>
                ))}
              </Typography.Text>
            ),
          },
          { title: t('audit.ip'), dataIndex: 'ip', width: 130 },
        ]}
      />
    </Space>
  );
}
