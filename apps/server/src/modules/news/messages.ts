import { isLang, type Lang, type Message, type MessageKind, NewsEvents } from '@verdant/api';
import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import type { Db, Queryable } from '../../db/client.ts';
import { type PageInput, parsePaging } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { t } from '../../i18n/index.ts';
import { type Currency, currenciesById } from '../../ledger/currencies.ts';
import { userRoom } from '../../realtime/index.ts';

/**
 * Personal messages. A message stores what happened (kind) and its facts (params); its text is
 * rendered from the server's locale keys `news.message.<kind>.title|body` in the reader's
 * language when read, and in the user's own language when pushed live. Rows are written in the
 * transaction of the event itself, so a rolled-back event leaves no message, and pushed once
 * that transaction has committed (Queryable.afterCommit).
 */
export type MessageParams = Record<string, string | number>;

interface MessageRow {
  id: string;
  user_id: number;
  kind: MessageKind;
  params: MessageParams;
  read_at: Date | null;
  created_at: Date;
}

const COLUMNS = 'id::text, user_id, kind, params, read_at, created_at';

type Currencies = ReadonlyMap<number, Currency>;

/**
 * The message's text in `lang`. Facts that are words are named in the reader's language too: a
 * currency id becomes its symbol, an option's result and a verification level their locale keys.
 */
export function renderMessage(row: MessageRow, lang: Lang, currencies: Currencies): Message {
  const params: MessageParams = { ...row.params };
  if (typeof params.currency_id === 'number')
    params.currency = currencies.get(params.currency_id)?.symbol ?? '';
  if (typeof params.result === 'string') params.outcome = t(lang, `news.outcome.${params.result}`);
  if (typeof params.level === 'string') params.level_name = t(lang, `news.level.${params.level}`);
  return {
    id: row.id,
    kind: row.kind,
    title: t(lang, `news.message.${row.kind}.title`, params),
    body: t(lang, `news.message.${row.kind}.body`, params),
    read: row.read_at !== null,
    created_at: row.created_at.toISOString(),
  };
}

/** Where each database's committed messages go live: its app's sockets (set by the news service). */
const publishers = new WeakMap<Db, (rows: MessageRow[]) => void>();

export function setMessagePublisher(db: Db, io: Server, log: FastifyBaseLogger): void {
  publishers.set(db, (rows) => {
    publish(db, io, rows).catch((err) => log.error({ err }, 'message push'));
  });
}

async function publish(db: Db, io: Server, rows: MessageRow[]): Promise<void> {
  const ids = [...new Set(rows.map((r) => r.user_id))];
  // the language the user chose (set/lang): the users table's one column this module reads
  const langs = await db.query<{ id: number; lang: string }>(
    'SELECT id, lang FROM users WHERE id = ANY($1::int[])',
    [ids],
  );
  const langOf = new Map(langs.map((u) => [u.id, isLang(u.lang) ? u.lang : 'th']));
  const currencies = await currenciesById(db);
  for (const r of rows)
    io.to(userRoom(r.user_id)).emit(
      NewsEvents.message,
      renderMessage(r, langOf.get(r.user_id) ?? 'th', currencies),
    );
}

function pushAfterCommit(q: Queryable, rows: MessageRow[]): void {
  if (rows.length === 0) return;
  const push = (db: Db) => publishers.get(db)?.(rows);
  if (q.afterCommit) q.afterCommit(push);
}

/**
 * Writes one message for `userId` inside the caller's transaction; it is pushed to the user's
 * sockets once that transaction commits.
 */
export async function writeMessage(
  q: Queryable,
  userId: number,
  kind: MessageKind,
  params: MessageParams = {},
): Promise<void> {
  await writeMessages(q, kind, [{ userId, params }]);
}

