import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BellOutline,
  DownlandOutline,
  MessageOutline,
  SendOutline,
  StarOutline,
  UnorderedListOutline,
  UploadOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type en from '../../locales/en.json';
import { openCustomerService } from '../../shared/customer';
import { useSocketWanted } from '../../shared/live';
import { marketKeys, tickersQuery, useLiveTickers } from '../../shared/markets';
import { newsKeys, unreadQuery } from '../../shared/news';
import { paths } from '../../shared/paths';
import { isLoggedIn, useSession } from '../../shared/session';
import { useShell } from '../../shared/shell';
import { BrandMark } from '../../shared/ui/BrandMark';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import './home.css';
import { useAfterFirstPaint } from '../../shared/live-frame';
import { Gainers, MarketRows } from './MarketRows';
import { NoticeBar } from './NoticeBar';
import { homeKeys } from './queries';

const HTTP_REFRESH_MS = 5_000;

type QuickKey = keyof typeof en.home.quick;

export default function HomePage() {
  const { t } = useTranslation();
  const { openMenu } = useShell();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const live = useSocketWanted();
  // over HTTP every few seconds until the socket takes over (see useSocketWanted)
  // asked for once Home's text is on the screen: an answer landing before that paint would hold
  // it back (the rows keep their room meanwhile, so nothing moves when it comes)
  const painted = useAfterFirstPaint();
  const tickers = useQuery({
    ...tickersQuery(),
    enabled: painted,
    refetchInterval: live ? false : HTTP_REFRESH_MS,
  });
  useLiveTickers(undefined, live);
  // the bell's dot: something unread among the notices or the user's own messages
  const unread = useQuery({ ...unreadQuery(), enabled: isLoggedIn(useSession()) });
  const hasUnread = unread.data ? unread.data.messages + unread.data.notices > 0 : false;

  const quick: { key: QuickKey; icon: ReactNode; onClick: () => void }[] = [
    { key: 'recharge', icon: <DownlandOutline />, onClick: () => navigate(paths.deposit) },
    { key: 'withdraw', icon: <UploadOutline />, onClick: () => navigate(paths.withdraw) },
    { key: 'vip', icon: <StarOutline />, onClick: () => navigate(paths.depositVip) },
    { key: 'share', icon: <SendOutline />, onClick: () => navigate(paths.promotion) },
    {
      key: 'service',
      icon: <MessageOutline />,
      onClick: () => void openCustomerService(queryClient, navigate).catch(() => {}),
    },
  ];

  return (
    <div className="v-home">
      <header className="v-home__header">
        <button type="button" className="v-home__icon" aria-label={t('menu.title')} onClick={openMenu}>
          <UnorderedListOutline />
        </button>
        <div className="v-home__brand">
          <BrandMark size={26} />
          <span>{t('app.name')}</span>
        </div>
        <button
          type="button"
          className="v-home__icon"
          aria-label={hasUnread ? `${t('titles.notices')}, ${t('news.unread')}` : t('titles.notices')}
          onClick={() => navigate(paths.notices)}
        >
          <BellOutline />
          {hasUnread && <span className="v-home__bell-dot" aria-hidden="true" />}
        </button>
      </header>

      <PullToRefresh
        onRefresh={() =>
          Promise.all([
            queryClient.invalidateQueries({ queryKey: homeKeys.all }),
            queryClient.invalidateQueries({ queryKey: newsKeys.all }),
            queryClient.invalidateQueries({ queryKey: newsKeys.unread }),
            queryClient.invalidateQueries({ queryKey: marketKeys.all }),
          ])
        }
      >
        <section className="v-home__hero">
          <h2>{t('home.heroTitle')}</h2>
          <p>{t('home.heroBody')}</p>
        </section>

        <NoticeBar enabled={painted} />

        <nav className="v-home__quick" aria-label={t('home.quickLabel')}>
          {quick.map((q) => (
            <button key={q.key} type="button" className="v-home__quick-item" onClick={q.onClick}>
              <span className="v-home__quick-icon">{q.icon}</span>
              <span className="v-home__quick-text">{t(`home.quick.${q.key}`)}</span>
            </button>
          ))}
        </nav>

        <Gainers query={tickers} />

        <section className="v-home__markets" aria-labelledby="home-markets">
          <h2 id="home-markets">{t('home.markets')}</h2>
          <div className="v-home__market-head">
            <span>{t('home.pair')}</span>
            <span>{t('home.lastPrice')}</span>
            <span>{t('home.change24h')}</span>
          </div>
          <MarketRows query={tickers} />
        </section>
      </PullToRefresh>
    </div>
  );
}
