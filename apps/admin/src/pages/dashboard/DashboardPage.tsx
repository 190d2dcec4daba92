import { useMutation, useQuery } from '@tanstack/react-query';
import { type AdminDashboard, AdminPaths, type LedgerCheck } from '@verdant/api';
import { Alert, Button, Card, Col, List, Row, Space, Spin, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api';
import { useSession } from '../../session';

type PerCurrency = AdminDashboard['deposits']['pending'];

function Money({ rows }: { rows: PerCurrency }) {
  const { t } = useTranslation();
  if (rows.length === 0) return <Typography.Text type="secondary">{t('dashboard.none')}</Typography.Text>;
  return (
    <List
      size="small"
      dataSource={rows}
      renderItem={(r) => (
        <List.Item>
          {r.amount} {r.symbol}{' '}
          <Typography.Text type="secondary">({t('dashboard.requests', { count: r.count })})</Typography.Text>
        </List.Item>
      )}
    />
  );
}

/** The operators' dashboard (issue 23): users, money requests, volumes, open interest, pools, ledger check. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const isAdmin = useSession()?.operator.role === 'admin';
  const data = useQuery({
    queryKey: ['admin', 'dashboard'],
    queryFn: () => api.get<AdminDashboard>(AdminPaths.dashboard),
    refetchInterval: 30_000,
  });
  const check = useMutation({ mutationFn: () => api.post<LedgerCheck>(AdminPaths.ledgerCheck) });
  const d = data.data;

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space style={{ justifyContent: 'space-between', width: '100%' }}>
        <Typography.Title level={2} style={{ margin: 0, fontSize: 22 }}>
          {t('nav.dashboard')}
        </Typography.Title>
        <Button onClick={() => void data.refetch()} loading={data.isFetching}>
          {t('common.refresh')}
        </Button>
      </Space>
      {data.error ? <Alert type="error" showIcon title={data.error.message} /> : null}
      {!d ? (
        data.isLoading ? (
          <Spin />
        ) : null
      ) : (
        <>
          <Typography.Text type="secondary">
            {t('dashboard.since', { time: new Date(d.since).toLocaleString() })}
          </Typography.Text>
          <Row gutter={[16, 16]}>
            <Col span={6}>
              <Card>
                <Statistic title={t('dashboard.users')} value={d.users.total} />
              </Card>
            </Col>
            <Col span={6}>
              <Card>
                <Statistic title={t('dashboard.newToday')} value={d.users.new_today} />
              </Card>
            </Col>
            <Col span={6}>
              <Card>
                <Statistic title={t('dashboard.adjustmentsPending')} value={d.adjustments_pending} />
              </Card>
            </Col>
          </Row>
          <Row gutter={[16, 16]}>
            <Col span={6}>
              <Card size="small" title={t('dashboard.depositsPending')}>
                <Money rows={d.deposits.pending} />
              </Card>
            </Col>
            <Col span={6}>
              <Card size="small" title={t('dashboard.depositsToday')}>
                <Money rows={d.deposits.approved_today} />
              </Card>
            </Col>
            <Col span={6}>
              <Card size="small" title={t('dashboard.withdrawalsPending')}>
                <Money rows={d.withdrawals.pending} />
              </Card>
            </Col>
            <Col span={6}>
              <Card size="small" title={t('dashboard.withdrawalsToday')}>
                <Money rows={d.withdrawals.approved_today} />
              </Card>
            </Col>
          </Row>
          <Row gutter={[16, 16]}>
            <Col span={12}>
              <Card size="small" title={t('dashboard.volumes')}>
                <Table
                  rowKey="symbol"
                  size="small"
                  pagination={false}
                  dataSource={d.spot_volumes}
                  columns={[
                    { title: t('dashboard.market'), dataIndex: 'symbol' },
                    { title: t('dashboard.trades'), dataIndex: 'trades' },
                    { title: t('dashboard.baseVolume'), dataIndex: 'base_volume' },
                    { title: t('dashboard.quoteVolume'), dataIndex: 'quote_volume' },
                  ]}
                />
              </Card>
            </Col>
            <Col span={12}>
              <Space direction="vertical" size="middle" style={{ width: '100%' }}>
                <Card size="small" title={t('dashboard.openInterest')}>
                  <Table
                    rowKey="symbol"
                    size="small"
                    pagination={false}
                    dataSource={d.open_interest}
                    columns={[
                      { title: t('dashboard.market'), dataIndex: 'symbol' },
                      { title: t('dashboard.positions'), dataIndex: 'positions' },
                      { title: t('dashboard.lots'), dataIndex: 'lots' },
                      { title: t('dashboard.margin'), dataIndex: 'margin' },
                    ]}
                  />
                </Card>
                <Card size="small" title={t('dashboard.pools')}>
                  <Typography.Paragraph type="secondary">{t('dashboard.poolsHelp')}</Typography.Paragraph>
                  {d.house_results.length === 0 ? (
                    <Typography.Text type="secondary">{t('dashboard.none')}</Typography.Text>
                  ) : (
                    <List
                      size="small"
                      dataSource={d.house_results}
                      renderItem={(p) => (
                        <List.Item>
                          {t(`dashboard.pool.${p.house}`)}: {p.balance} {p.symbol}
                        </List.Item>
                      )}
                    />
                  )}
                </Card>
              </Space>
            </Col>
          </Row>
        </>
      )}
      {isAdmin ? (
        <Card size="small" title={t('dashboard.ledgerCheck')}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Typography.Text type="secondary">{t('dashboard.ledgerHelp')}</Typography.Text>
            <Button type="primary" loading={check.isPending} onClick={() => check.mutate()}>
              {t('dashboard.runCheck')}
            </Button>
            {check.error ? <Alert type="error" showIcon title={check.error.message} /> : null}
            {check.data ? (
              <Alert
                type={check.data.ok ? 'success' : 'error'}
                showIcon
                title={t(check.data.ok ? 'dashboard.ledgerOk' : 'dashboard.ledgerProblems', {
                  accounts: check.data.accounts,
                  entries: check.data.entries,
                  journals: check.data.journals,
                  count: check.data.problems.length,
                  time: new Date(check.data.checked_at).toLocaleString(),
                })}
                description={
                  check.data.problems.length ? (
                    <ul>
                      {check.data.problems.map((p) => (
                        <li key={p}>{p}</li>
                      ))}
                    </ul>
                  ) : undefined
                }
              />
            ) : null}
          </Space>
        </Card>
      ) : null}
    </Space>
  );
}
