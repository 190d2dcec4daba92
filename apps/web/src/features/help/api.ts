import { type InfiniteData, infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import {
  type Feedback,
  type HelpArticle,
  type SupportAck,
  SupportEvents,
  type SupportHistory,
  type SupportMessage,
  SupportPaths,
  type SupportUnread,
} from '@verdant/api';
import { api, REQUEST_TIMEOUT_MS } from '../../shared/api';

/** Query keys; the user's own chat sits under ['user'] so logout drops it. */
export const helpKeys = {
  articles: (category: string, q: string) => ['help', 'articles', category, q] as const,
  article: (id: string) => ['help', 'article', id] as const,
  messages: ['user', 'support', 'messages'] as const,
  unread: ['user', 'support', 'unread'] as const,
};

export const articlesQuery = (category: string, q: string) =>
  queryOptions({
    queryKey: helpKeys.articles(category, q),
    queryFn: ({ signal }) => api.get<HelpArticle[]>(SupportPaths.articles, { category, q }, { signal }),
  });

export const articleQuery = (id: string) =>
  queryOptions({
    queryKey: helpKeys.article(id),
    queryFn: ({ signal }) => api.get<HelpArticle>(SupportPaths.article, { id }, { signal }),
  });

export const unreadQuery = () =>
  queryOptions({
    queryKey: helpKeys.unread,
    queryFn: ({ signal }) =>
      api.get<SupportUnread>(SupportPaths.unread, undefined, { signal, loading: false }),
  });

/** The chat, newest page first; each page older than the last message of the one before. */
export const messagesQuery = () =>
  infiniteQueryOptions({
    queryKey: helpKeys.messages,
    queryFn: ({ signal, pageParam }) =>
      api.get<SupportHistory>(SupportPaths.messages, { before: pageParam || undefined }, { signal }),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.has_more ? last.items.at(-1)?.id : undefined),
  });

export type MessagePages = InfiniteData<SupportHistory, number>;

/** The cache with `m` in it (once: an event and an ack may bring the same message). */
export function withMessage(data: MessagePages | undefined, m: SupportMessage): MessagePages | undefined {
  if (!data) return data;
  const known = data.pages.some((p) => p.items.some((x) => x.id === m.id));
  const pages = data.pages.map((p, i) => ({
    ...p,
    items: known ? p.items.map((x) => (x.id === m.id ? m : x)) : i === 0 ? [m, ...p.items] : p.items,
  }));
  return { ...data, pages };
}

/** Messages of `sender` up to `upTo` read by the other side. */
export function withRead(data: MessagePages | undefined, sender: 'user' | 'support', upTo: number) {
  if (!data) return data;
  return {
    ...data,
    pages: data.pages.map((p) => ({
      ...p,
      items: p.items.map((m) => (m.sender === sender && m.id <= upTo && !m.read ? { ...m, read: true } : m)),
    })),
  };
}

export function sendFeedback(content: string, pictures: string[]) {
  return api.post<Feedback>(
    SupportPaths.feedback,
    { content, pictures: pictures.join(',') },
    { loading: false, toastError: false },
  );
}

/** A message to support over the socket; the answer is the stored message or the server's error. */
export async function sendMessage(body: {
  text?: string;
  picture?: string;
  client_id: string;
}): Promise<SupportAck> {
  const { getSocket } = await import('../../shared/socket');
  return (await getSocket().timeout(REQUEST_TIMEOUT_MS).emitWithAck(SupportEvents.send, body)) as SupportAck;
}

/** Tells support the user read everything up to `upTo`, and that the user is typing. */
export async function markRead(upTo: number): Promise<void> {
  const { getSocket } = await import('../../shared/socket');
  getSocket().emit(SupportEvents.read, { up_to: String(upTo) });
}

export async function signalTyping(): Promise<void> {
  const { getSocket } = await import('../../shared/socket');
  getSocket().emit(SupportEvents.typing);
}

/** An id of the client's own for a message, so a retry is stored once. */
export function newClientId(): string {
  const c = globalThis.crypto;
  if (c?.randomUUID) return c.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}
