import type { AddressInfo } from 'node:net';
import type {
  AdminConversation,
  SupportAck,
  SupportHistory,
  SupportMessage,
  SupportReadEvent,
  SupportTypingEvent,
} from '@verdant/api';
import { type Socket as ClientSocket, io as connectTo } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../http/auth.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin, uploadPng } from '../admin/testing.ts';
import { sweepOperatorSockets } from './sockets.ts';

let h: Harness;
let url: string;
let support: { id: number; token: string; username: string };
const clients: ClientSocket[] = [];

beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  support = await operatorLogin(h, 'support');
});
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});
afterAll(() => h.close());

/** A connected Socket.IO client of a user (default namespace) or an operator (/operators). */
function connect(token: string, opts: { operator?: boolean; lang?: string } = {}): Promise<ClientSocket> {
  const socket = connectTo(`${url}${opts.operator ? '/operators' : ''}`, {
    path: '/socket.io',
    forceNew: true,
    reconnection: false,
    transports: ['websocket'],
    query: { lang: opts.lang ?? 'en' },
    auth: { token },
  });
  clients.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

const next = <T>(socket: ClientSocket, event: string) =>
  new Promise<T>((resolve) => socket.once(event, (payload: T) => resolve(payload)));

/** The next `event` whose payload passes `pass`. */
const nextWhere = <T>(socket: ClientSocket, event: string, pass: (p: T) => boolean) =>
  new Promise<T>((resolve) => {
    const on = (p: T) => {
      if (!pass(p)) return;
      socket.off(event, on);
      resolve(p);
    };
    socket.on(event, on);
  });

const send = (socket: ClientSocket, body: Record<string, string>) =>
  socket.emitWithAck('support:send', body) as Promise<SupportAck>;

async function conversationOf(userId: number): Promise<number> {
  const [c] = await h.app.ctx.db.query<{ id: number }>(
    'SELECT id FROM support_conversations WHERE user_id = $1',
    [userId],
  );
  return c!.id;
}

const reply = (conversationId: number, body: Record<string, string>, token = support.token) =>
  h.call<SupportMessage>(
    'POST',
    'admin/support/reply',
    { conversation_id: String(conversationId), ...body },
    { token },
  );

describe('live chat', () => {
  it('delivers to an online user on every device, and to support live', async () => {
    const u = await registerByEmail(h);
    const phone = await connect(u.token);
    const tablet = await connect(u.token);
    const desk = await connect(support.token, { operator: true });
    const atDesk = next<SupportMessage>(desk, 'support:message');
    const onTablet = next<SupportMessage>(tablet, 'support:message');
    const ack = await send(phone, { text: 'I cannot find my deposit', client_id: 'm1' });
    expect(ack).toMatchObject({
      ok: true,
      message: { sender: 'user', text: 'I cannot find my deposit', read: false },
    });
    expect((await atDesk).text).toBe('I cannot find my deposit');
    expect((await onTablet).client_id).toBe('m1');

    const conversationId = await conversationOf(u.user.id);
    const typing = next<SupportTypingEvent>(phone, 'support:typing');
    desk.emit('support:typing', { conversation_id: conversationId });
    expect(await typing).toEqual({ conversation_id: conversationId, sender: 'support' });

    // the user's read mark reaches support as "read"
    const onPhone = next<SupportMessage>(phone, 'support:message');
    const readBySupport = next<SupportReadEvent>(phone, 'support:read');
    const sent = await reply(conversationId, { text: 'Let me check' });
    // answering read the user's message: the phone can show it as read
    expect(await readBySupport).toEqual({
      conversation_id: conversationId,
      reader: 'support',
      up_to: sent.body.data.id,
    });
    expect(sent.body.data).toMatchObject({ sender: 'support', operator: support.username });
    const live = await onPhone;
    expect(live).toMatchObject({ text: 'Let me check', sender: 'support', operator: null });
    const seen = nextWhere<SupportReadEvent>(desk, 'support:read', (e) => e.reader === 'user');
    expect(await phone.emitWithAck('support:read', { up_to: String(live.id) })).toEqual({
      ok: true,
      unread: 0,
    });
    expect(await seen).toEqual({ conversation_id: conversationId, reader: 'user', up_to: live.id });
    const history = await h.call<SupportHistory>(
      'GET',
      'admin/support/messages',
      { conversation_id: String(conversationId) },
      {
        token: support.token,
      },
    );
    expect(history.body.data.items.map((m) => [m.text, m.read])).toEqual([
      ['Let me check', true],
      ['I cannot find my deposit', true],
    ]);
  });

  it('keeps what support wrote while the user was away, unread until they come back', async () => {
    const u = await registerByEmail(h);
    await h.call('POST', 'support/send', { text: 'Hello?' }, { token: u.token });
    const conversationId = await conversationOf(u.user.id);
    await reply(conversationId, { text: 'Hi, we are here' });
    await reply(conversationId, { text: 'Anything else?' });
    expect((await h.call('GET', 'support/unread', undefined, { token: u.token })).body.data).toEqual({
      unread: 2,
    });
    const back = await connect(u.token);
    const h1 = await h.call<SupportHistory>('GET', 'support/messages', undefined, { token: u.token });
    expect(h1.body.data.items.map((m) => m.text)).toEqual(['Anything else?', 'Hi, we are here', 'Hello?']);
    expect(h1.body.data.unread).toBe(2);
    expect(await back.emitWithAck('support:read', {})).toEqual({ ok: true, unread: 0 });
    // operators' view: the user's message became read when support answered
    const list = await h.call<{ items: AdminConversation[] }>(
      'GET',
      'admin/support/conversations',
      undefined,
      {
        token: support.token,
      },
    );
    expect(list.body.data.items.find((c) => c.id === conversationId)).toMatchObject({
      user_account: u.email,
      unread: 0,
      last_text: 'Anything else?',
      status: 'open',
    });
  });

  it('counts unread for support and pages the history', async () => {
    const u = await registerByEmail(h);
    const phone = await connect(u.token);
    for (let i = 1; i <= 25; i += 1) expect((await send(phone, { text: `m${i}` })).ok).toBe(true);
    const conversationId = await conversationOf(u.user.id);
    const list = await h.call<{ items: AdminConversation[] }>(
      'GET',
      'admin/support/conversations',
      undefined,
      {
        token: support.token,
      },
    );
    expect(list.body.data.items[0]).toMatchObject({ id: conversationId, unread: 25, last_text: 'm25' });
    const first = await h.call<SupportHistory>('GET', 'support/messages', undefined, { token: u.token });
    expect(first.body.data.items).toHaveLength(20);
    expect(first.body.data.has_more).toBe(true);
    const last = first.body.data.items.at(-1)!;
    const second = await h.call<SupportHistory>(
      'GET',
      'support/messages',
      { before: String(last.id) },
      { token: u.token },
    );
    expect(second.body.data.items.map((m) => m.text)).toEqual(['m5', 'm4', 'm3', 'm2', 'm1']);
    expect(second.body.data.has_more).toBe(false);
    const read = await h.call<{ unread: number }>(
      'POST',
      'admin/support/read',
      // read up to m20: m21 to m25 stay unread
      { conversation_id: String(conversationId), up_to: String(first.body.data.items[5]!.id) },
      { token: support.token },
    );
    expect(read.body.data.unread).toBe(5);
  });

  it('carries pictures both ways, and refuses an empty or too long message in the user’s language', async () => {
    const u = await registerByEmail(h);
    const phone = await connect(u.token, { lang: 'th' });
    const name = await uploadPng(h, u.token);
    const ack = await send(phone, { picture: name });
    expect(ack).toMatchObject({ ok: true, message: { picture: name, text: '' } });
    const pic = await h.inject({
      method: 'GET',
      url: `/api/admin/support/picture/${name}`,
      headers: { authorization: support.token },
    });
    expect(pic.statusCode).toBe(200);
    expect(await send(phone, { text: '   ' })).toEqual({ ok: false, error: 'โปรดพิมพ์ข้อความหรือเลือกรูปภาพ' });
    expect(await send(phone, { text: 'x'.repeat(2001) })).toMatchObject({ ok: false });
    const other = await registerByEmail(h);
    expect(await send(phone, { picture: await uploadPng(h, other.token) })).toMatchObject({ ok: false });
    const [n] = await h.app.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM support_messages m JOIN support_conversations c ON c.id = m.conversation_id WHERE c.user_id = $1',
      [u.user.id],
    );
    expect(n!.n).toBe(1);
  });

  it('stores a message sent 20 times at once with one client id once, in one conversation', async () => {
    const u = await registerByEmail(h);
    const phone = await connect(u.token);
    const acks = await Promise.all(
      Array.from({ length: 20 }, () => send(phone, { text: 'same', client_id: 'retry-1' })),
    );
    expect(acks.every((a) => a.ok)).toBe(true);
    expect(new Set(acks.map((a) => (a.ok ? a.message.id : 0))).size).toBe(1);
    const parallel = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        h.call('POST', 'support/send', { text: `p${i}` }, { token: u.token }),
      ),
    );
    expect(parallel.every((r) => r.body.type === 'ok')).toBe(true);
    const [row] = await h.app.ctx.db.query<{ conversations: number; messages: number }>(
      `SELECT count(DISTINCT c.id)::int AS conversations, count(m.id)::int AS messages
         FROM support_conversations c JOIN support_messages m ON m.conversation_id = c.id WHERE c.user_id = $1`,
      [u.user.id],
    );
    expect(row).toEqual({ conversations: 1, messages: 21 });
  });
});

