import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { type MessagePage, type NewsDetail, type NewsPage, Paths } from '@verdant/api';
import { api } from '../../shared/api';
import { newsKeys } from '../../shared/news';

const PAGE = 20;
const quiet = { loading: false } as const;

export const noticeKeys = {
  list: (loggedIn: boolean) => [...newsKeys.all, 'list', loggedIn] as const,
  detail: (id: number) => [...newsKeys.all, 'detail', id] as const,
  messages: ['user', 'news', 'messages'] as const,
};

/** The next page, while the pages so far hold fewer than the total. */
const nextPage = (last: { page: number; limit: number; total: number }) =>
  last.page * last.limit < last.total ? last.page + 1 : undefined;

export const noticesQuery = (loggedIn: boolean) =>
  infiniteQueryOptions({
    queryKey: noticeKeys.list(loggedIn),
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.post<NewsPage>(Paths.newsList, { page: pageParam, limit: PAGE }, { ...quiet, signal }),
    getNextPageParam: nextPage,
  });

export const noticeQuery = (id: number) =>
  queryOptions({
    queryKey: noticeKeys.detail(id),
    queryFn: ({ signal }) => api.post<NewsDetail>(Paths.newsDetail, { id }, { ...quiet, signal }),
  });

export const messagesQuery = () =>
  infiniteQueryOptions({
    queryKey: noticeKeys.messages,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) =>
      api.post<MessagePage>(Paths.messages, { page: pageParam, limit: PAGE }, { ...quiet, signal }),
    getNextPageParam: nextPage,
  });

/** Marks one message (its id) or every message ('all') read. */
export const markRead = (id: string) =>
  api.post<{ unread: number }>(Paths.messagesRead, { id }, { loading: false });
