import { useQuery, useQueryClient } from '@tanstack/react-query';
import { HELP_CATEGORIES, type HelpArticle, type HelpCategory } from '@verdant/api';
import { Badge, SearchBar } from 'antd-mobile';
import { EditSOutline, MessageOutline, QuestionCircleOutline, RightOutline } from 'antd-mobile-icons';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { openCustomerService } from '../../shared/customer';
import { href, loginHref, paths } from '../../shared/paths';
import { isLoggedIn } from '../../shared/session';
import { PullToRefresh } from '../../shared/ui/PullToRefresh';
import { QueryView } from '../../shared/ui/QueryView';
import { TabRow } from '../../shared/ui/TabRow';
import { articlesQuery, unreadQuery } from './api';
import { FeedbackForm } from './FeedbackForm';
import './help.css';

type Tab = 'all' | HelpCategory;
const TABS: readonly Tab[] = ['all', ...HELP_CATEGORIES];

const articleHref = (a: HelpArticle) => href('helpDetail', { id: a.slug ?? a.id });

/** pages/help-center/center (and its alias): online service, feedback, common questions. */
export default function HelpCenterPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const loggedIn = isLoggedIn();
  const [tab, setTab] = useState<Tab>('all');
  const [search, setSearch] = useState('');
  const words = useDeferredValue(search.trim());
  const articles = useQuery(articlesQuery(tab === 'all' ? '' : tab, words));
  const unread = useQuery({ ...unreadQuery(), enabled: loggedIn });
  const [feedbackOpen, setFeedbackOpen] = useState(false);

  const service = () => void openCustomerService(queryClient, navigate).catch(() => {});

  return (
    <PullToRefresh
      onRefresh={() =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: ['help'] }),
          queryClient.invalidateQueries({ queryKey: ['user', 'support'] }),
        ])
      }
    >
      <div className="v-help">
        <nav className="v-help__entries" aria-label={t('titles.helpCenter')}>
          <button type="button" className="v-help__entry" onClick={service}>
            <Badge content={unread.data?.unread ? unread.data.unread : null}>
              <MessageOutline aria-hidden />
            </Badge>
            <span>{t('help.online')}</span>
          </button>
          {loggedIn ? (
            <button
              type="button"
              className="v-help__entry"
              aria-expanded={feedbackOpen}
              onClick={() => setFeedbackOpen((o) => !o)}
            >
              <EditSOutline aria-hidden />
              <span>{t('help.feedback')}</span>
            </button>
          ) : (
            <Link className="v-help__entry" to={loginHref(paths.helpCenter)}>
              <EditSOutline aria-hidden />
              <span>{t('help.feedback')}</span>
            </Link>
          )}
          <a className="v-help__entry" href="#v-help-questions">
            <QuestionCircleOutline aria-hidden />
            <span>{t('help.questions')}</span>
          </a>
        </nav>

        {feedbackOpen && <FeedbackForm onSent={() => setFeedbackOpen(false)} />}

        <section id="v-help-questions" className="v-help__questions" aria-label={t('help.questions')}>
          <h2 className="v-help__heading">{t('help.questions')}</h2>
          <SearchBar
            className="v-help__search"
            placeholder={t('help.search')}
            value={search}
            onChange={setSearch}
            aria-label={t('help.search')}
          />
          <TabRow
            options={TABS}
            value={tab}
            onChange={setTab}
            labelOf={(k) => t(`help.category.${k}`)}
            className="v-help__tabs"
            tabClassName="v-help__tab"
            label={t('help.categories')}
          />
          <QueryView
            query={articles}
            isEmpty={(d) => d.length === 0}
            emptyText={words ? t('help.noMatch') : undefined}
          >
            {(list) => (
              <ul className="v-help__list">
                {list.map((a) => (
                  <li key={a.id}>
                    <Link className="v-help__item" to={articleHref(a)}>
                      <span>{a.title}</span>
                      <RightOutline aria-hidden />
                    </Link>
                  </li>
                ))}
              </ul>
            )}
          </QueryView>
        </section>
      </div>
    </PullToRefresh>
  );
}
