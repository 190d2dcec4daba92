import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart, operatorLogin, png } from '../modules/admin/testing.ts';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';

let h: Harness;
let userToken: string;
let operatorToken: string;
beforeAll(async () => {
  h = await startHarness({}, (app: FastifyInstance) => {
    // a route with one free-text field, as a support chat would have (none exists yet)
    app.post(
      '/api/test/message',
      {
        config: { multilineFields: ['content'] },
        schema: { summary: 'test only', hide: true },
      },
      async (req) => ({ type: 'ok', code: 1, message: 'ok', data: req.body }),
    );
  });
  userToken = (await registerByEmail(h)).token;
  operatorToken = (await operatorLogin(h, 'admin')).token;
});
afterAll(() => h.close());

const EN_MESSAGE = (field: string) => `${field} contains a character that is not allowed`;

interface Schema {
  type?: string;
  format?: string;
  properties?: Record<string, Schema>;
}
interface Parameter {
  in: string;
  name: string;
  schema?: Schema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema?: Schema }> };
}
type Doc = { paths: Record<string, Record<string, Operation>> };

/**
 * Every table's rows, hashed: equal before and after means nothing was written. A session's
 * last_seen_at is left out: a request that passed the check (the multipart probes) may touch it.
 */
async function databaseFingerprint(): Promise<Record<string, string>> {
  const db = h.app.ctx.db;
  const tables = await db.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const out: Record<string, string> = {};
  for (const { table_name } of tables) {
    const [row] = await db.query<{ h: string | null }>(
      `SELECT md5(string_agg((to_jsonb(t) - 'last_seen_at')::text, '|' ORDER BY (to_jsonb(t) - 'last_seen_at')::text)) AS h
         FROM "${table_name}" t`,
    );
    out[table_name] = row?.h ?? 'empty';
  }
  return out;
}

/** One field of one operation, sent with a NUL byte; every other string field gets "1". */
interface Probe {
  method: string;
  path: string;
  where: 'query' | 'path' | 'form' | 'json' | 'multipart';
  field: string;
}

function probes(doc: Doc): Probe[] {
  const out: Probe[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      for (const p of op.parameters ?? []) {
        if ((p.in === 'query' || p.in === 'path') && p.schema?.type === 'string')
          out.push({ method, path, where: p.in, field: p.name });
      }
      const content = op.requestBody?.content ?? {};
      for (const [type, where] of [
        ['application/x-www-form-urlencoded', 'form'],
        ['application/json', 'json'],
        ['multipart/form-data', 'multipart'],
      ] as const) {
        for (const [field, s] of Object.entries(content[type]?.schema?.properties ?? {})) {
          if (s.type === 'string') out.push({ method, path, where, field });
        }
      }
    }
  }
  return out;
}

function siblings(doc: Doc, probe: Probe, where: 'query' | 'path' | 'body'): Record<string, string> {
  const op = doc.paths[probe.path]?.[probe.method];
  const names =
    where === 'body'
      ? Object.entries(
          op?.requestBody?.content['application/x-www-form-urlencoded']?.schema?.properties ?? {},
        )
          .filter(([, s]) => s.type === 'string')
          .map(([n]) => n)
      : (op?.parameters ?? [])
          .filter((p) => p.in === where && p.schema?.type === 'string')
          .map((p) => p.name);
  return Object.fromEntries(names.map((n) => [n, '1']));
}

