import {
  type AdminConversation,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  SUPPORT_TEXT_MAX,
  type SupportConversationState,
  type SupportMessage,
  type SupportSender,
} from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import type { Paging } from '../../db/paging.ts';
import { AppError, invalid } from '../../http/errors.ts';

/** A conversation as stored. */
export interface ConversationRow {
  id: number;
  user_id: number;
  status: SupportConversationState;
  assigned_to: number | null;
  user_read_id: string;
  support_read_id: string;
  last_message_at: Date | null;
}

interface MessageRow {
  id: string;
  conversation_id: number;
  sender: SupportSender;
  operator_id: number | null;
  text: string;
  picture: string | null;
  client_id: string | null;
  created_at: Date;
}

const CONVERSATION = `id, user_id, status, assigned_to, user_read_id::text, support_read_id::text, last_message_at`;
const MESSAGE = `id::text, conversation_id, sender, operator_id, text, picture, client_id, created_at`;

/** The message as answered; `read` says whether the other side has read it. */
export function toMessage(
  r: MessageRow,
  c: Pick<ConversationRow, 'user_read_id' | 'support_read_id'>,
  operators: Map<number, string> | null,
): SupportMessage {
  const readBy = BigInt(r.sender === 'user' ? c.support_read_id : c.user_read_id);
  return {
    id: Number(r.id),
    conversation_id: r.conversation_id,
    sender: r.sender,
    // users see "support", never which operator answered
    operator: operators && r.operator_id !== null ? (operators.get(r.operator_id) ?? null) : null,
    text: r.text,
    picture: r.picture,
    client_id: r.client_id,
    read: BigInt(r.id) <= readBy,
    created_at: r.created_at.toISOString(),
  };
}

/** A message's text: trimmed, at most SUPPORT_TEXT_MAX characters; may be empty with a picture. */
export function parseText(input: string | undefined, hasPicture: boolean): string {
  const text = (input ?? '').replace(/\r\n/g, '\n').trim();
  if (!text && !hasPicture) throw invalid('support.messageEmpty', 'text');
  if ([...text].length > SUPPORT_TEXT_MAX)
    throw invalid('support.messageTooLong', 'text', { max: SUPPORT_TEXT_MAX });
  return text;
}

export function parseClientId(input: string | undefined): string | null {
  const s = (input ?? '').trim();
  if (!s) return null;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(s)) throw invalid('support.clientIdInvalid', 'client_id');
  return s;
}

/** A message id from a form or query ("before", "up_to"): a whole number, or null when empty. */
export function parseMessageId(input: string | undefined, field: string): bigint | null {
  const s = (input ?? '').trim();
  if (!s) return null;
  if (!/^\d{1,18}$/.test(s)) throw invalid('validation.pageInvalid', field);
  return BigInt(s);
}

export function parseLimit(input: string | undefined): number {
  const s = (input ?? '').trim();
  if (!s) return PAGE_LIMIT_DEFAULT;
  if (!/^\d{1,3}$/.test(s) || Number(s) < 1 || Number(s) > PAGE_LIMIT_MAX)
    throw invalid('validation.pageInvalid', 'limit');
  return Number(s);
}

export async function conversationOfUser(q: Queryable, userId: number): Promise<ConversationRow | null> {
  const [row] = await q.query<ConversationRow>(
    `SELECT ${CONVERSATION} FROM support_conversations WHERE user_id = $1`,
    [userId],
  );
  return row ?? null;
}

