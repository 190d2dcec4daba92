import type { AdminNews, MessagePage, MessageUnread, NewsDetail, NewsPage } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin } from '../admin/testing.ts';
import { writeMessage } from './service.ts';

let h: Harness;
let admin: { id: number; token: string };
beforeAll(async () => {
  h = await startHarness();
  admin = await operatorLogin(h, 'admin');
});
afterAll(() => h.close());

const list = (body: Record<string, string> = {}, opts: { token?: string; lang?: 'en' | 'th' | 'ja' } = {}) =>
  h.call<NewsPage>('POST', 'news/list', body, opts);
const detail = (id: number | string, opts: { token?: string; lang?: 'en' | 'th' | 'ja' } = {}) =>
  h.call<NewsDetail>('POST', 'news/detail', { id: String(id) }, opts);
const adminPost = <T>(path: string, body: Record<string, string>, token = admin.token) =>
  h.call<T>('POST', path, body, { token });

/** A published notice written by the admin; answers its id. */
async function published(title: Record<string, string>, body: Record<string, string> = {}) {
  const form: Record<string, string> = {};
  for (const [l, t] of Object.entries(title)) {
    form[`title_${l}`] = t;
    form[`body_${l}`] = body[l] ?? `${t} text`;
  }
  const created = await adminPost<AdminNews>('admin/news/create', form);
  if (created.body.type !== 'ok') throw new Error(created.body.message);
  await adminPost('admin/news/publish', { id: String(created.body.data.id) });
  return created.body.data.id;
}

describe('notices (news/list, news/detail)', () => {
  it('shows the two welcome notices of a fresh install, in the language asked for', async () => {
    const th = await list({}, { lang: 'th' });
    expect(th.body.data.items.map((n) => n.title)).toContain('ยินดีต้อนรับสู่ Verdant');
    const ja = await list({}, { lang: 'ja' });
    expect(ja.body.data.items.map((n) => n.title)).toContain('Verdantへようこそ');
  });

  it('falls back to English for a language the operator did not write', async () => {
    const id = await published(
      { en: 'Maintenance tonight', th: 'ปิดปรับปรุงคืนนี้' },
      { en: 'Line one\nLine two' },
    );
    const ja = await detail(id, { lang: 'ja' });
    expect(ja.body.data).toMatchObject({ id, title: 'Maintenance tonight', body: 'Line one\nLine two' });
    expect((await detail(id, { lang: 'th' })).body.data.title).toBe('ปิดปรับปรุงคืนนี้');
    // newest first: the one just published leads the list
    expect((await list({}, { lang: 'th' })).body.data.items[0]).toMatchObject({ id, title: 'ปิดปรับปรุงคืนนี้' });
  });

  it('pages newest first without repeating or skipping a notice', async () => {
    for (let i = 0; i < 3; i++) await published({ en: `Paged ${i}` });
    const all = (await list({ limit: '100' })).body.data;
    const p1 = (await list({ page: '1', limit: '2' })).body.data;
    const p2 = (await list({ page: '2', limit: '2' })).body.data;
    expect(p1.total).toBe(all.total);
    expect([...p1.items, ...p2.items].map((n) => n.id)).toEqual(all.items.slice(0, 4).map((n) => n.id));
    expect(p1.items[0]!.title).toBe('Paged 2');
    const bad = await list({ page: '0' });
    expect([bad.status, bad.body.field]).toEqual([400, 'page']);
  });

  it('marks what a logged-in user opened; a visitor sees no marks and no count', async () => {
    const u = await registerByEmail(h);
    const before = (await list({ limit: '100' }, { token: u.token })).body.data;
    expect(before.items.every((n) => !n.read)).toBe(true);
    expect(before.unread).toBe(before.total);
    const id = before.items[0]!.id;
    expect((await detail(id, { token: u.token })).body.data.read).toBe(true);
    await detail(id, { token: u.token });
    const after = (await list({ limit: '100' }, { token: u.token })).body.data;
    expect(after.items.find((n) => n.id === id)!.read).toBe(true);
    expect(after.unread).toBe(before.unread - 1);
    const unread = await h.call<MessageUnread>('POST', 'news/messages/unread', {}, { token: u.token });
    expect(unread.body.data.notices).toBe(before.unread - 1);
    // another user's marks are their own
    const other = await registerByEmail(h);
    expect((await list({ limit: '100' }, { token: other.token })).body.data.unread).toBe(before.total);
    const visitor = (await list()).body.data;
    expect([visitor.unread, visitor.items.some((n) => n.read)]).toEqual([0, false]);
  });

  it('20 parallel opens of one notice by one user: all answer, one read mark', async () => {
    const u = await registerByEmail(h);
    const id = await published({ en: 'Opened at once' });
    const all = await Promise.all(Array.from({ length: 20 }, () => detail(id, { token: u.token })));
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(200));
    const [marks] = await h.app.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM news_reads WHERE user_id = $1 AND news_id = $2',
      [u.user.id, id],
    );
    expect(marks!.n).toBe(1);
  });

  it('answers "not found" for a draft, a deleted or an unknown notice, and asks for a missing id', async () => {
    const draft = await adminPost<AdminNews>('admin/news/create', { title_en: 'Secret', body_en: 'Not yet' });
    const r = await detail(draft.body.data.id, { lang: 'th' });
    expect([r.status, r.body.message]).toEqual([404, 'ไม่พบประกาศนี้หรือถูกนำออกแล้ว']);
    expect((await list({ limit: '100' })).body.data.items.map((n) => n.id)).not.toContain(draft.body.data.id);
    expect((await detail('abc')).status).toBe(404);
    const missing = await h.call('POST', 'news/detail', {});
    expect([missing.status, missing.body.field]).toEqual([400, 'id']);
  });
});

