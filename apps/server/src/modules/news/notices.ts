import {
  type AdminNews,
  type AdminNewsBody,
  LANGS,
  type Lang,
  NEWS_BODY_MAX,
  NEWS_KINDS,
  NEWS_STATES,
  NEWS_TITLE_MAX,
  type NewsDetail,
  type NewsItem,
  type NewsKind,
} from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { type PageInput, parsePaging } from '../../db/paging.ts';
import { AppError, invalid } from '../../http/errors.ts';

// Notices and announcements operators write in up to seven languages (English required).

type Texts = Record<string, string>;

export interface NewsRow {
  id: number;
  kind: NewsKind;
  title: Texts;
  body: Texts;
  status: 'draft' | 'published';
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, kind, title, body, status, published_at, created_at, updated_at';
const SUMMARY_CHARS = 120;

/** The text in `lang`, else English (operators must write English). */
const textIn = (texts: Texts, lang: Lang): string => texts[lang]?.trim() || texts.en || '';

function summaryOf(body: string): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return flat.length > SUMMARY_CHARS ? `${flat.slice(0, SUMMARY_CHARS - 1)}…` : flat;
}

function toItem(r: NewsRow, lang: Lang, read: boolean): NewsItem {
  return {
    id: r.id,
    kind: r.kind,
    title: textIn(r.title, lang),
    summary: summaryOf(textIn(r.body, lang)),
    published_at: r.published_at!.toISOString(),
    read,
  };
}

