import type { OperatorRole } from '@verdant/api';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** Side-menu sections, in the order the menu shows them. */
export const NAV_GROUPS = ['review', 'users', 'config', 'support', 'system'] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

/** A queue whose waiting count the menu shows beside its entry (GET admin/queues). */
export type QueueName = 'kyc' | 'deposits' | 'withdrawals' | 'launchpad';

export interface NavEntry {
  /** Hash route, e.g. '/users' (the console is at /admin/#/users). */
  path: string;
  /** i18n key of the menu label and page title. */
  labelKey: string;
  /** Roles that see the entry and may open the page; admin always may. */
  roles: readonly OperatorRole[];
  page: LazyExoticComponent<ComponentType>;
  group?: NavGroup;
  badge?: QueueName;
  /** Routes reached from a page (e.g. a detail) that the menu does not list. */
  hidden?: boolean;
}

const REVIEWERS: OperatorRole[] = ['admin', 'reviewer'];
const ADMIN: OperatorRole[] = ['admin'];

/**
 * The console's pages: the shell builds the menu and the routes from this list and hides what
 * the operator's role may not see. Add an entry per page (one small edit each).
 */
export const NAV: NavEntry[] = [
  {
    path: '/review/kyc',
    labelKey: 'nav.kyc',
    roles: REVIEWERS,
    group: 'review',
    badge: 'kyc',
    page: lazy(() => import('./pages/review/KycPage')),
  },
  {
    path: '/review/deposits',
    labelKey: 'nav.deposits',
    roles: REVIEWERS,
    group: 'review',
    badge: 'deposits',
    page: lazy(() => import('./pages/review/DepositsPage')),
  },
  {
    path: '/review/withdrawals',
    labelKey: 'nav.withdrawals',
    roles: REVIEWERS,
    group: 'review',
    badge: 'withdrawals',
    page: lazy(() => import('./pages/review/WithdrawalsPage')),
  },
  {
    path: '/review/launchpad',
    labelKey: 'nav.launchpad',
    roles: REVIEWERS,
    group: 'review',
    badge: 'launchpad',
    page: lazy(() => import('./pages/review/LaunchpadPage')),
  },
  {
    path: '/operators',
    labelKey: 'nav.operators',
    roles: ADMIN,
    group: 'system',
    page: lazy(() => import('./pages/system/OperatorsPage')),
  },
  {
    path: '/dashboard',
    labelKey: 'nav.dashboard',
    roles: REVIEWERS,
    group: 'users',
    page: lazy(() => import('./pages/dashboard/DashboardPage')),
  },
  {
    path: '/users',
    labelKey: 'nav.users',
    roles: REVIEWERS,
    group: 'users',
    page: lazy(() => import('./pages/users/UsersPage')),
  },
  {
    path: '/adjustments',
    labelKey: 'nav.adjustments',
    roles: REVIEWERS,
    group: 'users',
    page: lazy(() => import('./pages/adjustments/AdjustmentsPage')),
  },
  {
    path: '/audit',
    labelKey: 'nav.audit',
    roles: ADMIN,
    group: 'system',
    page: lazy(() => import('./pages/system/AuditPage')),
  },
  // the help centre (issue 22): support answers chats; admins edit the common questions
  {
    path: '/support/inbox',
    labelKey: 'nav.supportInbox',
    roles: ['admin', 'support'],
    group: 'support',
    page: lazy(() => import('./pages/support/InboxPage')),
  },
  {
    path: '/support/feedback',
    labelKey: 'nav.supportFeedback',
    roles: ['admin', 'support'],
    group: 'support',
    page: lazy(() => import('./pages/support/FeedbackPage')),
  },
  {
    path: '/support/articles',
    labelKey: 'nav.helpArticles',
    roles: ADMIN,
    group: 'support',
    page: lazy(() => import('./pages/support/ArticlesPage')),
  },
  // configuration as data (issue 23): one page per area, admins only
  {
    path: '/config/currencies',
    labelKey: 'nav.configCurrencies',
    roles: ADMIN,
    group: 'config',
    page: lazy(() => import('./pages/config/CurrenciesPage')),
  },
  {
    path: '/config/markets',
    labelKey: 'nav.configMarkets',
    roles: ADMIN,
    group: 'config',
    page: lazy(() => import('./pages/config/MarketsPage')),
  },
  {
    path: '/config/contracts',
    labelKey: 'nav.configContracts',
    roles: ADMIN,
    group: 'config',
    page: lazy(() => import('./pages/config/ContractsPage')),
  },
  {
    path: '/config/options',
    labelKey: 'nav.configOptions',
    roles: ADMIN,
    group: 'config',
    page: lazy(() => import('./pages/config/OptionSecondsPage')),
  },
  {
    path: '/config/market-maker',
    labelKey: 'nav.configMaker',
    roles: ADMIN,
    group: 'config',
    page: lazy(() => import('./pages/config/MarketMakerPage')),
  },
  {
    path: '/config/platform',
    labelKey: 'nav.configPlatform',
    roles: ADMIN,
    group: 'config',
    page: lazy(() => import('./pages/config/PlatformPage')),
  },
  {
    path: '/config/trust',
    labelKey: 'nav.configTrust',
    roles: ADMIN,
    group: 'config',
    page: lazy(() => import('./pages/products/TrustProductsPage')),
  },
  {
    path: '/config/launchpad',
    labelKey: 'nav.configLaunchpad',
    roles: ADMIN,
    group: 'config',
    page: lazy(() => import('./pages/products/LaunchpadProjectsPage')),
  },
  {
    path: '/news',
    labelKey: 'nav.news',
    roles: ADMIN,
    group: 'support',
    page: lazy(() => import('./pages/news/NewsPage')),
  },
];

export function allowed(entry: Pick<NavEntry, 'roles'>, role: OperatorRole | undefined): boolean {
  return role === 'admin' || (role !== undefined && entry.roles.includes(role));
}

export { ADMIN as ADMIN_ROLES, REVIEWERS as REVIEW_ROLES };
