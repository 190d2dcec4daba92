import { connect } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';

/** Routes whose body is a picture: multipart only. */
const UPLOADS = ['/api/upload', '/api/admin/support/upload'];

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const EN_MALFORMED = 'The request could not be read. Please check what you entered';
const TH_MALFORMED = 'ไม่สามารถอ่านคำขอได้ กรุณาตรวจสอบข้อมูลที่กรอก';

/** The answer as a client sees it: status, content type and the parsed envelope. */
async function send(opts: InjectOptions) {
  const res = await h.inject(opts);
  return {
    status: res.statusCode,
    contentType: String(res.headers['content-type']),
    body: res.json() as Record<string, unknown>,
  };
}

/** A failure envelope: exactly type, code and message (and a field name when one is at fault). */
function expectErrorEnvelope(body: Record<string, unknown>, message?: string) {
  expect(body.type).toBe('error');
  expect(typeof body.code).toBe('number');
  expect(typeof body.message).toBe('string');
  expect((body.message as string).length).toBeGreaterThan(0);
  if (message !== undefined) expect(body.message).toBe(message);
  expect(Object.keys(body).filter((k) => !['type', 'code', 'message', 'field'].includes(k))).toEqual([]);
}

/** One raw HTTP/1.1 exchange over TCP: everything the server wrote before closing. */
function rawHttp(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(request));
    socket.on('data', (c: Buffer) => chunks.push(c));
    // the server may close while we still write the rest of an oversized request
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