describe('operators write notices (admin/news/*)', () => {
  it('creates a draft, edits, publishes, unpublishes and deletes, each in the audit log', async () => {
    const c = await adminPost<AdminNews>('admin/news/create', {
      kind: 'announcement',
      title_en: 'Fees change',
      body_en: 'From Monday',
      title_th: 'ค่าธรรมเนียมเปลี่ยน',
      body_th: 'ตั้งแต่วันจันทร์',
    });
    expect(c.body.data).toMatchObject({ kind: 'announcement', status: 'draft', published_at: null });
    const id = String(c.body.data.id);
    const e = await adminPost<AdminNews>('admin/news/edit', {
      id,
      title_en: 'Fees change on Monday',
      body_en: 'Details',
    });
    // the form replaces every language: Thai was left out, so it is gone (and falls back to English)
    expect(e.body.data).toMatchObject({ kind: 'notice', title: { en: 'Fees change on Monday' } });
    expect(e.body.data.title.th).toBeUndefined();
    const p = await adminPost<AdminNews>('admin/news/publish', { id });
    expect(p.body.data.status).toBe('published');
    expect((await detail(id, { lang: 'th' })).body.data.title).toBe('Fees change on Monday');
    await adminPost('admin/news/unpublish', { id });
    expect((await detail(id)).status).toBe(404);
    const listed = await h.call<{ items: AdminNews[] }>(
      'GET',
      'admin/news',
      { status: 'draft' },
      { token: admin.token },
    );
    expect(listed.body.data.items.map((n) => n.id)).toContain(Number(id));
    await adminPost('admin/news/delete', { id });
    expect((await adminPost('admin/news/publish', { id })).status).toBe(404);
    const audit = await auditRows(h, 'news', id);
    expect(audit.map((a) => a.action)).toEqual([
      'news.create',
      'news.edit',
      'news.publish',
      'news.unpublish',
      'news.delete',
    ]);
    expect(audit.every((a) => a.operator_id === admin.id)).toBe(true);
    expect(audit[1]!.before).toMatchObject({ title: { en: 'Fees change' } });
    expect(audit[1]!.after).toMatchObject({ title: { en: 'Fees change on Monday' } });
    expect(audit[4]!.after).toBeNull();
  });

  it('refuses half-written notices with the field named, and writes nothing', async () => {
    const before = (
      await h.call<{ total: number }>('GET', 'admin/news', { status: 'all' }, { token: admin.token })
    ).body.data.total;
    const cases: [Record<string, string>, string, string][] = [
      [{ title_th: 'ไทย', body_th: 'ไทย' }, 'The English title and text are required', 'title_en'],
      [{ title_en: 'Hi', body_en: 'x', title_ja: 'やあ' }, 'Write the text for this language too', 'body_ja'],
      [{ title_en: 'x'.repeat(121), body_en: 'x' }, 'The title may have at most 120 characters', 'title_en'],
      [{ title_en: 'Hi', body_en: 'x', kind: 'ad' }, 'The kind must be notice or announcement', 'kind'],
    ];
    for (const [form, message, field] of cases) {
      const r = await adminPost('admin/news/create', form);
      expect([r.status, r.body.message, r.body.field]).toEqual([400, message, field]);
    }
    const after = (
      await h.call<{ total: number }>('GET', 'admin/news', { status: 'all' }, { token: admin.token })
    ).body.data.total;
    expect(after).toBe(before);
  });

  it('needs an operator session (a user token is "not logged in") and the admin role', async () => {
    const u = await registerByEmail(h);
    const reviewer = await operatorLogin(h, 'reviewer');
    const support = await operatorLogin(h, 'support');
    const routes: ['GET' | 'POST', string, Record<string, string>][] = [
      ['GET', 'admin/news', {}],
      ['POST', 'admin/news/create', { title_en: 'x', body_en: 'y' }],
      ['POST', 'admin/news/edit', { id: '1', title_en: 'x', body_en: 'y' }],
      ['POST', 'admin/news/publish', { id: '1' }],
      ['POST', 'admin/news/unpublish', { id: '1' }],
      ['POST', 'admin/news/delete', { id: '1' }],
    ];
    for (const [method, path, body] of routes) {
      const asUser = await h.call(method, path, body, { token: u.token });
      expect([asUser.status, asUser.body.code], path).toEqual([401, 999]);
      for (const op of [reviewer, support]) {
        const r = await h.call(method, path, body, { token: op.token });
        expect(r.status, `${path} as ${op.username}`).toBe(403);
      }
    }
    // the welcome notice is still there: nothing above changed it
    expect((await detail(1)).body.data.title).toBe('Welcome to Verdant');
  });
});

