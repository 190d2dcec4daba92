import {
  type AdminConversation,
  type AdminConversationBody,
  type AdminConversationsQuery,
  type AdminReplyBody,
  type AdminSupportContext,
  type AdminSupportHistoryQuery,
  type HelpArticle,
  type HelpArticlesQuery,
  type Lang,
  OPERATOR_NAMESPACE,
  type OperatorRole,
  SUPPORT_CONVERSATION_STATES,
  SupportEvents,
  type SupportHistory,
  type SupportHistoryQuery,
  type SupportMessage,
  type SupportReadEvent,
  type SupportSendBody,
  type SupportSender,
  type SupportTypingEvent,
} from '@verdant/api';
import type { Server } from 'socket.io';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/client.ts';
import { type PageInput, parsePaging } from '../../db/paging.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import { userBalances } from '../../ledger/statement.ts';
import { userRoom } from '../../realtime/index.ts';
import { listOperators, type OperatorSession, parseId, writeAudit } from '../admin/service.ts';
import { uploadsService } from '../uploads/service.ts';
import { userAccounts, userProfile } from '../user/service.ts';
import { getArticle, listArticles, seedArticles } from './articles.ts';
import {
  type ConversationRow,
  conversationById,
  conversationOfUser,
  conversationRows,
  conversationSnapshot,
  historyRows,
  insertMessage,
  markRead,
  openConversation,
  parseClientId,
  parseLimit,
  parseMessageId,
  parseText,
  toAdminConversation,
  toMessage,
  unreadCount,
} from './chat.ts';
import { contentService, type Page } from './content.ts';

/** Roles that answer the chat (admins pass every check anyway). */
export const SUPPORT_ROLES: readonly OperatorRole[] = ['admin', 'support'];
/** The room of the operators' namespace every support operator joins. */
export const SUPPORT_ROOM = 'support';

const CONVERSATION_KEYS = { field: 'conversation_id', required: 'support.conversationRequired' };

async function operatorNames(q: Queryable): Promise<Map<number, string>> {
  return new Map((await listOperators(q)).map((o) => [o.id, o.username]));
}

