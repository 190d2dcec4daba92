import {
  type AdminArticle,
  type AdminArticleBody,
  type AdminFeedback,
  CUSTOMER_URL_MAX,
  type CustomerUrlSetting,
  FEEDBACK_PICTURES_MAX,
  type Feedback,
  type FeedbackBody,
  SUPPORT_TEXT_MAX,
} from '@verdant/api';
import type { AppContext } from '../../context.ts';
import { type PageInput, parsePaging } from '../../db/paging.ts';
import { invalid } from '../../http/errors.ts';
import { type OperatorSession, parseId, writeAudit } from '../admin/service.ts';
import { uploadsService } from '../uploads/service.ts';
import { userAccounts } from '../user/service.ts';
import { adminArticles, deleteArticle, parseArticle, saveArticle } from './articles.ts';

/** One page of a list, as the operator API answers it (packages/api `Paged`). */
export type Page<T> = { items: T[]; total: number; page: number; limit: number };

/**
 * The help centre's content: users' feedback, the articles operators edit, and where "online
 * service" leads. The chat itself is in service.ts.
 */
export function contentService(ctx: AppContext) {
  const { db } = ctx;
  const uploads = uploadsService(ctx);

  async function customerUrlSetting(): Promise<CustomerUrlSetting> {
    const [row] = await db.query<{ value: string }>(
      "SELECT value FROM support_settings WHERE key = 'customer_url'",
    );
    return { url: row?.value ?? ctx.config.customerServiceUrl, external: row?.value ?? null };
  }

  return {
    async feedback(userId: number, body: FeedbackBody): Promise<Feedback> {
      const content = (body.content ?? '').replace(/\r\n/g, '\n').trim();
      if (!content) throw invalid('support.feedbackRequired', 'content');
      if ([...content].length > SUPPORT_TEXT_MAX)
        throw invalid('support.feedbackTooLong', 'content', { max: SUPPORT_TEXT_MAX });
      const names = [
        ...new Set(
          (body.pictures ?? '')
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      if (names.length > FEEDBACK_PICTURES_MAX)
        throw invalid('support.feedbackPictures', 'pictures', { max: FEEDBACK_PICTURES_MAX });
      for (const n of names) await uploads.assertOwned(userId, n, 'pictures');
      return db.tx(async (q) => {
        const [row] = await q.query<{ id: number; created_at: Date }>(
          'INSERT INTO support_feedback (user_id, content) VALUES ($1, $2) RETURNING id, created_at',
          [userId, content],
        );
        for (const [i, n] of names.entries())
          await q.query(
            'INSERT INTO support_feedback_pictures (feedback_id, position, picture) VALUES ($1, $2, $3)',
            [row!.id, i, n],
          );
        return { id: row!.id, content, pictures: names, created_at: row!.created_at.toISOString() };
      });
    },

    async feedbackList(query: PageInput): Promise<Page<AdminFeedback>> {
      const p = parsePaging(query);
      const [count] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM support_feedback');
      const rows = await db.query<{
        id: number;
        user_id: number;
        content: string;
        created_at: Date;
        pictures: string[];
      }>(
        `SELECT f.id, f.user_id, f.content, f.created_at,
                coalesce((SELECT array_agg(p.picture ORDER BY p.position) FROM support_feedback_pictures p
                           WHERE p.feedback_id = f.id), '{}') AS pictures
           FROM support_feedback f ORDER BY f.id DESC LIMIT $1 OFFSET $2`,
        [p.limit, p.offset],
      );
      const accounts = await userAccounts(
        db,
        rows.map((r) => r.user_id),
      );
      return {
        items: rows.map((r) => ({
          ...r,
          user_account: accounts.get(r.user_id) ?? '',
          created_at: r.created_at.toISOString(),
        })),
        total: count?.n ?? 0,
        page: p.page,
        limit: p.limit,
      };
    },

    adminArticles: (): Promise<AdminArticle[]> => adminArticles(db),

    async saveArticle(op: OperatorSession, ip: string, body: AdminArticleBody): Promise<AdminArticle> {
      const input = parseArticle(body);
      return db.tx(async (q) => {
        const { before, after } = await saveArticle(q, input);
        await writeAudit(q, {
          operatorId: op.id,
          action: before ? 'help.update' : 'help.create',
          targetType: 'help_article',
          targetId: after.id,
          before,
          after,
          ip,
        });
        return after;
      });
    },

    async deleteArticle(op: OperatorSession, ip: string, idInput: string | undefined): Promise<null> {
      const id = parseId(idInput, 'id', 'support.articleRequired');
      await db.tx(async (q) => {
        const before = await deleteArticle(q, id);
        await writeAudit(q, {
          operatorId: op.id,
          action: 'help.delete',
          targetType: 'help_article',
          targetId: id,
          before,
          after: null,
          ip,
        });
      });
      return null;
    },

    /** Where "online service" leads: the operator's external address, else the built-in chat. */
    customerUrl: customerUrlSetting,

    async setCustomerUrl(
      op: OperatorSession,
      ip: string,
      input: string | undefined,
    ): Promise<CustomerUrlSetting> {
      const url = (input ?? '').trim();
      if (url) {
        if ([...url].length > CUSTOMER_URL_MAX)
          throw invalid('support.urlTooLong', 'url', { max: CUSTOMER_URL_MAX });
        let parsed: URL | null = null;
        try {
          parsed = new URL(url);
        } catch {}
        // only an encrypted web address: the app opens it as it is, outside itself
        if (parsed?.protocol !== 'https:' || !parsed.hostname) throw invalid('support.urlInvalid', 'url');
      }
      await db.tx(async (q) => {
        const before = await q.query<{ value: string }>(
          "SELECT value FROM support_settings WHERE key = 'customer_url' FOR UPDATE",
        );
        if (url)
          await q.query(
            `INSERT INTO support_settings (key, value, updated_by) VALUES ('customer_url', $1, $2)
             ON CONFLICT (key) DO UPDATE SET value = $1, updated_by = $2, updated_at = now()`,
            [url, op.id],
          );
        else await q.query("DELETE FROM support_settings WHERE key = 'customer_url'");
        await writeAudit(q, {
          operatorId: op.id,
          action: 'support.customer_url',
          targetType: 'setting',
          targetId: 'customer_url',
          before: { url: before[0]?.value ?? null },
          after: { url: url || null },
          ip,
        });
      });
      return customerUrlSetting();
    },
  };
}