async function sendProbe(doc: Doc, probe: Probe, value: string) {
  const headers: Record<string, string> = {
    lang: 'en',
    authorization: probe.path.startsWith('/api/admin/') ? operatorToken : userToken,
  };
  const pathValues = siblings(doc, probe, 'path');
  const query = probe.where === 'query' ? { ...siblings(doc, probe, 'query'), [probe.field]: value } : {};
  if (probe.where === 'path') pathValues[probe.field] = value;
  const url =
    probe.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(pathValues[n] ?? '1')) +
    (Object.keys(query).length ? `?${new URLSearchParams(query)}` : '');
  const body = { ...siblings(doc, probe, 'body'), [probe.field]: value };
  let payload: string | Buffer | undefined;
  if (probe.where === 'form' || probe.where === 'query' || probe.where === 'path') {
    if (probe.method !== 'get') {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(probe.where === 'form' ? body : siblings(doc, probe, 'body')).toString();
    }
  } else if (probe.where === 'json') {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  } else {
    // a picture's bytes may hold NUL: the file part is sent as a text part holding one
    const m = multipart({ [probe.field]: value });
    headers['content-type'] = m.contentType;
    payload = m.payload;
  }
  const res = await h.inject({
    method: probe.method.toUpperCase() as 'GET',
    url,
    headers,
    ...(payload !== undefined ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> };
}

describe('control characters in what the client sends', () => {
  it('a NUL byte in every string field of every documented operation: 400 in the envelope naming the field, nothing written', async () => {
    const doc = (await h.inject({ method: 'GET', url: '/api/docs/json' })).json() as Doc;
    const all = probes(doc);
    // every kind of input is covered, and the operations the issue names among them
    expect(all.length).toBeGreaterThan(100);
    for (const where of ['query', 'path', 'form', 'json', 'multipart']) {
      expect(
        all.some((p) => p.where === where),
        where,
      ).toBe(true);
    }
    for (const [path, field] of [
      ['/api/user/login', 'account'],
      ['/api/user/check_email', 'email'],
      ['/api/sms_mail', 'email'],
      ['/api/user/register', 'invite_code'],
      ['/api/user/forget', 'code'],
      ['/api/admin/login', 'username'],
      ['/api/admin/deposits/reject', 'reason'],
      ['/api/admin/users', 'q'],
    ]) {
      expect(
        all.some((p) => p.path === path && p.field === field),
        `${path} ${field}`,
      ).toBe(true);
    }

    const before = await databaseFingerprint();
    const wrong: string[] = [];
    for (const probe of all) {
      const res = await sendProbe(doc, probe, 'a\u0000b');
      const where = `${probe.method.toUpperCase()} ${probe.path} ${probe.where}:${probe.field} → ${res.status} ${JSON.stringify(res.body)}`;
      if (probe.where === 'multipart') {
        // no picture in it: refused as a request without a file, in the envelope
        if (res.status < 400 || res.status >= 500 || res.body.type !== 'error') wrong.push(where);
        continue;
      }
      if (
        res.status !== 400 ||
        res.body.type !== 'error' ||
        res.body.code !== 1400 ||
        res.body.field !== probe.field ||
        res.body.message !== EN_MESSAGE(probe.field)
      )
        wrong.push(where);
    }
    expect(wrong).toEqual([]);
    expect(await databaseFingerprint()).toEqual(before);
  });

  it('other control characters too, also with no session and in the default language', async () => {
    for (const ch of [
      '\u0001',
      '\u0008',
      '\t',
      '\n',
      '\r',
      '\u001b',
      '\u001f',
      '\u007f',
      '\u0085',
      '\u009f',
    ]) {
      const res = await h.inject({
        method: 'POST',
        url: '/api/user/check_email',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: `a${ch}b@example.com` }),
      });
      expect(res.statusCode, JSON.stringify(ch)).toBe(400);
      expect(res.json(), JSON.stringify(ch)).toEqual({
        type: 'error',
        code: 1400,
        field: 'email',
        message: 'email มีอักขระที่ไม่อนุญาต',
      });
    }
  });

  it('nested JSON, array values and field names are checked as well', async () => {
    for (const payload of [
      { account: ['x', 'a\u0000'] },
      { account: { deep: [{ er: 'a\u0000' }] } },
      { 'acc\u0000ount': 'x' },
    ]) {
      const res = await h.inject({
        method: 'POST',
        url: '/api/user/login',
        headers: { 'content-type': 'application/json', lang: 'en' },
        payload: JSON.stringify(payload),
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect((res.json() as { code: number }).code).toBe(1400);
    }
  });

  it('ordinary text in any script is not mistaken for a control character', async () => {
    const res = await h.call<{ nickname?: string }>(
      'POST',
      'user/nickname',
      { nickname: 'สมชาย 李雷 Zoë 😀' },
      { token: userToken },
    );
    expect(res.body.type).toBe('ok');
    const center = await h.call<{ nickname: string }>('GET', 'user/center', undefined, { token: userToken });
    expect(center.body.data.nickname).toBe('สมชาย 李雷 Zoë 😀');
  });

  it('a free-text field may hold line breaks and tabs, never other control characters', async () => {
    const send = (content: string, subject = 'x') =>
      h.inject({
        method: 'POST',
        url: '/api/test/message',
        headers: { 'content-type': 'application/json', lang: 'en' },
        payload: JSON.stringify({ content, subject }),
      });
    expect((await send('line one\r\nline two\tend')).statusCode).toBe(200);
    expect((await send('a\u0000b')).statusCode).toBe(400);
    expect((await send('a\u001bb')).statusCode).toBe(400);
    // other fields of that route stay single-line
    const other = await send('fine', 'two\nlines');
    expect(other.statusCode).toBe(400);
    expect(other.json()).toMatchObject({ field: 'subject', message: EN_MESSAGE('subject') });
  });

  it("a bank card's addresses, typed in several-row boxes, may hold line breaks; its other fields not", async () => {
    const card = {
      name: 'Somchai Jaidee',
      card_number: '1234 5678 9012',
      bank_name: 'Westminster Bank',
      bank_address: '1 High Street\nLondon',
      swift: 'natagb2l',
      holder_name: 'SOMCHAI JAIDEE',
      iban: 'GB82 WEST 1234 5698 7654 32',
      beneficiary_address: '99 Sukhumvit Road\r\nBangkok',
      postal_code: '10110',
    };
    const saved = await h.call<{ bank_address: string; beneficiary_address: string }>(
      'POST',
      'user/cash_save',
      card,
      {
        token: userToken,
      },
    );
    expect(saved.body.type, saved.body.message).toBe('ok');
    expect(saved.body.data).toMatchObject({
      bank_address: '1 High Street London',
      beneficiary_address: '99 Sukhumvit Road Bangkok',
    });
    const refused = await h.call(
      'POST',
      'user/cash_save',
      { ...card, bank_name: 'Westminster\nBank' },
      {
        token: userToken,
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ field: 'bank_name', message: EN_MESSAGE('bank_name') });
  });

  it('an uploaded picture whose file name holds control characters is stored under our own name', async () => {
    const m = multipart({}, { name: 'file', data: png('nul') });
    const payload = Buffer.from(
      m.payload.toString('latin1').replace('photo.png', 'ph\u0000o\u001b.png'),
      'latin1',
    );
    const res = await h.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { 'content-type': m.contentType, authorization: userToken, lang: 'en' },
      payload,
    });
    expect(res.statusCode).toBe(200);
    const name = (res.json() as { data: { name: string } }).data.name;
    expect(name).toMatch(/^[\w.-]+$/);
  });

  it('control characters in the lang or Authorization header: refused by the HTTP parser, in the envelope', async () => {
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = h.app.server.address() as import('node:net').AddressInfo;
    for (const header of ['lang: e\u0000n', `authorization: ${userToken}\u0000`, 'lang: e\u0001n']) {
      const raw = await new Promise<string>((resolve, reject) => {
        const chunks: Buffer[] = [];
        const socket = connect({ port, host: '127.0.0.1' }, () =>
          socket.write(
            `GET /api/user/center HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}\r\nConnection: close\r\n\r\n`,
          ),
        );
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      expect(raw, JSON.stringify(header)).toMatch(/^HTTP\/1\.1 400 /);
      const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;
      expect(body).toMatchObject({ type: 'error', code: 1400 });
    }
  });
});
