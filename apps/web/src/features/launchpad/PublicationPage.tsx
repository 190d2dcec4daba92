import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LaunchpadEvents, type LaunchpadOrder, type LaunchpadProject } from '@verdant/api';
import { Button, Tabs, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../shared/datetime';
import { useLive } from '../../shared/live';
import { formatAmount } from '../../shared/money';
import { href, loginHref, paths } from '../../shared/paths';
import { isLoggedIn } from '../../shared/session';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryView } from '../../shared/ui/QueryView';
import { launchpadConfigQuery, launchpadOrdersQuery, percent, redeemLaunchpad } from './api';
import '../../shared/ui/card.css';
import './launchpad.css';

/** The four views of spec §2. */
const VIEWS = ['progress', 'mine', 'launched', 'sold_out'] as const;
type View = (typeof VIEWS)[number];

export function ProjectCard({ p }: { p: LaunchpadProject }) {
  const { t } = useTranslation();
  return (
    <Link to={href('publicationDetails', { id: p.id })} className="v-card">
      <header className="v-card__head">
        <strong>
          {p.name} ({p.coin})
        </strong>
        <span className={p.state === 'subscribing' ? 'v-card-state v-card-state--open' : 'v-card-state'}>
          {t(`launchpad.state.${p.state}`)}
        </span>
      </header>
      <dl className="v-card-dl">
        <dt>{t('launchpad.issuePrice')}</dt>
        <dd>
          {p.issue_price} {p.pay_currency}
        </dd>
        <dt>{t('launchpad.expectedReturn')}</dt>
        <dd>{percent(p.expected_return)}%</dd>
        <dt>{t('launchpad.closeTime')}</dt>
        <dd>{formatTime(p.ends_at)}</dd>
      </dl>
      <div
        className="v-card-progress"
        role="progressbar"
        aria-label={t('launchpad.progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Number(percent(p.progress))}
      >
        <span style={{ width: `${percent(p.progress)}%` }} />
      </div>
    </Link>
  );
}

function MineRow({ o }: { o: LaunchpadOrder }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const redeem = useMutation({
    mutationFn: () => redeemLaunchpad(o.id),
    onSuccess: ({ message }) => {
      Toast.show({ icon: 'success', content: message });
      void queryClient.invalidateQueries({ queryKey: ['user'] });
    },
    onError: (e) => Toast.show({ content: e.message }),
  });
  return (
    <article className="v-card" aria-label={`${o.name} ${o.id}`}>
      <header className="v-card__head">
        <strong>
          {o.name} ({o.coin})
        </strong>
        <span>{t(`launchpad.status.${o.status}`)}</span>
      </header>
      <dl className="v-card-dl">
        <dt>{t('launchpad.amount')}</dt>
        <dd>
          {formatAmount(o.amount, o.pay_decimals)} {o.pay_currency}
        </dd>
        {o.quantity !== null && (
          <>
            <dt>{t('launchpad.quantity')}</dt>
            <dd>
              {formatAmount(o.quantity, o.coin_decimals)} {o.coin}
            </dd>
            <dt>{t('launchpad.accumulatedReturn')}</dt>
            <dd>
              {formatAmount(o.accumulated_return, o.pay_decimals)} {o.pay_currency}
            </dd>
            <dt>{t('launchpad.returnRate')}</dt>
            <dd>{o.return_rate === null ? '—' : `${percent(o.return_rate)}%`}</dd>
            <dt>{t('launchpad.unlockTime')}</dt>
            <dd>{formatTime(o.unlock_at)}</dd>
          </>
        )}
        {o.reason && (
          <>
            <dt>{t('launchpad.reason')}</dt>
            <dd>{o.reason}</dd>
          </>
        )}
        <dt>{t('launchpad.completionTime')}</dt>
        <dd>{formatTime(o.reviewed_at)}</dd>
      </dl>
      {o.status === 'passed' && !o.redeemed_at && (
        <Button
          size="small"
          color="primary"
          disabled={!o.redeemable}
          loading={redeem.isPending}
          onClick={() => redeem.mutate()}
        >
          {t('launchpad.redeem')}
        </Button>
      )}
      {o.redeemed_at && <small>{t('launchpad.redeemedAt', { time: formatTime(o.redeemed_at) })}</small>}
    </article>
  );
}

function Mine() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // passed or rejected by an operator: the list follows
  useLive(
    [],
    {
      [LaunchpadEvents.order]: () => void queryClient.invalidateQueries({ queryKey: ['user', 'launchpad'] }),
    },
    isLoggedIn(),
  );
  const orders = useQuery({ ...launchpadOrdersQuery(), enabled: isLoggedIn() });
  if (!isLoggedIn())
    return (
      <Link to={loginHref(paths.publication)} className="v-launchpad-login">
        {t('launchpad.loginToSee')}
      </Link>
    );
  return (
    <QueryView query={orders} isEmpty={(d) => d.list.length === 0}>
      {(d) => d.list.map((o) => <MineRow key={o.id} o={o} />)}
    </QueryView>
  );
}

function Projects({ view }: { view: Exclude<View, 'mine'> }) {
  const config = useQuery(launchpadConfigQuery());
  const pick = (p: LaunchpadProject) =>
    view === 'progress' ? p.state === 'subscribing' || p.state === 'upcoming' : p.state === view;
  return (
    <QueryView query={config} isEmpty={(d) => !d.projects.some(pick)}>
      {(d) => d.projects.filter(pick).map((p) => <ProjectCard key={p.id} p={p} />)}
    </QueryView>
  );
}

/** pages/publication/index: new coins in progress, mine, launched and sold out. */
export default function PublicationPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [view, setView] = useState<View>('progress');
  return (
    <PullToRefresh
      onRefresh={() =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: ['launchpad'] }),
          queryClient.invalidateQueries({ queryKey: ['user', 'launchpad'] }),
        ])
      }
    >
      <div className="v-card-page">
        <Tabs activeKey={view} onChange={(k) => setView(k as View)}>
          {VIEWS.map((v) => (
            <Tabs.Tab key={v} title={t(`launchpad.view.${v}`)} />
          ))}
        </Tabs>
        {view === 'mine' ? <Mine /> : <Projects view={view} />}
      </div>
    </PullToRefresh>
  );
}
