import {
  type AdminArticle,
  type AdminArticleBody,
  HELP_BODY_MAX,
  HELP_CATEGORIES,
  HELP_SEARCH_MAX,
  HELP_TITLE_MAX,
  type HelpArticle,
  type HelpArticlesQuery,
  type HelpCategory,
  LANGS,
  type Lang,
} from '@verdant/api';
import type { Db, Queryable } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { SEED_ARTICLES } from './seed.ts';

interface ShownRow {
  id: number;
  slug: string | null;
  category: HelpCategory;
  lang: string;
  title: string;
  body: string;
  updated_at: Date;
}

// The request's language where the article has it, English otherwise (English is always there).
const SHOWN = `
  SELECT a.id, a.slug, a.category, a.updated_at,
         coalesce(l.lang, e.lang) AS lang, coalesce(l.title, e.title) AS title, coalesce(l.body, e.body) AS body
    FROM help_articles a
    JOIN help_article_texts e ON e.article_id = a.id AND e.lang = 'en'
    LEFT JOIN help_article_texts l ON l.article_id = a.id AND l.lang = $1`;
const CATEGORY_ORDER = `array_position(ARRAY[${HELP_CATEGORIES.map((c) => `'${c}'`).join(',')}]::text[], a.category)`;

const toArticle = (r: ShownRow): HelpArticle => ({ ...r, updated_at: r.updated_at.toISOString() });

function parseCategory(input: string | undefined, required: boolean): HelpCategory | null {
  const s = (input ?? '').trim().toLowerCase();
  if (!s) {
    if (required) throw invalid('support.categoryRequired', 'category');
    return null;
  }
  if (!(HELP_CATEGORIES as readonly string[]).includes(s))
    throw invalid('support.categoryInvalid', 'category');
  return s as HelpCategory;
}