export function supportService(ctx: AppContext, io: Server) {
  const { db } = ctx;
  const uploads = uploadsService(ctx);
  const operators = () => io.of(OPERATOR_NAMESPACE).to(SUPPORT_ROOM);

  /** A new or re-sent message to both sides: the user's devices and every support operator. */
  async function announce(userId: number, message: SupportMessage): Promise<void> {
    io.to(userRoom(userId)).emit(SupportEvents.message, { ...message, operator: null });
    operators().emit(SupportEvents.message, message);
  }

  function announceRead(c: ConversationRow, reader: SupportSender, upTo: bigint): void {
    const event: SupportReadEvent = { conversation_id: c.id, reader, up_to: Number(upTo) };
    io.to(userRoom(c.user_id)).emit(SupportEvents.read, event);
    operators().emit(SupportEvents.read, event);
  }

  const announceConversation = (id: number) =>
    operators().emit(SupportEvents.conversation, { conversation_id: id });

  async function history(c: ConversationRow | null, query: SupportHistoryQuery, reader: SupportSender) {
    const before = parseMessageId(query.before, 'before');
    const limit = parseLimit(query.limit);
    if (!c) return { items: [], has_more: false, unread: 0 };
    const { rows, hasMore } = await historyRows(db, c.id, before, limit);
    const names = reader === 'support' ? await operatorNames(db) : null;
    return {
      items: rows.map((r) => toMessage(r, c, names)),
      has_more: hasMore,
      unread: await unreadCount(db, c, reader),
    };
  }

  function parseConversationId(input: string | undefined): number {
    return parseId(input, CONVERSATION_KEYS.field, CONVERSATION_KEYS.required);
  }

  /** Stores a message from support, audited, and tells both sides. */
  async function reply(
    op: OperatorSession,
    ip: string,
    body: AdminReplyBody & { picture?: string | undefined },
  ) {
    const id = parseConversationId(body.conversation_id);
    const pictureName = (body.picture ?? '').trim() || null;
    const text = parseText(body.text, pictureName !== null);
    const { c, row, read } = await db.tx(async (q) => {
      const c = await conversationById(q, id, true);
      // a support picture is stored as the user's upload (admin/support/upload), so they can open it
      const picture = pictureName ? await uploads.assertOwned(c.user_id, pictureName, 'picture') : null;
      const { row } = await insertMessage(q, {
        conversationId: c.id,
        sender: 'support',
        operatorId: op.id,
        text,
        picture,
        clientId: null,
      });
      // answering reads what the user wrote before it
      const read = await markRead(q, c.id, 'support', BigInt(row.id));
      await writeAudit(q, {
        operatorId: op.id,
        action: 'support.reply',
        targetType: 'support_conversation',
        targetId: c.id,
        before: null,
        after: { message_id: Number(row.id), text, picture },
        ip,
      });
      return { c: await conversationById(q, id), row, read };
    });
    const message = toMessage(row, c, new Map([[op.id, op.username]]));
    await announce(c.user_id, message);
    if (read !== null) announceRead(c, 'support', read);
    announceConversation(c.id);
    return message;
  }

  /** Assign or close: the conversation before and after go to the audit log. */
  async function changeConversation(
    op: OperatorSession,
    ip: string,
    id: number,
    action: 'assign' | 'close',
    change: (q: Queryable, c: ConversationRow) => Promise<void>,
  ): Promise<ConversationRow> {
    const after = await db.tx(async (q) => {
      const before = await conversationById(q, id, true);
      await change(q, before);
      const after = await conversationById(q, id);
      await writeAudit(q, {
        operatorId: op.id,
        action: `support.${action}`,
        targetType: 'support_conversation',
        targetId: id,
        before: conversationSnapshot(before),
        after: conversationSnapshot(after),
        ip,
      });
      return after;
    });
    announceConversation(id);
    return after;
  }

  return {
    ...contentService(ctx),

    /** First start: the common questions a fresh install offers. */
    seed: () => seedArticles(db),

    articles: (lang: Lang, query: HelpArticlesQuery): Promise<HelpArticle[]> => listArticles(db, lang, query),
    article: (lang: Lang, id: string | undefined): Promise<HelpArticle> => getArticle(db, lang, id),

    // ---- the user's side of the chat --------------------------------------------------------

    async history(userId: number, query: SupportHistoryQuery): Promise<SupportHistory> {
      return history(await conversationOfUser(db, userId), query, 'user');
    },

    async unread(userId: number): Promise<number> {
      const c = await conversationOfUser(db, userId);
      return c ? unreadCount(db, c, 'user') : 0;
    },

    /** A message to support (socket `support:send` or HTTP); a retry with the same client_id stores it once. */
    async send(userId: number, body: SupportSendBody): Promise<SupportMessage> {
      const pictureName = (body.picture ?? '').trim() || null;
      const text = parseText(body.text, pictureName !== null);
      const clientId = parseClientId(body.client_id);
      const picture = pictureName ? await uploads.assertOwned(userId, pictureName, 'picture') : null;
      const { c, row, created } = await db.tx(async (q) => {
        const c = await openConversation(q, userId);
        const { row, created } = await insertMessage(q, {
          conversationId: c.id,
          sender: 'user',
          operatorId: null,
          text,
          picture,
          clientId,
        });
        return { c, row, created };
      });
      const message = toMessage(row, c, null);
      if (created) {
        await announce(userId, message);
        announceConversation(c.id);
      }
      return message;
    },

    async read(userId: number, upTo: string | undefined): Promise<number> {
      const mark = parseMessageId(upTo, 'up_to');
      const c = await conversationOfUser(db, userId);
      if (!c) return 0;
      const moved = await markRead(db, c.id, 'user', mark);
      if (moved !== null) announceRead(c, 'user', moved);
      return unreadCount(db, (await conversationOfUser(db, userId))!, 'user');
    },

    async userTyping(userId: number): Promise<void> {
      const c = await conversationOfUser(db, userId);
      if (c)
        operators().emit(SupportEvents.typing, {
          conversation_id: c.id,
          sender: 'user',
        } satisfies SupportTypingEvent);
    },

    // ---- operators ---------------------------------------------------------------------------

    async conversations(
      query: AdminConversationsQuery,
      op: OperatorSession,
    ): Promise<Page<AdminConversation>> {
      const s = (query.status ?? '').trim().toLowerCase() || 'open';
      if (s !== 'all' && !(SUPPORT_CONVERSATION_STATES as readonly string[]).includes(s))
        throw invalid('admin.statusInvalid', 'status');
      const p = parsePaging(query as PageInput);
      const { rows, total } = await conversationRows(
        db,
        {
          status: s === 'all' ? null : (s as ConversationRow['status']),
          assignedTo: query.mine === '1' ? op.id : null,
        },
        p,
      );
      const accounts = await userAccounts(
        db,
        rows.map((r) => r.user_id),
      );
      const names = await operatorNames(db);
      return {
        items: rows.map((r) => toAdminConversation(r, accounts, names)),
        total,
        page: p.page,
        limit: p.limit,
      };
    },

    async adminHistory(query: AdminSupportHistoryQuery): Promise<SupportHistory> {
      const c = await conversationById(db, parseConversationId(query.conversation_id));
      return history(c, query, 'support');
    },

    reply,

    /** A picture for a reply, stored as the conversation's user's upload (they can open it, nobody else). */
    async upload(conversationId: string | undefined, bytes: Buffer) {
      const c = await conversationById(db, parseConversationId(conversationId));
      return uploads.save(c.user_id, bytes);
    },

    /** A picture of a conversation or a feedback, for support: nothing else of a user's uploads. */
    async picture(name: string) {
      const [used] = await db.query(
        `SELECT 1 FROM support_messages WHERE picture = $1
         UNION ALL SELECT 1 FROM support_feedback_pictures WHERE picture = $1 LIMIT 1`,
        [name],
      );
      if (!used) throw new AppError('NOT_FOUND', 'errors.notFound');
      return uploads.readAny(name);
    },

    async adminRead(body: AdminConversationBody): Promise<number> {
      const c = await conversationById(db, parseConversationId(body.conversation_id));
      const moved = await markRead(db, c.id, 'support', parseMessageId(body.up_to, 'up_to'));
      if (moved !== null) {
        announceRead(c, 'support', moved);
        announceConversation(c.id);
      }
      return unreadCount(db, await conversationById(db, c.id), 'support');
    },

    async adminTyping(conversationId: unknown): Promise<void> {
      const id = typeof conversationId === 'number' ? conversationId : Number(conversationId);
      if (!Number.isSafeInteger(id) || id <= 0) return;
      const [c] = await db.query<{ user_id: number }>(
        'SELECT user_id FROM support_conversations WHERE id = $1',
        [id],
      );
      if (c)
        io.to(userRoom(c.user_id)).emit(SupportEvents.typing, {
          conversation_id: id,
          sender: 'support',
        } satisfies SupportTypingEvent);
    },

    async assign(op: OperatorSession, ip: string, body: AdminConversationBody) {
      const id = parseConversationId(body.conversation_id);
      const target = (body.operator_id ?? '').trim() ? parseId(body.operator_id, 'operator_id') : op.id;
      const ops = await listOperators(db);
      const who = ops.find((o) => o.id === target);
      if (!who || who.disabled || !SUPPORT_ROLES.includes(who.role))
        throw invalid('support.assigneeInvalid', 'operator_id');
      await changeConversation(op, ip, id, 'assign', async (q) => {
        await q.query('UPDATE support_conversations SET assigned_to = $2 WHERE id = $1', [id, target]);
      });
      return { conversation_id: id, assigned_to: target, assigned_username: who.username };
    },

    async close(op: OperatorSession, ip: string, body: AdminConversationBody) {
      const id = parseConversationId(body.conversation_id);
      const after = await changeConversation(op, ip, id, 'close', async (q, c) => {
        if (c.status === 'closed')
          throw new AppError('CONFLICT', 'support.alreadyClosed', {}, 'conversation_id');
        await q.query("UPDATE support_conversations SET status = 'closed' WHERE id = $1", [id]);
      });
      return { conversation_id: id, status: after.status };
    },

    /** The user beside a chat: account, verification, balances (only accounts holding something). */
    async context(conversationId: string | undefined): Promise<AdminSupportContext> {
      const c = await conversationById(db, parseConversationId(conversationId));
      const p = (await userProfile(db, c.user_id))!;
      const currencies = await currenciesById(db);
      const balances = (await userBalances(db, c.user_id))
        .filter((b) => b.available !== '0' || b.frozen !== '0')
        .map((b) => ({
          type: b.type,
          symbol: currencies.get(b.currency_id)?.symbol ?? '',
          available: b.available,
          frozen: b.frozen,
        }));
      return {
        user_id: p.id,
        account: p.account,
        nickname: p.nickname,
        lang: p.lang,
        status: p.status,
        withdraw_frozen: p.withdraw_frozen,
        verification: p.verification,
        advanced_verification: p.advanced_verification,
        created_at: p.created_at.toISOString(),
        last_login_at: p.last_login_at?.toISOString() ?? null,
        balances,
      };
    },

    /** Operators who may answer, for the assign menu. */
    async supportOperators() {
      return (await listOperators(db))
        .filter((o) => !o.disabled && SUPPORT_ROLES.includes(o.role))
        .map((o) => ({ id: o.id, username: o.username, role: o.role }));
    },
  };
}

export type SupportService = ReturnType<typeof supportService>;
