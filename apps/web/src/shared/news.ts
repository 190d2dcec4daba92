import { queryOptions } from '@tanstack/react-query';
import { type MessageUnread, type NewsPage, Paths } from '@verdant/api';
import { api } from './api';

// Notices are read by Home (the notice bar, the bell's badge) and by the notices pages: their
// query keys and fetchers live here, where both may import them.

/** Everything notices and messages under one key; a user's own counts sit under ['user'] too. */
export const newsKeys = {
  all: ['news'] as const,
  latest: ['news', 'latest'] as const,
  unread: ['user', 'news', 'unread'] as const,
};

const quiet = { loading: false, toastError: false } as const;

/** The latest notices, for Home's notice bar. */
export const latestNoticesQuery = () =>
  queryOptions({
    queryKey: newsKeys.latest,
    queryFn: ({ signal }) => api.post<NewsPage>(Paths.newsList, { page: 1, limit: 5 }, { ...quiet, signal }),
  });

/** What a logged-in user has not read: personal messages and notices. */
export const unreadQuery = () =>
  queryOptions({
    queryKey: newsKeys.unread,
    queryFn: ({ signal }) =>
      api.post<MessageUnread>(Paths.messagesUnread, undefined, { ...quiet, signal, onNotLoggedIn: 'clear' }),
  });