describe('personal messages (news/messages*)', () => {
  async function withMessages(n: number) {
    const u = await registerByEmail(h);
    await h.app.ctx.db.tx(async (q) => {
      for (let i = 1; i <= n; i++)
        await writeMessage(q, u.user.id, 'deposit_passed', { id: i, amount: `${i}.5`, currency_id: 3 });
    });
    return u;
  }
  const messages = (token: string, body: Record<string, string> = {}, lang: 'en' | 'th' = 'en') =>
    h.call<MessagePage>('POST', 'news/messages', body, { token, lang });

  it('lists newest first, paged, rendered in the language of the request', async () => {
    const u = await withMessages(3);
    const p1 = (await messages(u.token, { limit: '2' })).body.data;
    expect(p1).toMatchObject({ total: 3, unread: 3, page: 1, limit: 2 });
    expect(p1.items.map((m) => m.body)).toEqual([
      'Your deposit #3 of 3.5 USDT was approved and credited to your spot account.',
      'Your deposit #2 of 2.5 USDT was approved and credited to your spot account.',
    ]);
    const p2 = (await messages(u.token, { page: '2', limit: '2' }, 'th')).body.data;
    expect(p2.items.map((m) => m.title)).toEqual(['เงินฝากเข้าบัญชีแล้ว']);
    expect(p2.items[0]!.body).toContain('#1 จำนวน 1.5 USDT');
  });

  it('marks one read, then all; the unread count follows; another user cannot touch them', async () => {
    const u = await withMessages(3);
    const other = await registerByEmail(h);
    const [newest] = (await messages(u.token)).body.data.items;
    const notMine = await h.call('POST', 'news/messages/read', { id: newest!.id }, { token: other.token });
    expect(notMine.status).toBe(404);
    expect((await messages(u.token)).body.data.unread).toBe(3);
    const one = await h.call<{ unread: number }>(
      'POST',
      'news/messages/read',
      { id: newest!.id },
      { token: u.token },
    );
    expect(one.body.data.unread).toBe(2);
    const page = (await messages(u.token)).body.data.items;
    expect(page.map((m) => m.read)).toEqual([true, false, false]);
    const all = await h.call<{ unread: number }>(
      'POST',
      'news/messages/read',
      { id: 'all' },
      { token: u.token },
    );
    expect(all.body.data.unread).toBe(0);
    const counts = await h.call<MessageUnread>('POST', 'news/messages/unread', {}, { token: u.token });
    expect(counts.body.data.messages).toBe(0);
    const missing = await h.call('POST', 'news/messages/read', {}, { token: u.token });
    expect([missing.status, missing.body.field]).toEqual([400, 'id']);
  });

  it('needs a login', async () => {
    for (const path of ['news/messages', 'news/messages/unread', 'news/messages/read']) {
      const r = await h.call('POST', path, { id: 'all' });
      expect([r.status, r.body.code], path).toEqual([401, 999]);
    }
  });

  it('a message written in a transaction that rolls back is not kept', async () => {
    const u = await registerByEmail(h);
    await expect(
      h.app.ctx.db.tx(async (q) => {
        await writeMessage(q, u.user.id, 'deposit_passed', { id: 1, amount: '1', currency_id: 3 });
        throw new Error('the event failed');
      }),
    ).rejects.toThrow('the event failed');
    expect((await messages(u.token)).body.data.total).toBe(0);
  });
});