export function toAdminNews(r: NewsRow): AdminNews {
  return {
    id: r.id,
    kind: r.kind,
    status: r.status,
    title: r.title,
    body: r.body,
    published_at: r.published_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/** A notice id from a form: required; anything not a whole number matches nothing. */
export function parseNewsId(input: string | undefined): number {
  const s = (input ?? '').trim();
  if (!s) throw invalid('news.idRequired', 'id');
  if (!/^\d{1,9}$/.test(s)) throw new AppError('NOT_FOUND', 'news.unknown', {}, 'id');
  return Number(s);
}

export async function unreadNotices(q: Queryable, userId: number | null): Promise<number> {
  if (userId === null) return 0;
  const [r] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM news n
      WHERE n.status = 'published'
        AND NOT EXISTS (SELECT 1 FROM news_reads r WHERE r.news_id = n.id AND r.user_id = $1)`,
    [userId],
  );
  return r?.n ?? 0;
}

/** Published notices, newest first, with this user's unread marks. */
export async function listNotices(q: Queryable, userId: number | null, input: PageInput, lang: Lang) {
  const p = parsePaging(input);
  const [count] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM news WHERE status = 'published'`,
  );
  const rows = await q.query<NewsRow & { read: boolean }>(
    `SELECT ${COLUMNS},
            EXISTS (SELECT 1 FROM news_reads r WHERE r.news_id = news.id AND r.user_id = $1) AS read
       FROM news WHERE status = 'published'
      ORDER BY published_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [userId ?? 0, p.limit, p.offset],
  );
  return {
    items: rows.map((r) => toItem(r, lang, userId !== null && r.read)),
    total: count?.n ?? 0,
    page: p.page,
    limit: p.limit,
    unread: await unreadNotices(q, userId),
  };
}

/** One published notice; opening it marks it read for a logged-in user. */
export async function noticeDetail(
  q: Queryable,
  userId: number | null,
  idInput: string | undefined,
  lang: Lang,
): Promise<NewsDetail> {
  const id = parseNewsId(idInput);
  const [r] = await q.query<NewsRow>(`SELECT ${COLUMNS} FROM news WHERE id = $1 AND status = 'published'`, [
    id,
  ]);
  if (!r) throw new AppError('NOT_FOUND', 'news.unknown', {}, 'id');
  if (userId !== null)
    await q.query(
      'INSERT INTO news_reads (user_id, news_id) VALUES ($1, $2) ON CONFLICT (user_id, news_id) DO NOTHING',
      [userId, id],
    );
  return { ...toItem(r, lang, userId !== null), body: textIn(r.body, lang) };
}

// ---- operators ----

/** An operator's form: kind, and title_<lang>/body_<lang> per language; English required. */
export function parseNewsInput(body: AdminNewsBody): { kind: NewsKind; title: Texts; body: Texts } {
  const kind = ((body.kind ?? '').trim() || 'notice') as NewsKind;
  if (!NEWS_KINDS.includes(kind)) throw invalid('news.kindInvalid', 'kind');
  const title: Texts = {};
  const text: Texts = {};
  for (const l of LANGS) {
    const t = (body[`title_${l}`] ?? '').trim();
    const b = (body[`body_${l}`] ?? '').replace(/\r\n/g, '\n').trim();
    if (t.length > NEWS_TITLE_MAX) throw invalid('news.titleTooLong', `title_${l}`, { max: NEWS_TITLE_MAX });
    if (b.length > NEWS_BODY_MAX) throw invalid('news.bodyTooLong', `body_${l}`, { max: NEWS_BODY_MAX });
    // a language is written as a pair: a title without its body (or the reverse) is half a notice
    if (!t !== !b)
      throw invalid(t ? 'news.bodyRequired' : 'news.titleRequired', t ? `body_${l}` : `title_${l}`);
    if (t) {
      title[l] = t;
      text[l] = b;
    }
  }
  if (!title.en) throw invalid('news.englishRequired', 'title_en');
  return { kind, title, body: text };
}

export async function adminNewsList(q: Queryable, input: { status?: string | undefined } & PageInput) {
  const s = (input.status ?? '').trim().toLowerCase() || 'all';
  if (s !== 'all' && !(NEWS_STATES as readonly string[]).includes(s))
    throw invalid('admin.statusInvalid', 'status');
  const p = parsePaging(input);
  const cond = s === 'all' ? '' : 'WHERE status = $1';
  const params = s === 'all' ? [] : [s];
  const [count] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM news ${cond}`, params);
  const rows = await q.query<NewsRow>(
    `SELECT ${COLUMNS} FROM news ${cond} ORDER BY id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, p.limit, p.offset],
  );
  return { items: rows.map(toAdminNews), total: count?.n ?? 0, page: p.page, limit: p.limit };
}

export async function lockNews(q: Queryable, id: number): Promise<NewsRow> {
  const [r] = await q.query<NewsRow>(`SELECT ${COLUMNS} FROM news WHERE id = $1 FOR UPDATE`, [id]);
  if (!r) throw new AppError('NOT_FOUND', 'news.unknown', {}, 'id');
  return r;
}

export async function insertNews(
  q: Queryable,
  input: { kind: NewsKind; title: Texts; body: Texts },
  operatorId: number,
): Promise<NewsRow> {
  const [r] = await q.query<NewsRow>(
    `INSERT INTO news (kind, title, body, created_by) VALUES ($1, $2::jsonb, $3::jsonb, $4) RETURNING ${COLUMNS}`,
    [input.kind, JSON.stringify(input.title), JSON.stringify(input.body), operatorId],
  );
  return r!;
}

export async function updateNews(
  q: Queryable,
  id: number,
  input: { kind: NewsKind; title: Texts; body: Texts },
): Promise<NewsRow> {
  const [r] = await q.query<NewsRow>(
    `UPDATE news SET kind = $2, title = $3::jsonb, body = $4::jsonb, updated_at = now() WHERE id = $1
     RETURNING ${COLUMNS}`,
    [id, input.kind, JSON.stringify(input.title), JSON.stringify(input.body)],
  );
  return r!;
}

/** Publishing stamps the time it goes out (re-publishing puts it on top again); unpublishing hides it. */
export async function setPublished(q: Queryable, id: number, published: boolean): Promise<NewsRow> {
  const [r] = await q.query<NewsRow>(
    published
      ? `UPDATE news SET status = 'published', published_at = now(), updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`
      : `UPDATE news SET status = 'draft', published_at = NULL, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  return r!;
}

export async function deleteNews(q: Queryable, id: number): Promise<void> {
  await q.query('DELETE FROM news WHERE id = $1', [id]);
}
