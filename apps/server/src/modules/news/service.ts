import type { AdminNews, AdminNewsBody, Lang } from '@verdant/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import type { PageInput } from '../../db/paging.ts';
import { writeAudit } from '../admin/service.ts';
import { listMessages, markMessagesRead, setMessagePublisher, unreadMessages } from './messages.ts';
import {
  adminNewsList,
  deleteNews,
  insertNews,
  listNotices,
  lockNews,
  noticeDetail,
  parseNewsId,
  parseNewsInput,
  setPublished,
  toAdminNews,
  unreadNotices,
  updateNews,
} from './notices.ts';

// What other modules use: a personal message written in the transaction of their event.
export { type MessageParams, writeMessage, writeMessages } from './messages.ts';

/** Notices (operators write, everyone reads) and each user's personal messages. */
export function createNewsService(ctx: AppContext, io: Server, log: FastifyBaseLogger) {
  const { db } = ctx;
  // messages written in any transaction on this database go live on this app's sockets
  setMessagePublisher(db, io, log);

  /** One audited operator change of a notice: the row before and after go to the audit log. */
  async function change(
    opId: number,
    ip: string,
    verb: 'create' | 'edit' | 'publish' | 'unpublish' | 'delete',
    idInput: string | undefined,
    apply: (q: Parameters<Parameters<typeof db.tx>[0]>[0], id: number | null) => Promise<AdminNews | null>,
  ): Promise<AdminNews | null> {
    const id = verb === 'create' ? null : parseNewsId(idInput);
    return db.tx(async (q) => {
      const before = id === null ? null : toAdminNews(await lockNews(q, id));
      const after = await apply(q, id);
      await writeAudit(q, {
        operatorId: opId,
        action: `news.${verb}`,
        targetType: 'news',
        targetId: after?.id ?? id,
        before,
        after,
        ip,
      });
      return after;
    });
  }

  return {
    list: (userId: number | null, body: PageInput, lang: Lang) => listNotices(db, userId, body, lang),
    detail: (userId: number | null, id: string | undefined, lang: Lang) => noticeDetail(db, userId, id, lang),
    messages: (userId: number, body: PageInput, lang: Lang) => listMessages(db, userId, body, lang),
    async unread(userId: number) {
      const [messages, notices] = await Promise.all([unreadMessages(db, userId), unreadNotices(db, userId)]);
      return { messages, notices };
    },
    markRead: (userId: number, id: string | undefined) => markMessagesRead(db, userId, id),

    adminList: (query: { status?: string | undefined } & PageInput) => adminNewsList(db, query),
    async create(opId: number, ip: string, body: AdminNewsBody): Promise<AdminNews> {
      const input = parseNewsInput(body);
      return (await change(opId, ip, 'create', undefined, async (q) =>
        toAdminNews(await insertNews(q, input, opId)),
      ))!;
    },
    async edit(opId: number, ip: string, body: AdminNewsBody): Promise<AdminNews> {
      parseNewsId(body.id);
      const input = parseNewsInput(body);
      return (await change(opId, ip, 'edit', body.id, async (q, id) =>
        toAdminNews(await updateNews(q, id!, input)),
      ))!;
    },
    async publish(
      opId: number,
      ip: string,
      idInput: string | undefined,
      published: boolean,
    ): Promise<AdminNews> {
      return (await change(opId, ip, published ? 'publish' : 'unpublish', idInput, async (q, id) =>
        toAdminNews(await setPublished(q, id!, published)),
      ))!;
    },
    async remove(opId: number, ip: string, idInput: string | undefined): Promise<void> {
      await change(opId, ip, 'delete', idInput, async (q, id) => {
        await deleteNews(q, id!);
        return null;
      });
    },
  };
}
export type NewsService = ReturnType<typeof createNewsService>;

declare module 'fastify' {
  interface FastifyInstance {
    news: NewsService;
  }
}
