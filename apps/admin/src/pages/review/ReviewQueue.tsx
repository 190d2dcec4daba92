import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Popconfirm, Space, Table, type TableColumnsType, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type Query } from '../../api';
import { PAGE_SIZE, type Paged } from '../../ui/paged';
import { StatusFilter, StatusTag, TextDecisionModal, useDecision } from './shared';

/** What every queue row has: the id a decision names, and the state that decides if it can be decided. */
export type ReviewRow = { id: string | number; status: string };

/** A decision taken with one text typed in a dialog (a reason, a payout reference, an amount). */
export interface TextDecision<R> {
  kind: 'text';
  path: string;
  /** The form field, sent under the same name beside the id. */
  field: string;
  title: (row: R) => string;
  label: (row: R) => string;
  max?: number;
  initial?: (row: R) => string;
  extra?: (row: R) => ReactNode;
}

/** A decision with nothing to type: confirmed in a popover beside the button. */
export interface ConfirmDecision<R> {
  kind: 'confirm';
  path: string;
  title: (row: R) => string;
}

export interface ReviewQueueProps<R extends ReviewRow, S extends string> {
  title: string;
  /** The query key's name: the list and its decisions refresh together. */
  queue: string;
  listPath: string;
  /** The states to filter by; the first is the waiting one, listed first, whose rows can be decided. */
  statuses: readonly [S, ...S[]];
  /** More filters beside the states; the paging starts over when their values change. */
  filters?: ReactNode;
  params?: Query;
  /** The columns between the id and the state. */
  columns: TableColumnsType<R>;
  expandedRowRender?: (row: R) => ReactNode;
  /** The pass button's and pass dialog's word (Pass, Allot). */
  passText: string;
  pass: TextDecision<R> | ConfirmDecision<R>;
  reject: TextDecision<R>;
}

type Column<R> = TableColumnsType<R>[number];

/** When the request came in, in the operator's clock. */
export function submittedColumn<R>(title: string): Column<R> {
  return { title, dataIndex: 'created_at', render: (v: string) => new Date(v).toLocaleString() };
}

/** The amount asked for, in bold with its coin. */
export function amountColumn<R extends { amount: string; symbol: string }>(title: string): Column<R> {
  return {
    title,
    render: (_, r) => (
      <Typography.Text strong>
        {r.amount} {r.symbol}
      </Typography.Text>
    ),
  };
}

/** The row a dialog is about; kept while the dialog closes, so its text does not blank out. */
type Target<R> = { row: R | null; open: boolean };
const CLOSED = { row: null, open: false };

/**
 * A review queue: the state filter, the paged table with the pass and reject buttons on waiting
 * rows, and the dialogs that send a decision once and then refresh the queue and the menu's counts.
 */
export function ReviewQueue<R extends ReviewRow, S extends string>(props: ReviewQueueProps<R, S>) {
  const { t } = useTranslation();
  const { statuses, pass, reject, queue } = props;
  const waiting = statuses[0];
  const [status, setStatus] = useState<S>(waiting);
  // the page belongs to one set of filters: a change of filters shows their first page
  const filterKey = JSON.stringify(props.params ?? {});
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const setPage = (p: number) => setPaging({ filterKey, page: p });
  const [passing, setPassing] = useState<Target<R>>(CLOSED);
  const [rejecting, setRejecting] = useState<Target<R>>(CLOSED);
  const query = { status, ...props.params, page, limit: PAGE_SIZE };
  const list = useQuery({
    queryKey: ['admin', queue, query],
    queryFn: () => api.get<Paged<R>>(props.listPath, query),
    placeholderData: keepPreviousData,
  });
  const confirm = useDecision<{ id: string }>(pass.path, queue);

  const statusFilter = (
    <StatusFilter
      value={status}
      statuses={statuses}
      onChange={(s) => {
        setStatus(s);
        setPage(1);
      }}
    />
  );
  const passButton = (row: R) => {
    if (pass.kind === 'text') {
      return (
        <Button type="primary" onClick={() => setPassing({ row, open: true })}>
          {props.passText}
        </Button>
      );
    }
    const id = String(row.id);
    return (
      <Popconfirm
        title={pass.title(row)}
        okText={props.passText}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: confirm.isPending, disabled: confirm.isPending }}
        onConfirm={() => confirm.mutateAsync({ id }).catch(() => undefined)}
      >
        <Button type="primary" disabled={confirm.isPending && confirm.variables?.id === id}>
          {props.passText}
        </Button>
      </Popconfirm>
    );
  };

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
        {props.title}
      </Typography.Title>
      {props.filters ? (
        <Space wrap>
          {statusFilter}
          {props.filters}
        </Space>
      ) : (
        statusFilter
      )}
      {list.error ? <Alert type="error" showIcon title={list.error.message} /> : null}
      <Table<R>
        rowKey="id"
        scroll={{ x: 'max-content' }}
        loading={list.isFetching}
        dataSource={list.data?.items ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.total ?? 0, onChange: setPage }}
        expandable={props.expandedRowRender ? { expandedRowRender: props.expandedRowRender } : undefined}
        columns={[
          { title: t('review.id'), dataIndex: 'id', width: 80 },
          ...props.columns,
          { title: t('review.state'), dataIndex: 'status', render: (s: string) => <StatusTag status={s} /> },
          {
            title: t('review.actions'),
            // always in view: a wide row scrolls under it
            fixed: 'right',
            render: (_, row) =>
              row.status === waiting ? (
                <Space>
                  {passButton(row)}
                  <Button danger onClick={() => setRejecting({ row, open: true })}>
                    {t('review.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      {pass.kind === 'text' ? (
        <DecisionDialog
          decision={pass}
          queue={queue}
          target={passing}
          okText={props.passText}
          onClose={() => setPassing((p) => ({ ...p, open: false }))}
        />
      ) : null}
      <DecisionDialog
        decision={reject}
        queue={queue}
        target={rejecting}
        okText={t('review.reject')}
        danger
        onClose={() => setRejecting((r) => ({ ...r, open: false }))}
      />
    </Space>
  );
}

function DecisionDialog<R extends ReviewRow>({
  decision,
  queue,
  target,
  okText,
  danger,
  onClose,
}: {
  decision: TextDecision<R>;
  queue: string;
  target: Target<R>;
  okText: string;
  danger?: boolean;
  onClose: () => void;
}) {
  const send = useDecision<Record<string, string>>(decision.path, queue);
  const row = target.row;
  return (
    <TextDecisionModal
      open={target.open && row !== null}
      title={row ? decision.title(row) : ''}
      label={row ? decision.label(row) : ''}
      field={decision.field}
      {...(decision.max === undefined ? {} : { max: decision.max })}
      {...(row && decision.initial ? { initial: decision.initial(row) } : {})}
      extra={row && decision.extra ? decision.extra(row) : undefined}
      okText={okText}
      danger={Boolean(danger)}
      busy={send.isPending}
      onCancel={onClose}
      onSubmit={async (value) => {
        if (!row) return;
        await send.mutateAsync({ id: String(row.id), [decision.field]: value });
        onClose();
      }}
    />
  );
}