const DECIMAL = /^-?\d+\.\d+$/;
/** Amounts as the user reads them: a stored NUMERIC's trailing zeros dropped ("101.000" → "101"). */
function canonParams(params: MessageParams): MessageParams {
  const out: MessageParams = {};
  for (const [k, v] of Object.entries(params))
    out[k] = typeof v === 'string' && DECIMAL.test(v) ? canon(v) : v;
  return out;
}

/**
 * Writes one message per entry in a single statement (a settlement pass of thousands of orders
 * costs one INSERT), pushed after the commit. The statement answers one row (the new ids as one
 * array, and the time): the rows to push are built here from what was written, because reading
 * thousands of rows back cost more than writing them on PGlite, which parses every field of every
 * row in JavaScript (5,000 messages: 200 ms with the rows returned, 90 ms without; docs/bench.md).
 */
export async function writeMessages(
  q: Queryable,
  kind: MessageKind,
  entries: readonly { userId: number; params: MessageParams }[],
): Promise<void> {
  if (entries.length === 0) return;
  const params = entries.map((e) => canonParams(e.params));
  const [written] = await q.query<{ ids: string; at: Date }>(
    `WITH m AS (
       INSERT INTO messages (user_id, kind, params)
       SELECT u.user_id, $1, u.params
         FROM ROWS FROM (unnest($2::int[]), jsonb_array_elements($3::jsonb)) WITH ORDINALITY AS u(user_id, params, n)
        ORDER BY u.n
       RETURNING id
     )
     SELECT (SELECT string_agg(id::text, ',' ORDER BY id) FROM m) AS ids, now() AS at`,
    // the params as one JSON array, parsed once, not an array of JSON texts each escaped into
    // the array literal and parsed apart (a settlement pass writes thousands)
    [kind, `{${entries.map((e) => e.userId).join(',')}}`, JSON.stringify(params)],
  );
  // identity values are taken in the order the rows are inserted (the entries' order), so the
  // ascending ids match the entries one by one
  const ids = written!.ids.split(',');
  pushAfterCommit(
    q,
    entries.map((e, i) => ({
      id: ids[i]!,
      user_id: e.userId,
      kind,
      params: params[i]!,
      read_at: null,
      created_at: written!.at,
    })),
  );
}

export async function unreadMessages(q: Queryable, userId: number): Promise<number> {
  const [r] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM messages WHERE user_id = $1 AND read_at IS NULL',
    [userId],
  );
  return r?.n ?? 0;
}

/** The user's messages, newest first. */
export async function listMessages(q: Queryable, userId: number, input: PageInput, lang: Lang) {
  const p = parsePaging(input);
  const [count] = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE user_id = $1', [
    userId,
  ]);
  const rows = await q.query<MessageRow>(
    `SELECT ${COLUMNS} FROM messages WHERE user_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
    [userId, p.limit, p.offset],
  );
  const currencies = await currenciesById(q);
  return {
    items: rows.map((r) => renderMessage(r, lang, currencies)),
    total: count?.n ?? 0,
    page: p.page,
    limit: p.limit,
    unread: await unreadMessages(q, userId),
  };
}

/** Marks one message (`id`) or all of them (`all`) read; answers how many are still unread. */
export async function markMessagesRead(q: Queryable, userId: number, idInput: string | undefined) {
  const id = (idInput ?? '').trim();
  if (!id) throw invalid('news.messageIdRequired', 'id');
  if (id === 'all') {
    await q.query('UPDATE messages SET read_at = now() WHERE user_id = $1 AND read_at IS NULL', [userId]);
  } else {
    if (!/^\d{1,18}$/.test(id)) throw new AppError('NOT_FOUND', 'news.messageUnknown', {}, 'id');
    // another user's message is as unknown as a missing one
    const [row] = await q.query<{ id: string }>(
      `UPDATE messages SET read_at = coalesce(read_at, now()) WHERE id = $1 AND user_id = $2 RETURNING id::text`,
      [id, userId],
    );
    if (!row) throw new AppError('NOT_FOUND', 'news.messageUnknown', {}, 'id');
  }
  return { unread: await unreadMessages(q, userId) };
}
