import {
  type InfiniteData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { type Message, type MessagePage, NewsEvents, type NewsItem } from '@verdant/api';
import { Badge, Button, InfiniteScroll, Tabs } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { formatTime } from '../../shared/datetime';
import { useLive } from '../../shared/live';
import { newsKeys, unreadQuery } from '../../shared/news';
import { paths } from '../../shared/paths';
import { isLoggedIn, useSession } from '../../shared/session';
import { showToast } from '../../shared/toast';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryView } from '../../shared/ui/QueryView';
import { markRead, messagesQuery, noticeKeys, noticesQuery } from './api';
import './news.css';

type Tab = 'notices' | 'messages';

/** More pages as the user scrolls; the end says so. */
function More({ hasMore, load }: { hasMore: boolean; load: () => Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <InfiniteScroll hasMore={hasMore} loadMore={async () => void (await load())}>
      {(more, failed, retry) =>
        failed ? (
          <button type="button" className="v-link-button" onClick={() => void retry()}>
            {t('common.retry')}
          </button>
        ) : more ? (
          <span>{t('common.loading')}</span>
        ) : (
          <span className="v-news__end">{t('news.noMore')}</span>
        )
      }
    </InfiniteScroll>
  );
}

function NoticeRow({ n, marks }: { n: NewsItem; marks: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const unread = marks && !n.read;
  return (
    <button type="button" className="v-news__row" onClick={() => navigate(`${paths.notice}?id=${n.id}`)}>
      <span className="v-news__row-head">
        {unread && <span className="v-news__dot" aria-hidden="true" />}
        <strong>{n.title}</strong>
        {unread && <span className="v-visually-hidden">{t('news.unread')}</span>}
        <span className="v-news__kind">{t(`news.kind.${n.kind}`)}</span>
      </span>
      <span className="v-news__summary">{n.summary}</span>
      <time className="v-news__time" dateTime={n.published_at}>
        {formatTime(n.published_at)}
      </time>
    </button>
  );
}

function NoticeList({ loggedIn }: { loggedIn: boolean }) {
  const q = useInfiniteQuery(noticesQuery(loggedIn));
  return (
    <QueryView query={q} isEmpty={(d) => d.pages[0]!.items.length === 0}>
      {(d) => (
        <>
          <ul className="v-news__list">
            {d.pages
              .flatMap((p) => p.items)
              .map((n) => (
                <li key={n.id}>
                  <NoticeRow n={n} marks={loggedIn} />
                </li>
              ))}
          </ul>
          <More hasMore={q.hasNextPage} load={() => q.fetchNextPage({ throwOnError: true })} />
        </>
      )}
    </QueryView>
  );
}

function MessageRow({ m, onRead }: { m: Message; onRead: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <article
      className={`v-news__message${m.read ? '' : ' is-unread'}`}
      aria-label={m.read ? m.title : `${m.title}, ${t('news.unread')}`}
    >
      <header className="v-news__row-head">
        {!m.read && <span className="v-news__dot" aria-hidden="true" />}
        <strong>{m.title}</strong>
      </header>
      <p>{m.body}</p>
      <footer>
        <time className="v-news__time" dateTime={m.created_at}>
          {formatTime(m.created_at)}
        </time>
        {!m.read && (
          <button type="button" className="v-link-button" onClick={() => onRead(m.id)}>
            {t('news.markRead')}
          </button>
        )}
      </footer>
    </article>
  );
}

function MessageList() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const q = useInfiniteQuery(messagesQuery());
  const read = useMutation({
    mutationFn: markRead,
    onSuccess: (_r, id) => {
      // the rows change in place: the list keeps its pages and scroll position
      queryClient.setQueryData<InfiniteData<MessagePage>>(noticeKeys.messages, (old) =>
        old
          ? {
              ...old,
              pages: old.pages.map((p) => ({
                ...p,
                items: p.items.map((m) => (id === 'all' || m.id === id ? { ...m, read: true } : m)),
              })),
            }
          : old,
      );
      void queryClient.invalidateQueries({ queryKey: newsKeys.unread });
    },
    onError: (e) => showToast(e.message),
  });
  const unread = q.data?.pages[0]?.unread ?? 0;
  return (
    <QueryView query={q} isEmpty={(d) => d.pages[0]!.items.length === 0} emptyText={t('news.noMessages')}>
      {(d) => (
        <>
          {unread > 0 && (
            <div className="v-news__actions">
              <Button size="mini" fill="outline" loading={read.isPending} onClick={() => read.mutate('all')}>
                {t('news.markAllRead')}
              </Button>
            </div>
          )}
          <ul className="v-news__list">
            {d.pages
              .flatMap((p) => p.items)
              .map((m) => (
                <li key={m.id}>
                  <MessageRow m={m} onRead={(id) => read.mutate(id)} />
                </li>
              ))}
          </ul>
          <More hasMore={q.hasNextPage} load={() => q.fetchNextPage({ throwOnError: true })} />
        </>
      )}
    </QueryView>
  );
}

/** pages/notice/index: the platform's notices, and a logged-in user's own messages. */
export default function NoticesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'messages' ? 'messages' : 'notices';
  const session = useSession();
  const loggedIn = isLoggedIn(session);
  const unread = useQuery({ ...unreadQuery(), enabled: loggedIn });
  // a message arrives: the list and the counts follow, without a reload
  useLive(
    [],
    {
      [NewsEvents.message]: () => {
        void queryClient.invalidateQueries({ queryKey: noticeKeys.messages });
        void queryClient.invalidateQueries({ queryKey: newsKeys.unread });
      },
    },
    loggedIn,
  );
  const count = (n: number | undefined) => (n ? (n > 99 ? '99+' : String(n)) : null);
  const messagesBadge = count(unread.data?.messages);
  const noticesBadge = count(unread.data?.notices);
  return (
    <PullToRefresh
      onRefresh={() =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: newsKeys.all }),
          queryClient.invalidateQueries({ queryKey: ['user', 'news'] }),
        ])
      }
    >
      <div className="v-news">
        <Tabs
          activeKey={tab}
          onChange={(k) => setParams(k === 'messages' ? { tab: 'messages' } : {}, { replace: true })}
        >
          <Tabs.Tab
            key="notices"
            title={
              <Badge content={noticesBadge} style={{ '--right': '-10px' }}>
                {t('news.notices')}
              </Badge>
            }
          />
          <Tabs.Tab
            key="messages"
            title={
              <Badge content={messagesBadge} style={{ '--right': '-10px' }}>
                {t('news.messages')}
              </Badge>
            }
          />
        </Tabs>
        {tab === 'notices' ? (
          <NoticeList loggedIn={loggedIn} />
        ) : loggedIn ? (
          <MessageList />
        ) : (
          <div className="v-news__login">
            <p>{t('news.loginForMessages')}</p>
            <Button color="primary" onClick={() => navigate(paths.loginChoose)}>
              {t('news.login')}
            </Button>
          </div>
        )}
      </div>
    </PullToRefresh>
  );
}
