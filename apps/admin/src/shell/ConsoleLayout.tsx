import { LogoutOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { AdminPaths, type AdminQueues, type OperatorRole } from '@verdant/api';
import { Badge, Button, Layout, Menu, type MenuProps, Space, Tag, Typography } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { api } from '../api';
import { allowed, NAV, NAV_GROUPS, type NavEntry } from '../nav';
import { clearSession, useSession } from '../session';
import { TONE } from '../ui/tone';
import { PageSpinner } from './gates';
import { LanguageSelect } from './LanguageSelect';

const { Header, Sider, Content } = Layout;

/** The queue counts, for the menu's badges; refreshed every half minute while the console is open. */
export function useQueues(role: OperatorRole | undefined) {
  const wanted = NAV.some((e) => e.badge && allowed(e, role));
  return useQuery({
    queryKey: ['admin', 'queues'],
    queryFn: () => api.get<AdminQueues>(AdminPaths.queues),
    enabled: wanted,
    refetchInterval: 30_000,
  });
}

function label(entry: NavEntry, text: string, counts: AdminQueues | undefined) {
  const n = entry.badge && counts ? counts[entry.badge] : 0;
  return (
    <span style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
      <span>{text}</span>
      {n > 0 ? <Badge count={n} overflowCount={999} /> : null}
    </span>
  );
}

export function ConsoleLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const role = session?.operator.role;
  const queues = useQueues(role);
  if (!session) {
    const next = `${location.pathname}${location.search}`;
    return <Navigate to={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`} replace />;
  }
  const visible = NAV.filter((e) => !e.hidden && allowed(e, role));
  const item = (e: NavEntry) => ({ key: e.path, label: label(e, t(e.labelKey), queues.data) });
  const items: MenuProps['items'] = [
    ...visible.filter((e) => !e.group).map(item),
    ...NAV_GROUPS.flatMap((g) => {
      const children = visible.filter((e) => e.group === g).map(item);
      return children.length ? [{ type: 'group' as const, key: g, label: t(`navGroup.${g}`), children }] : [];
    }),
  ];
  const selected = visible.find(
    (e) => location.pathname === e.path || location.pathname.startsWith(`${e.path}/`),
  );

  const logout = async () => {
    try {
      await api.post(AdminPaths.logout);
    } catch {
      // the session may be gone already; leaving is what matters
    }
    clearSession();
    navigate('/login', { replace: true });
  };

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Sider
        width={232}
        theme="light"
        // the menu scrolls on its own; the page beside it keeps its place
        style={{
          borderRight: '1px solid #f0f0f0',
          position: 'sticky',
          top: 0,
          height: '100vh',
          overflowY: 'auto',
        }}
      >
        <div style={{ padding: '16px 20px', fontWeight: 700, fontSize: 18 }}>{t('shell.brand')}</div>
        <nav aria-label={t('shell.menu')}>
          <Menu
            mode="inline"
            items={items}
            selectedKeys={selected ? [selected.path] : []}
            onClick={({ key }) => navigate(key)}
            style={{ borderInlineEnd: 'none' }}
          />
        </nav>
      </Sider>
      <Layout>
        <Header
          style={{
            background: '#fff',
            borderBottom: '1px solid #f0f0f0',
            display: 'flex',
            justifyContent: 'flex-end',
            alignItems: 'center',
            paddingInline: 24,
          }}
        >
          <Space size="middle">
            <Typography.Text strong data-testid="operator-name">
              {session.operator.username}
            </Typography.Text>
            <Tag style={TONE.green}>{t(`roles.${session.operator.role}`)}</Tag>
            <LanguageSelect />
            <Button icon={<LogoutOutlined />} onClick={logout}>
              {t('shell.logout')}
            </Button>
          </Space>
        </Header>
        <Content style={{ padding: 24 }}>
          <main>
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          </main>
        </Content>
      </Layout>
    </Layout>
  );
}