/** A LIKE pattern matching `words` anywhere, its wildcards taken literally. */
const likePattern = (words: string) => `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Published articles in `lang`, by category then order; `q` searches the shown title and text. */
export async function listArticles(
  q: Queryable,
  lang: Lang,
  query: HelpArticlesQuery,
): Promise<HelpArticle[]> {
  const category = parseCategory(query.category, false);
  const words = (query.q ?? '').trim().replace(/\s+/g, ' ');
  if ([...words].length > HELP_SEARCH_MAX)
    throw invalid('support.searchTooLong', 'q', { max: HELP_SEARCH_MAX });
  const rows = await q.query<ShownRow>(
    `${SHOWN}
      WHERE a.published AND ($2::text IS NULL OR a.category = $2)
        AND ($3::text IS NULL OR coalesce(l.title, e.title) ILIKE $3 OR coalesce(l.body, e.body) ILIKE $3)
      ORDER BY ${CATEGORY_ORDER}, a.sort, a.id`,
    [lang, category, words ? likePattern(words) : null],
  );
  return rows.map(toArticle);
}

/** One published article by id or slug. */
export async function getArticle(
  q: Queryable,
  lang: Lang,
  idOrSlug: string | undefined,
): Promise<HelpArticle> {
  const key = (idOrSlug ?? '').trim().toLowerCase();
  if (!key) throw invalid('support.articleRequired', 'id');
  const byId = /^\d{1,9}$/.test(key);
  const [row] = await q.query<ShownRow>(
    `${SHOWN} WHERE a.published AND ${byId ? 'a.id = $2::int' : 'a.slug = $2'}`,
    [lang, key],
  );
  if (!row) throw new AppError('NOT_FOUND', 'support.articleNotFound', {}, 'id');
  return toArticle(row);
}

// ---- operators -----------------------------------------------------------------------------

interface ArticleRow {
  id: number;
  slug: string | null;
  category: HelpCategory;
  sort: number;
  published: boolean;
  updated_at: Date;
}

/** Every article with all its languages, for the console (drafts included). */
export async function adminArticles(q: Queryable, ids?: number[]): Promise<AdminArticle[]> {
  const rows = await q.query<ArticleRow>(
    `SELECT id, slug, category, sort, published, updated_at FROM help_articles a
      ${ids ? 'WHERE a.id = ANY($1::int[])' : ''} ORDER BY ${CATEGORY_ORDER}, a.sort, a.id`,
    ids ? [ids] : [],
  );
  const texts = await q.query<{ article_id: number; lang: string; title: string; body: string }>(
    'SELECT article_id, lang, title, body FROM help_article_texts WHERE article_id = ANY($1::int[])',
    [rows.map((r) => r.id)],
  );
  return rows.map((r) => ({
    ...r,
    updated_at: r.updated_at.toISOString(),
    texts: Object.fromEntries(
      texts.filter((t) => t.article_id === r.id).map((t) => [t.lang, { title: t.title, body: t.body }]),
    ),
  }));
}

type Texts = Partial<Record<Lang, { title: string; body: string }>>;

/** The per-language texts of a save: JSON, English required, each title and body within limits. */
function parseTexts(input: string | undefined): Texts {
  let raw: unknown;
  try {
    raw = JSON.parse(input ?? '');
  } catch {
    throw invalid('support.textsInvalid', 'texts');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw invalid('support.textsInvalid', 'texts');
  const out: Texts = {};
  for (const [lang, v] of Object.entries(raw as Record<string, unknown>)) {
    if (!(LANGS as readonly string[]).includes(lang)) throw invalid('support.textsInvalid', 'texts');
    const t = v as { title?: unknown; body?: unknown } | null;
    const title = typeof t?.title === 'string' ? t.title.trim() : '';
    const body = typeof t?.body === 'string' ? t.body.replace(/\r\n/g, '\n').trim() : '';
    if (!title && !body) continue; // a language left empty falls back to English
    if (!title || !body) throw invalid('support.textIncomplete', `texts.${lang}`, { lang });
    if ([...title].length > HELP_TITLE_MAX)
      throw invalid('support.titleTooLong', `texts.${lang}`, { max: HELP_TITLE_MAX });
    if ([...body].length > HELP_BODY_MAX)
      throw invalid('support.bodyTooLong', `texts.${lang}`, { max: HELP_BODY_MAX });
    out[lang as Lang] = { title, body };
  }
  if (!out.en) throw invalid('support.englishRequired', 'texts.en');
  return out;
}

export interface ArticleInput {
  id: number | null;
  slug: string | null;
  category: HelpCategory;
  sort: number;
  published: boolean;
  texts: Texts;
}

export function parseArticle(body: AdminArticleBody): ArticleInput {
  const idText = (body.id ?? '').trim();
  if (idText && !/^\d{1,9}$/.test(idText))
    throw new AppError('NOT_FOUND', 'support.articleNotFound', {}, 'id');
  const slug = (body.slug ?? '').trim().toLowerCase() || null;
  if (slug && !/^[a-z0-9][a-z0-9-]{0,39}$/.test(slug)) throw invalid('support.slugInvalid', 'slug');
  const sortText = (body.sort ?? '').trim() || '0';
  if (!/^-?\d{1,5}$/.test(sortText)) throw invalid('support.sortInvalid', 'sort');
  return {
    id: idText ? Number(idText) : null,
    slug,
    category: parseCategory(body.category, true)!,
    sort: Number(sortText),
    published: (body.published ?? '1').trim() !== '0',
    texts: parseTexts(body.texts),
  };
}

/** Creates or replaces an article with its texts; answers the article before (null: new) and after. */
export async function saveArticle(
  q: Queryable,
  a: ArticleInput,
): Promise<{ before: AdminArticle | null; after: AdminArticle }> {
  let before: AdminArticle | null = null;
  let id = a.id;
  try {
    if (id !== null) {
      [before = null] = await adminArticles(q, [id]);
      if (!before) throw new AppError('NOT_FOUND', 'support.articleNotFound', {}, 'id');
      await q.query(
        `UPDATE help_articles SET slug = $2, category = $3, sort = $4, published = $5, updated_at = now()
          WHERE id = $1`,
        [id, a.slug, a.category, a.sort, a.published],
      );
      await q.query('DELETE FROM help_article_texts WHERE article_id = $1', [id]);
    } else {
      const [row] = await q.query<{ id: number }>(
        'INSERT INTO help_articles (slug, category, sort, published) VALUES ($1, $2, $3, $4) RETURNING id',
        [a.slug, a.category, a.sort, a.published],
      );
      id = row!.id;
    }
  } catch (e) {
    if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'support.slugTaken', {}, 'slug');
    throw e;
  }
  for (const [lang, t] of Object.entries(a.texts))
    await q.query('INSERT INTO help_article_texts (article_id, lang, title, body) VALUES ($1, $2, $3, $4)', [
      id,
      lang,
      t.title,
      t.body,
    ]);
  const [after] = await adminArticles(q, [id]);
  return { before, after: after! };
}

export async function deleteArticle(q: Queryable, id: number): Promise<AdminArticle> {
  const [before] = await adminArticles(q, [id]);
  if (!before) throw new AppError('NOT_FOUND', 'support.articleNotFound', {}, 'id');
  await q.query('DELETE FROM help_articles WHERE id = $1', [id]);
  return before;
}

/**
 * The first start's articles. A marker row says they were written, so an article an operator
 * deleted does not come back at the next start, and two processes starting together write them
 * once (the marker's insert decides).
 */
export async function seedArticles(db: Db): Promise<void> {
  await db.tx(async (q) => {
    const [first] = await q.query(
      `INSERT INTO support_settings (key, value) VALUES ('articles_seeded', '1')
       ON CONFLICT (key) DO NOTHING RETURNING key`,
    );
    if (!first) return;
    for (const [sort, s] of SEED_ARTICLES.entries())
      await saveArticle(q, {
        id: null,
        slug: s.slug,
        category: s.category,
        sort,
        published: true,
        texts: s.texts,
      });
  });
}