function parseRaw(raw: string) {
  const [head = '', body = ''] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('framework-level failures answer in the envelope, never a 5xx', () => {
  it('malformed JSON: 400 code 1400, in English when asked, in Thai by default', async () => {
    const en = await send({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json', lang: 'en' },
      payload: '{bad',
    });
    expect(en.status).toBe(400);
    expect(en.contentType).toMatch(/^application\/json/);
    expect(en.body).toEqual({ type: 'error', code: 1400, message: EN_MALFORMED });

    const th = await send({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json' },
      payload: '{bad',
    });
    expect(th.status).toBe(400);
    expect(th.body).toEqual({ type: 'error', code: 1400, message: TH_MALFORMED });
  });

  it('a JSON body that is not an object is refused with a readable message, not a blank field name', async () => {
    for (const payload of ['null', '[1,2]', '"text"', '42']) {
      const res = await send({
        method: 'POST',
        url: '/api/user/login',
        headers: { 'content-type': 'application/json', lang: 'en' },
        payload,
      });
      expect(res.status, payload).toBe(400);
      expectErrorEnvelope(res.body, EN_MALFORMED);
    }
  });

  it('bad percent-encoding in the path: 400', async () => {
    const res = await send({ method: 'GET', url: '/api/%E0%A4%A', headers: { lang: 'en' } });
    expect(res.status).toBe(400);
    expectErrorEnvelope(res.body, 'The address of the request is not valid');
    expect(res.body.code).toBe(1400);
  });

  it('a URL longer than 8192 characters: 414', async () => {
    const res = await send({
      method: 'GET',
      url: `/api/user/center?q=${'a'.repeat(8200)}`,
      headers: { lang: 'en' },
    });
    expect(res.status).toBe(414);
    expectErrorEnvelope(res.body, 'The address of the request is too long');
  });

  it('over a real connection: 414 from us up to the parser limit, 431 in the envelope beyond it', async () => {
    const app = h.app;
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as import('node:net').AddressInfo;

    const long = parseRaw(
      await rawHttp(
        port,
        `GET /api/user/center?q=${'a'.repeat(9000)} HTTP/1.1\r\nHost: 127.0.0.1\r\nlang: en\r\nConnection: close\r\n\r\n`,
      ),
    );
    expect(long.status).toBe(414);
    expectErrorEnvelope(JSON.parse(long.body), 'The address of the request is too long');

    // 70 KB is past Node's header limit: the HTTP parser refuses it before Fastify runs
    const huge = parseRaw(
      await rawHttp(
        port,
        `GET /api/user/center?q=${'a'.repeat(70 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      ),
    );
    expect(huge.status).toBe(431);
    expect(huge.headers['content-type']).toMatch(/^application\/json/);
    const body = JSON.parse(huge.body) as Record<string, unknown>;
    expectErrorEnvelope(body, 'ที่อยู่ของคำขอยาวเกินไป');
    expect(body.code).toBe(1400);

    // the server is still answering afterwards
    const after = parseRaw(
      await rawHttp(
        port,
        'GET /api/nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nlang: en\r\nConnection: close\r\n\r\n',
      ),
    );
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body)).toEqual({ type: 'error', code: 1404, message: 'Not found' });
  });

  it('multipart without a boundary, or with a broken body: 400, not 500', async () => {
    const { token } = await registerByEmail(h);
    const cases: [string, string][] = [
      ['multipart/form-data', 'hello'],
      ['multipart/form-data; boundary=', 'hello'],
      ['multipart/form-data; boundary=xyz', 'not multipart at all'],
      [
        'multipart/form-data; boundary=xyz',
        '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
      ],
    ];
    for (const [contentType, payload] of cases) {
      const res = await send({
        method: 'POST',
        url: '/api/upload',
        headers: { 'content-type': contentType, authorization: token, lang: 'en' },
        payload,
      });
      expect(res.status, `${contentType} ${payload}`).toBe(400);
      expectErrorEnvelope(res.body, EN_MALFORMED);
    }
  });

  it('a form body over the 1 MiB limit: 413', async () => {
    const res = await send({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
      payload: `account=a%40b.co&password=${'x'.repeat(1024 * 1024)}`,
    });
    expect(res.status).toBe(413);
    expectErrorEnvelope(res.body, 'The request is too large');
  });

  it('a content type the API does not read (plain text, XML): 415', async () => {
    for (const contentType of ['text/plain', 'application/xml']) {
      const res = await send({
        method: 'POST',
        url: '/api/user/login',
        headers: { 'content-type': contentType, lang: 'en' },
        payload: 'account=a@b.co&password=secret123',
      });
      expect(res.status, contentType).toBe(415);
      expectErrorEnvelope(res.body, 'This kind of content is not accepted');
    }
  });

  it('an unknown path under /api: 404 in the user language', async () => {
    const res = await send({ method: 'GET', url: '/api/no/such/thing', headers: { lang: 'ko' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ type: 'error', code: 1404, message: '찾을 수 없습니다' });
    const post = await send({ method: 'POST', url: '/api/user/nope', headers: { lang: 'en' } });
    expect(post.body).toEqual({ type: 'error', code: 1404, message: 'Not found' });
  });
});

describe('request bodies', () => {
  it('form-encoded and JSON reach the same route with the same meaning', async () => {
    const u = await registerByEmail(h);
    const form = await send({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', lang: 'en' },
      payload: new URLSearchParams({ account: u.email, password: 'wrong-one' }).toString(),
    });
    const json = await send({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json', lang: 'en' },
      payload: JSON.stringify({ account: u.email, password: 'wrong-one' }),
    });
    expect(form.status).toBe(400);
    expect(json.status).toBe(400);
    expect(form.body.message).toBe('Wrong account or password');
    expect(json.body).toEqual(form.body);

    const ok = await send({
      method: 'POST',
      url: '/api/user/login',
      headers: { 'content-type': 'application/json', lang: 'en' },
      payload: JSON.stringify({ account: u.email, password: u.password }),
    });
    expect(ok.body).toMatchObject({ type: 'ok', code: 1, message: 'Login success' });
  });
});

describe('an unexpected failure inside a handler', () => {
  let broken: Harness;
  beforeAll(async () => {
    broken = await startHarness({}, (app: FastifyInstance) => {
      app.get('/api/test/boom', { schema: { summary: 'always fails (test only)' } }, async () => {
        throw new Error('connection to db-internal.example:5432 refused; password=hunter2');
      });
    });
  });
  afterAll(() => broken.close());

  it('answers 500 with the generic localized message and nothing internal', async () => {
    for (const [lang, message] of [
      ['en', 'Something went wrong on our side. Please try again later'],
      ['th', 'เกิดข้อผิดพลาดในระบบ กรุณาลองใหม่ภายหลัง'],
    ]) {
      const res = await broken.inject({ method: 'GET', url: '/api/test/boom', headers: { lang } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ type: 'error', code: 1500, message });
      expect(res.body).not.toMatch(/hunter2|db-internal|stack|Error/);
    }
  });
});

/** Every route of the router as `METHOD /path`, read back from Fastify's own route tree. */
function registeredRoutes(app: FastifyInstance): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([^)]*)\))?$/u.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(m[2] ?? '');
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method !== 'HEAD') out.push(`${method} ${stack.join('')}`);
    }
  }
  return out;
}

describe('OpenAPI document', () => {
  interface Operation {
    summary?: string;
    tags?: string[];
    requestBody?: { content: Record<string, unknown> };
    security?: Record<string, string[]>[];
    parameters?: Record<string, unknown>[];
    responses?: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  }
  let doc: {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
    components: Record<string, Record<string, Record<string, unknown>>>;
  };
  /** The component a `#/components/<kind>/<name>` reference points at. */
  const resolve = (ref: string | undefined) => {
    const [, , kind = '', name = ''] = (ref ?? '').split('/');
    return doc.components[kind]?.[name] as Record<string, unknown> | undefined;
  };
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ method, path, op })),
    );
  const requiresSession = (op: Operation) =>
    !!op.security?.length && op.security.every((s) => Array.isArray(s.session));
  beforeAll(async () => {
    const res = await h.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });

  const documented = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );

  it('lists every route under /api, and only those', () => {
    const api = registeredRoutes(h.app).filter(
      (r) => r.split(' ')[1]?.startsWith('/api/') && !r.split(' ')[1]?.startsWith('/api/docs'),
    );
    expect(api.length).toBeGreaterThan(15);
    expect(api).toContain('POST /api/user/login');
    expect(api).toContain('GET /api/upload/:name');
    expect(documented().sort()).toEqual(api.sort());
  });

  it('gives every operation a summary and a tag', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${path}`).toMatch(/\S/);
        expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });

  it('documents the body of every POST that reads one, form-encoded first', async () => {
    const u = await registerByEmail(h);
    const readsBody: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      const op = ops.post;
      if (!op) continue;
      // a fresh session for each probe: some routes (logout) end the one they are called with
      const login = await h.call<{ token: string }>('POST', 'user/login', {
        account: u.email,
        password: u.password,
      });
      const res = await h.inject({
        method: 'POST',
        url: path,
        headers: {
          lang: 'en',
          authorization: login.body.data.token,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: '',
      });
      const answer = res.json() as { type: string; field?: string };
      // a route that names a missing input field reads a body, so the document must describe it
      if (answer.type === 'error' && answer.field) {
        readsBody.push(path);
        expect(op.requestBody, `POST ${path}`).toBeDefined();
      }
      // the picture uploads (users', and support's for a chat reply) are multipart only
      if (op.requestBody && !UPLOADS.includes(path)) {
        expect(Object.keys(op.requestBody.content), `POST ${path}`).toEqual([
          'application/x-www-form-urlencoded',
          'application/json',
        ]);
      }
    }
    expect(readsBody).toEqual(expect.arrayContaining(['/api/user/login', '/api/set/lang', '/api/upload']));
    for (const upload of UPLOADS)
      expect(Object.keys(doc.paths[upload]?.post?.requestBody?.content ?? {}), upload).toEqual([
        'multipart/form-data',
      ]);
  });

  it('declares the session on every operation that answers 999 without one, and only there', async () => {
    const checked: string[] = [];
    for (const { method, path, op } of operations()) {
      const res = await h.inject({
        method: method.toUpperCase() as 'GET',
        url: path.replace(/\{\w+\}/g, 'x'),
        headers: {
          lang: 'en',
          ...(method === 'get' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        },
        ...(method === 'get' ? {} : { payload: '' }),
      });
      const answer = res.json() as { type: string; code: number };
      const refused = res.statusCode === 401 && answer.type === '999' && answer.code === 999;
      expect(requiresSession(op), `${method} ${path} → ${res.statusCode}`).toBe(refused);
      if (refused) checked.push(`${method} ${path}`);
    }
    expect(checked).toEqual(
      expect.arrayContaining(['post /api/upload', 'get /api/upload/{name}', 'get /api/admin/users']),
    );
    // a session that is optional is declared so: anonymous ({}) or with the token
    for (const [path, method] of [
      ['/api/get/lang', 'post'],
      ['/api/sms_mail', 'post'],
      ['/api/currency/quotation_new', 'get'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.security, path).toEqual([{}, { session: [] }]);
    }
    expect(doc.components.securitySchemes?.session).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
  });

  it('declares the lang header with the seven languages on every operation', () => {
    for (const { method, path, op } of operations()) {
      const lang = (op.parameters ?? [])
        .map((p) => (typeof p.$ref === 'string' ? resolve(p.$ref) : p))
        .find((p) => p?.in === 'header' && p?.name === 'lang');
      expect(lang, `${method} ${path}`).toBeDefined();
      expect((lang?.schema as { enum?: string[] } | undefined)?.enum, `${method} ${path}`).toEqual([
        'th',
        'en',
        'ja',
        'ko',
        'es',
        'zh',
        'hk',
      ]);
    }
  });

  it('documents the error answers: the failure envelope for 4xx and 5xx, 999 where a session is required', async () => {
    const schemaOf = (op: Operation, status: string) =>
      resolve(op.responses?.[status]?.content?.['application/json']?.schema?.$ref) as
        | { properties: Record<string, { enum?: unknown[] }>; required: string[] }
        | undefined;
    for (const { method, path, op } of operations()) {
      for (const status of ['4XX', '5XX']) {
        const error = schemaOf(op, status);
        expect(error?.properties.type?.enum, `${method} ${path} ${status}`).toEqual(['error']);
        expect(error?.required, `${method} ${path} ${status}`).toEqual(['type', 'code', 'message']);
      }
      if (requiresSession(op))
        expect(schemaOf(op, '401')?.properties.type?.enum, `${method} ${path}`).toEqual(['999']);
      else expect(op.responses?.['401'], `${method} ${path}`).toBeUndefined();
    }
    // a real failure has exactly the documented fields
    const documented = Object.keys(
      schemaOf(doc.paths['/api/user/login']?.post ?? {}, '4XX')?.properties ?? {},
    );
    const real = await h.call('POST', 'user/login', { account: 'nobody@example.com', password: 'x' });
    expect(real.status).toBe(400);
    expect(documented).toEqual(expect.arrayContaining(Object.keys(real.body)));
  });

  it('serves the documentation UI at /api/docs', async () => {
    const res = await h.inject({ method: 'GET', url: '/api/docs' });
    const page =
      res.statusCode >= 300 && res.statusCode < 400
        ? await h.inject({ method: 'GET', url: String(res.headers.location) })
        : res;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('swagger');
  });
});

describe('outside /api', () => {
  it('/ and /h5 lead to the app at /h5/', async () => {
    for (const url of ['/', '/h5']) {
      const res = await h.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(302);
      expect(res.headers.location).toBe('/h5/');
    }
  });
});