describe('users and operators stay apart', () => {
  it('refuses a user token, a reviewer and no token on the operators’ namespace', async () => {
    const u = await registerByEmail(h);
    const reviewer = await operatorLogin(h, 'reviewer');
    await expect(connect(u.token, { operator: true })).rejects.toThrow();
    await expect(connect(reviewer.token, { operator: true })).rejects.toThrow();
    await expect(connect('', { operator: true })).rejects.toThrow();
    // an operator's token on the users' side is no user: the socket joins no private room
    const asUser = await connect(support.token);
    const view = (await h.app.io.fetchSockets()).find((x) => x.id === asUser.id)!;
    expect(view.data.userId).toBeUndefined();
    expect([...view.rooms]).toEqual([asUser.id]);
  });

  it('lets in only a session signed in all the way, and closes an operator socket once its session ends', async () => {
    const u = await registerByEmail(h);
    // a session at its TOTP step (password known, code not yet given) hears nothing
    const halfway = await operatorLogin(h, 'support');
    await h.app.ctx.db.query("UPDATE operator_sessions SET stage = 'totp' WHERE token_hash = $1", [
      hashToken(halfway.token),
    ]);
    await expect(connect(halfway.token, { operator: true })).rejects.toThrow();

    const leaving = await operatorLogin(h, 'support');
    const staying = await operatorLogin(h, 'support');
    const a = await connect(leaving.token, { operator: true });
    const b = await connect(staying.token, { operator: true });
    const closed = new Promise<string>((resolve) => a.once('disconnect', (reason) => resolve(reason)));
    expect(await h.call('POST', 'admin/logout', {}, { token: leaving.token })).toMatchObject({ status: 200 });
    expect(await sweepOperatorSockets(h.app)).toBe(1);
    expect(await closed).toBe('io server disconnect');
    // the one still signed in keeps hearing the chats
    const heard = next<SupportMessage>(b, 'support:message');
    await h.call('POST', 'support/send', { text: 'still there?' }, { token: u.token });
    expect((await heard).conversation_id).toBe(await conversationOf(u.user.id));
    expect(a.connected).toBe(false);
  });

  it('checks roles on every chat route and writes reply, assign and close to the audit log', async () => {
    const u = await registerByEmail(h);
    const reviewer = await operatorLogin(h, 'reviewer');
    await h.call('POST', 'support/send', { text: 'help' }, { token: u.token });
    const id = String(await conversationOf(u.user.id));
    const routes: [method: 'GET' | 'POST', path: string, body: Record<string, string>][] = [
      ['GET', 'admin/support/conversations', {}],
      ['GET', 'admin/support/messages', { conversation_id: id }],
      ['POST', 'admin/support/reply', { conversation_id: id, text: 'x' }],
      ['POST', 'admin/support/read', { conversation_id: id }],
      ['POST', 'admin/support/assign', { conversation_id: id }],
      ['POST', 'admin/support/close', { conversation_id: id }],
      ['GET', 'admin/support/operators', {}],
      ['GET', 'admin/support/context', { conversation_id: id }],
      ['GET', 'admin/help/feedback', {}],
    ];
    for (const [method, path, body] of routes) {
      expect((await h.call(method, path, body, { token: u.token })).body.code, path).toBe(999);
      expect((await h.call(method, path, body, { token: reviewer.token })).status, path).toBe(403);
    }
    const context = await h.call<{ account: string; verification: string; balances: unknown[] }>(
      'GET',
      'admin/support/context',
      { conversation_id: id },
      { token: support.token },
    );
    expect(context.body.data).toMatchObject({ account: u.email, verification: 'none', balances: [] });
    const admin = await operatorLogin(h, 'admin');
    await reply(Number(id), { text: 'On it' });
    const assigned = await h.call(
      'POST',
      'admin/support/assign',
      { conversation_id: id, operator_id: String(support.id) },
      {
        token: admin.token,
      },
    );
    expect(assigned.body.data).toMatchObject({
      assigned_to: support.id,
      assigned_username: support.username,
    });
    const toReviewer = await h.call(
      'POST',
      'admin/support/assign',
      { conversation_id: id, operator_id: String(reviewer.id) },
      {
        token: admin.token,
      },
    );
    expect(toReviewer.body.field).toBe('operator_id');
    expect(
      (await h.call('POST', 'admin/support/close', { conversation_id: id }, { token: support.token })).body
        .type,
    ).toBe('ok');
    expect(
      (await h.call('POST', 'admin/support/close', { conversation_id: id }, { token: support.token })).status,
    ).toBe(409);
    const audit = await auditRows(h, 'support_conversation', id);
    expect(audit.map((a) => [a.action, a.operator_id])).toEqual([
      ['support.reply', support.id],
      ['support.assign', admin.id],
      ['support.close', support.id],
    ]);
    expect(audit[2]!.before).toMatchObject({ status: 'open' });
    expect(audit[2]!.after).toMatchObject({ status: 'closed', assigned_to: support.id });
    // the user writing again opens it again
    await h.call('POST', 'support/send', { text: 'one more thing' }, { token: u.token });
    const open = await h.call<{ items: AdminConversation[] }>(
      'GET',
      'admin/support/conversations',
      { mine: '1' },
      {
        token: support.token,
      },
    );
    expect(open.body.data.items.map((c) => [c.id, c.status])).toEqual([[Number(id), 'open']]);
  });

  it('answers a missing conversation clearly', async () => {
    const r = await reply(999999, { text: 'x' });
    expect(r.status).toBe(404);
    const none = await h.call('POST', 'admin/support/reply', { text: 'x' }, { token: support.token });
    expect(none.body).toMatchObject({
      type: 'error',
      field: 'conversation_id',
      message: 'Choose a conversation',
    });
  });
});