export async function conversationById(q: Queryable, id: number, lock = false): Promise<ConversationRow> {
  const [row] = await q.query<ConversationRow>(
    `SELECT ${CONVERSATION} FROM support_conversations WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [id],
  );
  if (!row) throw new AppError('NOT_FOUND', 'support.conversationNotFound', {}, 'conversation_id');
  return row;
}

/** The user's conversation, opened again (or created) because they write; locked for the insert. */
export async function openConversation(q: Queryable, userId: number): Promise<ConversationRow> {
  const [row] = await q.query<ConversationRow>(
    `INSERT INTO support_conversations (user_id) VALUES ($1)
     ON CONFLICT (user_id) DO UPDATE SET status = 'open'
     RETURNING ${CONVERSATION}`,
    [userId],
  );
  return row!;
}

/**
 * Stores one message. A retry with the same client id answers the message stored the first time
 * (`created: false`) instead of storing it twice.
 */
export async function insertMessage(
  q: Queryable,
  m: {
    conversationId: number;
    sender: SupportSender;
    operatorId: number | null;
    text: string;
    picture: string | null;
    clientId: string | null;
  },
): Promise<{ row: MessageRow; created: boolean }> {
  const [row] = await q.query<MessageRow>(
    `INSERT INTO support_messages (conversation_id, sender, operator_id, text, picture, client_id)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (conversation_id, sender, client_id) WHERE client_id IS NOT NULL DO NOTHING
     RETURNING ${MESSAGE}`,
    [m.conversationId, m.sender, m.operatorId, m.text, m.picture, m.clientId],
  );
  if (row) {
    await q.query('UPDATE support_conversations SET last_message_at = $2 WHERE id = $1', [
      m.conversationId,
      row.created_at,
    ]);
    return { row, created: true };
  }
  const [existing] = await q.query<MessageRow>(
    `SELECT ${MESSAGE} FROM support_messages WHERE conversation_id = $1 AND sender = $2 AND client_id = $3`,
    [m.conversationId, m.sender, m.clientId],
  );
  return { row: existing!, created: false };
}

/** Newest first, older than `before`; one more than asked tells whether there are more. */
export async function historyRows(
  q: Queryable,
  conversationId: number,
  before: bigint | null,
  limit: number,
): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  const rows = await q.query<MessageRow>(
    // ordered by the table's id: the answer's id column is text (a bigint leaves as a string)
    `SELECT ${MESSAGE} FROM support_messages m
      WHERE m.conversation_id = $1 AND ($2::bigint IS NULL OR m.id < $2::bigint)
      ORDER BY m.id DESC LIMIT $3`,
    [conversationId, before?.toString() ?? null, limit + 1],
  );
  return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** Messages the `reader` has not read yet (those the other side wrote after its read mark). */
export async function unreadCount(q: Queryable, c: ConversationRow, reader: SupportSender): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM support_messages WHERE conversation_id = $1 AND sender <> $2 AND id > $3::bigint`,
    [c.id, reader, reader === 'user' ? c.user_read_id : c.support_read_id],
  );
  return row?.n ?? 0;
}

/**
 * Moves the reader's mark up to `upTo` (never past the newest message, never back); answers the
 * mark afterwards, or null when it did not move.
 */
export async function markRead(
  q: Queryable,
  conversationId: number,
  reader: SupportSender,
  upTo: bigint | null,
): Promise<bigint | null> {
  const col = reader === 'user' ? 'user_read_id' : 'support_read_id';
  const [row] = await q.query<{ mark: string }>(
    `UPDATE support_conversations c
        SET ${col} = m.top
       FROM (SELECT coalesce(max(id), 0) AS top FROM support_messages
              WHERE conversation_id = $1 AND ($2::bigint IS NULL OR id <= $2::bigint)) m
      WHERE c.id = $1 AND m.top > c.${col}
      RETURNING c.${col}::text AS mark`,
    [conversationId, upTo?.toString() ?? null],
  );
  return row ? BigInt(row.mark) : null;
}

interface ListRow extends ConversationRow {
  unread: number;
  last_text: string | null;
}

/** Conversations for the inbox, latest message first, with support's unread count each. */
export async function conversationRows(
  q: Queryable,
  f: { status: SupportConversationState | null; assignedTo: number | null },
  p: Paging,
): Promise<{ rows: ListRow[]; total: number }> {
  const where = `($1::text IS NULL OR c.status = $1) AND ($2::int IS NULL OR c.assigned_to = $2)`;
  const [count] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM support_conversations c WHERE ${where}`,
    [f.status, f.assignedTo],
  );
  const rows = await q.query<ListRow>(
    `SELECT c.id, c.user_id, c.status, c.assigned_to, c.user_read_id::text, c.support_read_id::text,
            c.last_message_at,
            (SELECT count(*)::int FROM support_messages m
              WHERE m.conversation_id = c.id AND m.sender = 'user' AND m.id > c.support_read_id) AS unread,
            (SELECT m.text FROM support_messages m WHERE m.conversation_id = c.id ORDER BY m.id DESC LIMIT 1)
              AS last_text
       FROM support_conversations c WHERE ${where}
      ORDER BY c.last_message_at DESC NULLS LAST, c.id DESC LIMIT $3 OFFSET $4`,
    [f.status, f.assignedTo, p.limit, p.offset],
  );
  return { rows, total: count?.n ?? 0 };
}

export function toAdminConversation(
  r: ListRow,
  accounts: Map<number, string>,
  operators: Map<number, string>,
): AdminConversation {
  return {
    id: r.id,
    user_id: r.user_id,
    user_account: accounts.get(r.user_id) ?? '',
    status: r.status,
    assigned_to: r.assigned_to,
    assigned_username: r.assigned_to === null ? null : (operators.get(r.assigned_to) ?? null),
    unread: r.unread,
    last_text: r.last_text ?? '',
    last_at: r.last_message_at?.toISOString() ?? null,
  };
}

/** A conversation's row for the audit log. */
export const conversationSnapshot = (c: ConversationRow) => ({
  ...c,
  last_message_at: c.last_message_at?.toISOString() ?? null,
});
