import type { AdminArticle, CustomerUrlSetting, Feedback, HelpArticle } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, multipart, operatorLogin, png, uploadPng } from '../admin/testing.ts';

let h: Harness;
let admin: { id: number; token: string };
beforeAll(async () => {
  h = await startHarness();
  admin = await operatorLogin(h, 'admin');
});
afterAll(() => h.close());

const articles = (query: Record<string, string>, lang: 'en' | 'th' | 'ja' = 'en') =>
  h.call<HelpArticle[]>('GET', 'help/articles', query, { lang });

describe('common questions', () => {
  it('seeds honest articles on first start, in every category the menu links to', async () => {
    const all = (await articles({})).body.data;
    const slugs = all.map((a) => a.slug);
    expect(slugs).toEqual(
      expect.arrayContaining(['deposits', 'pricing', 'options', 'contact', 'verification']),
    );
    const pricing = await h.call<HelpArticle>('GET', 'help/article', { id: 'pricing' }, { lang: 'en' });
    expect(pricing.body.data).toMatchObject({
      category: 'fees',
      lang: 'en',
      title: 'Pricing and valuation method',
    });
    expect(pricing.body.data.body).toContain('0.1 %');
    const thai = await h.call<HelpArticle>('GET', 'help/article', { id: 'options' }, { lang: 'th' });
    expect(thai.body.data.lang).toBe('th');
    expect(thai.body.data.title).toBe('ออปชันแบบกำหนดเวลาชำระผลอย่างไร');
  });

  it('shows English where the language is missing, and searches the text shown', async () => {
    const texts = { en: { title: 'Lost phone zebra', body: 'Write to support from another device.' } };
    const saved = await h.call<AdminArticle>(
      'POST',
      'admin/help/save',
      { category: 'account', texts: JSON.stringify(texts) },
      { token: admin.token },
    );
    expect(saved.body.type).toBe('ok');
    const inJa = await h.call<HelpArticle>(
      'GET',
      'help/article',
      { id: String(saved.body.data.id) },
      { lang: 'ja' },
    );
    expect(inJa.body.data).toMatchObject({ lang: 'en', title: 'Lost phone zebra' });
    expect((await articles({ q: 'zebra' }, 'ja')).body.data.map((a) => a.id)).toEqual([saved.body.data.id]);
    expect((await articles({ q: 'zebra', category: 'fees' })).body.data).toEqual([]);
    // wildcards are taken literally
    expect((await articles({ q: '%' })).body.data.some((a) => a.title.includes('zebra'))).toBe(false);
    const bad = await articles({ category: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('This category does not exist');
    const missing = await h.call('GET', 'help/article', { id: 'no-such-thing' }, { lang: 'th' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('ไม่มีบทความนี้');
  });

  it('hides an unpublished article and lets an admin delete one, audited', async () => {
    const texts = { en: { title: 'Draft walrus', body: 'Not yet.' }, th: { title: 'ร่าง', body: 'ยัง' } };
    const saved = await h.call<AdminArticle>(
      'POST',
      'admin/help/save',
      { category: 'trading', published: '0', slug: 'draft-walrus', texts: JSON.stringify(texts) },
      { token: admin.token },
    );
    expect(saved.body.data.texts.th).toEqual({ title: 'ร่าง', body: 'ยัง' });
    expect((await h.call('GET', 'help/article', { id: 'draft-walrus' })).status).toBe(404);
    const again = await h.call(
      'POST',
      'admin/help/save',
      { category: 'trading', slug: 'draft-walrus', texts: JSON.stringify(texts) },
      { token: admin.token },
    );
    expect(again.status).toBe(409);
    const del = await h.call(
      'POST',
      'admin/help/delete',
      { id: String(saved.body.data.id) },
      { token: admin.token },
    );
    expect(del.body.type).toBe('ok');
    const audit = await auditRows(h, 'help_article', saved.body.data.id);
    expect(audit.map((a) => a.action)).toEqual(['help.create', 'help.delete']);
    expect(audit[0]!.operator_id).toBe(admin.id);
    expect((audit[1]!.before as AdminArticle).texts.en!.title).toBe('Draft walrus');
  });

  it('refuses an article without English, or with half a language, and writes nothing', async () => {
    const before = (
      await h.call<AdminArticle[]>('GET', 'admin/help/articles', undefined, { token: admin.token })
    ).body.data.length;
    const noEn = await h.call(
      'POST',
      'admin/help/save',
      { category: 'fees', texts: JSON.stringify({ th: { title: 'ก', body: 'ข' } }) },
      { token: admin.token },
    );
    expect(noEn.body).toMatchObject({ type: 'error', field: 'texts.en' });
    const half = await h.call(
      'POST',
      'admin/help/save',
      { category: 'fees', texts: JSON.stringify({ en: { title: 'a', body: 'b' }, ko: { title: 'x' } }) },
      { token: admin.token },
    );
    expect(half.body).toMatchObject({ type: 'error', field: 'texts.ko' });
    const after = (
      await h.call<AdminArticle[]>('GET', 'admin/help/articles', undefined, { token: admin.token })
    ).body.data.length;
    expect(after).toBe(before);
  });

  it('lets only admins edit articles', async () => {
    const u = await registerByEmail(h);
    const support = await operatorLogin(h, 'support');
    const body = { category: 'fees', texts: JSON.stringify({ en: { title: 'x', body: 'y' } }) };
    expect((await h.call('POST', 'admin/help/save', body, { token: u.token })).body.code).toBe(999);
    expect((await h.call('POST', 'admin/help/save', body, { token: support.token })).status).toBe(403);
    expect((await h.call('GET', 'admin/help/articles', undefined, { token: support.token })).status).toBe(
      403,
    );
  });
});

describe('feedback', () => {
  it('takes text and pictures of the user’s own', async () => {
    const u = await registerByEmail(h);
    const a = await uploadPng(h, u.token);
    const b = await uploadPng(h, u.token);
    const r = await h.call<Feedback>(
      'POST',
      'help/feedback',
      { content: '  The chart is slow  ', pictures: `${a},${b}` },
      { token: u.token },
    );
    expect(r.body.type).toBe('ok');
    expect(r.body.message).toBe('Thank you, your feedback was sent');
    expect(r.body.data).toMatchObject({ content: 'The chart is slow', pictures: [a, b] });
    const support = await operatorLogin(h, 'support');
    const list = await h.call<{ items: { id: number; user_account: string; pictures: string[] }[] }>(
      'GET',
      'admin/help/feedback',
      undefined,
      { token: support.token },
    );
    expect(list.body.data.items[0]).toMatchObject({
      id: r.body.data.id,
      user_account: u.email,
      pictures: [a, b],
    });
    // support sees a feedback picture, but not the rest of a user's uploads
    const pic = await h.inject({
      method: 'GET',
      url: `/api/admin/support/picture/${a}`,
      headers: { authorization: support.token },
    });
    expect(pic.statusCode).toBe(200);
    expect(pic.headers['content-type']).toBe('image/png');
    const other = await uploadPng(h, u.token);
    const hidden = await h.inject({
      method: 'GET',
      url: `/api/admin/support/picture/${other}`,
      headers: { authorization: support.token },
    });
    expect(hidden.statusCode).toBe(404);
  });

  it('refuses empty text, too many pictures, someone else’s picture, and a visitor', async () => {
    const u = await registerByEmail(h);
    const other = await registerByEmail(h);
    const theirs = await uploadPng(h, other.token);
    const empty = await h.call('POST', 'help/feedback', { content: '   ' }, { token: u.token, lang: 'th' });
    expect(empty.body).toMatchObject({
      type: 'error',
      field: 'content',
      message: 'โปรดบอกเราว่าคุณต้องการแจ้งอะไร',
    });
    const long = await h.call('POST', 'help/feedback', { content: 'x'.repeat(2001) }, { token: u.token });
    expect(long.body.field).toBe('content');
    const names = await Promise.all([1, 2, 3, 4].map(() => uploadPng(h, u.token)));
    const many = await h.call(
      'POST',
      'help/feedback',
      { content: 'hi', pictures: names.join(',') },
      { token: u.token },
    );
    expect(many.body).toMatchObject({ type: 'error', field: 'pictures' });
    const stolen = await h.call(
      'POST',
      'help/feedback',
      { content: 'hi', pictures: theirs },
      { token: u.token },
    );
    expect(stolen.body).toMatchObject({ type: 'error', field: 'pictures' });
    expect((await h.call('POST', 'help/feedback', { content: 'hi' })).body.code).toBe(999);
    const [n] = await h.app.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM support_feedback WHERE user_id = $1',
      [u.user.id],
    );
    expect(n!.n).toBe(0);
  });
});

describe('customer-service address', () => {
  it('is the chat until an admin sets an external address, audited; empty goes back', async () => {
    const url = async () => (await h.call<{ url: string }>('POST', 'set/get_customer_url')).body.data.url;
    expect(await url()).toBe('#/pages/help-center/chat');
    const set = await h.call<CustomerUrlSetting>(
      'POST',
      'admin/support/customer_url',
      { url: 'https://help.example.com/chat' },
      { token: admin.token },
    );
    expect(set.body.data).toEqual({
      url: 'https://help.example.com/chat',
      external: 'https://help.example.com/chat',
    });
    expect(await url()).toBe('https://help.example.com/chat');
    const bad = await h.call(
      'POST',
      'admin/support/customer_url',
      { url: 'javascript:alert(1)' },
      { token: admin.token },
    );
    expect(bad.body).toMatchObject({
      type: 'error',
      field: 'url',
      message: 'Enter an address starting with https://',
    });
    const plain = await h.call(
      'POST',
      'admin/support/customer_url',
      { url: 'http://help.example.com' },
      { token: admin.token },
    );
    expect(plain.body.type).toBe('error');
    await h.call('POST', 'admin/support/customer_url', { url: '' }, { token: admin.token });
    expect(await url()).toBe('#/pages/help-center/chat');
    const audit = await auditRows(h, 'setting', 'customer_url');
    expect(audit.map((a) => [a.action, a.after])).toEqual([
      ['support.customer_url', { url: 'https://help.example.com/chat' }],
      ['support.customer_url', { url: null }],
    ]);
  });

  it('is an admin’s to change', async () => {
    const u = await registerByEmail(h);
    const support = await operatorLogin(h, 'support');
    const body = { url: 'https://x.example.com' };
    expect((await h.call('POST', 'admin/support/customer_url', body, { token: u.token })).body.code).toBe(
      999,
    );
    expect((await h.call('POST', 'admin/support/customer_url', body, { token: support.token })).status).toBe(
      403,
    );
    expect(
      (await h.call('GET', 'admin/support/customer_url', undefined, { token: support.token })).status,
    ).toBe(403);
  });
});

describe('pictures for support replies', () => {
  it('refuses a picture too large or of the wrong type, in the user’s language', async () => {
    const u = await registerByEmail(h);
    const support = await operatorLogin(h, 'support');
    await h.call('POST', 'support/send', { text: 'hello' }, { token: u.token });
    const [c] = await h.app.ctx.db.query<{ id: number }>(
      'SELECT id FROM support_conversations WHERE user_id = $1',
      [u.user.id],
    );
    const send = (data: Buffer, lang = 'en') => {
      const { payload, contentType } = multipart({}, { name: 'file', data });
      return h.inject({
        method: 'POST',
        url: `/api/admin/support/upload?conversation_id=${c!.id}`,
        headers: { 'content-type': contentType, authorization: support.token, lang },
        payload,
      });
    };
    const gif = await send(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'));
    expect(gif.statusCode).toBe(415);
    const big = await send(Buffer.concat([png(), Buffer.alloc(h.config.uploadMaxBytes + 10)]), 'th');
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toMatch(/\S/);
    const good = await send(png('ok'));
    expect(good.statusCode).toBe(200);
    // stored as the user's upload: the user opens it with their own session
    const name = good.json().data.name as string;
    const mine = await h.inject({
      method: 'GET',
      url: `/api/upload/${name}`,
      headers: { authorization: u.token },
    });
    expect(mine.statusCode).toBe(200);
  });
});
