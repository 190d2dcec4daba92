import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { operatorLogin } from '../admin/testing.ts';
import { uploadsService } from './service.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

// Tiny pictures: a real 1×1 PNG and WebP; a JPEG reduced to its JFIF header and end marker.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xd9,
]);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
}

/** A multipart/form-data body written by hand, as a browser would send it. */
function multipart(parts: Part[]) {
  const boundary = `----VerdantBoundary${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`,
      ),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

interface Uploaded {
  name: string;
  mime: string;
  size: number;
  url: string;
}

async function upload(
  on: Harness,
  parts: Part[],
  opts: { token?: string; lang?: string } = {},
): Promise<{
  status: number;
  body: { type: string; code: number; message: string; data: Uploaded; field?: string };
}> {
  const { payload, contentType } = multipart(parts);
  const headers: Record<string, string> = { 'content-type': contentType, lang: opts.lang ?? 'en' };
  if (opts.token) headers.authorization = opts.token;
  const res = await on.inject({ method: 'POST', url: '/api/upload', headers, payload });
  return { status: res.statusCode, body: res.json() };
}

const picture = (data: Buffer, filename = 'photo.png', type = 'image/png'): Part[] => [
  { name: 'file', filename, type, data },
];

async function rowsOf(on: Harness, userId: number): Promise<number> {
  const [row] = await on.app.ctx.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM uploads WHERE owner_user_id = $1',
    [userId],
  );
  return row?.n ?? 0;
}

function filesIn(on: Harness): string[] {
  const dir = join(on.config.dataDir, 'uploads');
  return existsSync(dir) ? readdirSync(dir) : [];
}

function fetchUpload(name: string, token?: string) {
  return h.inject({
    method: 'GET',
    url: `/api/upload/${name}`,
    headers: { lang: 'en', ...(token ? { authorization: token } : {}) },
  });
}

describe('POST /api/upload', () => {
  it('needs a login: 999 with HTTP 401, and stores nothing', async () => {
    const before = filesIn(h).length;
    const res = await upload(h, picture(PNG));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ type: '999', code: 999, message: 'Please log in first' });
    expect(filesIn(h)).toHaveLength(before);
  });

  it('stores a PNG under a random name, typed from its bytes', async () => {
    const u = await registerByEmail(h);
    const res = await upload(h, picture(PNG, 'my passport.png'), { token: u.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'ok', code: 1, message: 'Upload successful' });
    const { name, mime, size, url } = res.body.data;
    expect(name).toMatch(/^[a-f0-9]{32}\.png$/);
    expect(mime).toBe('image/png');
    expect(size).toBe(PNG.length);
    expect(url).toBe(`/api/upload/${name}`);
    expect(readFileSync(join(h.config.dataDir, 'uploads', name)).equals(PNG)).toBe(true);
    expect(await rowsOf(h, u.user.id)).toBe(1);

    const again = await upload(h, picture(PNG, 'my passport.png'), { token: u.token });
    expect(again.body.data.name).not.toBe(name);
  });

  it('accepts JPEG and WebP, whatever name and type the client claims', async () => {
    const u = await registerByEmail(h);
    const jpeg = await upload(h, picture(JPEG, 'shot.png', 'image/png'), { token: u.token });
    expect(jpeg.body.type).toBe('ok');
    expect(jpeg.body.data).toMatchObject({ mime: 'image/jpeg', size: JPEG.length });
    expect(jpeg.body.data.name).toMatch(/^[a-f0-9]{32}\.jpg$/);

    const webp = await upload(h, picture(WEBP, 'shot', 'application/octet-stream'), { token: u.token });
    expect(webp.body.type).toBe('ok');
    expect(webp.body.data).toMatchObject({ mime: 'image/webp', size: WEBP.length });
    expect(webp.body.data.name).toMatch(/^[a-f0-9]{32}\.webp$/);
  });

  it('refuses anything but JPEG, PNG or WebP with 415, and stores nothing', async () => {
    const u = await registerByEmail(h);
    const before = filesIn(h).length;
    const cases: [string, Part[]][] = [
      ['text renamed .png', picture(Buffer.from('just some words, not a picture'), 'cat.png', 'image/png')],
      ['GIF', picture(GIF, 'cat.gif', 'image/gif')],
      ['PDF', picture(PDF, 'statement.pdf', 'application/pdf')],
      ['SVG with a script', picture(SVG, 'logo.svg', 'image/svg+xml')],
    ];
    for (const [label, parts] of cases) {
      const res = await upload(h, parts, { token: u.token });
      expect(res.status, label).toBe(415);
      expect(res.body, label).toMatchObject({
        type: 'error',
        code: 1415,
        message: 'Only JPEG, PNG or WebP pictures can be uploaded',
        field: 'file',
      });
    }
    const th = await upload(h, picture(GIF), { token: u.token, lang: 'th' });
    expect(th.body.message).toBe('อัปโหลดได้เฉพาะรูปภาพ JPEG, PNG หรือ WebP');
    expect(await rowsOf(h, u.user.id)).toBe(0);
    expect(filesIn(h)).toHaveLength(before);
  });

  it('asks for a picture when there is none: 400 "Please choose a picture to upload"', async () => {
    const u = await registerByEmail(h);
    const noFile = await upload(h, [{ name: 'note', data: 'hello' }], { token: u.token });
    const empty = await upload(h, picture(Buffer.alloc(0)), { token: u.token });
    const form = await h.call('POST', 'upload', { file: 'photo.png' }, { token: u.token });
    for (const res of [noFile, empty, form]) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        type: 'error',
        code: 1400,
        message: 'Please choose a picture to upload',
        field: 'file',
      });
    }
    expect(await rowsOf(h, u.user.id)).toBe(0);
  });
});

describe('the upload size limit', () => {
  let small: Harness;
  beforeAll(async () => {
    small = await startHarness({ uploadMaxBytes: 1024 });
  });
  afterAll(() => small.close());

  it('refuses a file over the limit with 413 and its size in words, storing nothing', async () => {
    const u = await registerByEmail(small);
    const big = Buffer.concat([PNG, Buffer.alloc(2048)]);
    const res = await upload(small, picture(big), { token: u.token });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      type: 'error',
      code: 1413,
      message: 'File too large: out of the allowable file size (1 KB at most)',
    });
    const th = await upload(small, picture(big), { token: u.token, lang: 'th' });
    expect(th.status).toBe(413);
    expect(th.body.message).toBe('ไฟล์ใหญ่เกินไป: เกินขนาดที่อนุญาต (สูงสุด 1 KB)');
    expect(await rowsOf(small, u.user.id)).toBe(0);
    expect(filesIn(small)).toEqual([]);

    // a picture within the limit still goes through
    const ok = await upload(small, picture(PNG), { token: u.token });
    expect(ok.body.type).toBe('ok');
    expect(await rowsOf(small, u.user.id)).toBe(1);
    expect(filesIn(small)).toEqual([ok.body.data.name]);
  });
});

describe('GET /api/upload/:name', () => {
  it('gives the owner the bytes with their type; anyone else a 404, and no login a 401', async () => {
    const owner = await registerByEmail(h);
    const other = await registerByEmail(h);
    const png = (await upload(h, picture(PNG), { token: owner.token })).body.data;
    const webp = (await upload(h, picture(WEBP, 'w.webp', 'image/webp'), { token: owner.token })).body.data;

    const mine = await fetchUpload(png.name, owner.token);
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.headers['cache-control']).toMatch(/^private/);
    expect(mine.rawPayload.equals(PNG)).toBe(true);
    const mineWebp = await fetchUpload(webp.name, owner.token);
    expect(mineWebp.headers['content-type']).toBe('image/webp');
    expect(mineWebp.rawPayload.equals(WEBP)).toBe(true);

    const theirs = await fetchUpload(png.name, other.token);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toEqual({ type: 'error', code: 1404, message: 'Not found' });

    const anonymous = await fetchUpload(png.name);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ type: '999', code: 999, message: 'Please log in first' });
  });

  it('answers 404 in the envelope for names that try to leave the uploads folder, or do not exist', async () => {
    const u = await registerByEmail(h);
    for (const name of [
      '..%2F..%2Fetc%2Fpasswd',
      '..%2F..%2F..%2F..%2Fpackage.json',
      '..%5C..%5Cwindows%5Cwin.ini',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '../../etc/passwd',
      `${randomBytes(16).toString('hex')}.png`,
      'index.html',
    ]) {
      const res = await fetchUpload(name, u.token);
      expect(res.statusCode, name).toBe(404);
      expect(res.json(), name).toEqual({ type: 'error', code: 1404, message: 'Not found' });
    }
  });
});

describe('what a picture is served with', () => {
  it('its sniffed type, nosniff, a fixed inline name and a sandbox, to its owner and to operators', async () => {
    const owner = await registerByEmail(h);
    const jpeg = (await upload(h, picture(JPEG, '"><script>.html', 'text/html'), { token: owner.token })).body
      .data;
    const op = await operatorLogin(h, 'reviewer');
    const asOwner = await fetchUpload(jpeg.name, owner.token);
    const asOperator = await h.inject({
      method: 'GET',
      url: `/api/admin/upload/${jpeg.name}`,
      headers: { lang: 'en', authorization: op.token },
    });
    for (const [who, res] of [
      ['owner', asOwner],
      ['operator', asOperator],
    ] as const) {
      expect(res.statusCode, who).toBe(200);
      expect(res.headers['content-type'], who).toBe('image/jpeg');
      expect(res.headers['x-content-type-options'], who).toBe('nosniff');
      // the client's file name and type never reach the answer
      expect(res.headers['content-disposition'], who).toBe('inline; filename="picture.jpg"');
      expect(res.headers['content-security-policy'], who).toBe(
        "default-src 'none'; frame-ancestors 'none'; sandbox",
      );
      expect(res.rawPayload.equals(JPEG), who).toBe(true);
    }
    expect(asOwner.headers['cache-control']).toBe('private, max-age=3600');
    expect(asOperator.headers['cache-control']).toBe('private, no-store');
    const png = (await upload(h, picture(PNG), { token: owner.token })).body.data;
    const pngRes = await fetchUpload(png.name, owner.token);
    expect(pngRes.headers['content-disposition']).toBe('inline; filename="picture.png"');
    // still nobody else: another user's token, and a user's token on the operators' route
    const other = await registerByEmail(h);
    expect((await fetchUpload(jpeg.name, other.token)).statusCode).toBe(404);
    const userOnAdmin = await h.inject({
      method: 'GET',
      url: `/api/admin/upload/${jpeg.name}`,
      headers: { lang: 'en', authorization: owner.token },
    });
    expect(userOnAdmin.statusCode).toBe(401);
  });
});

describe('upload quotas', () => {
  let q: Harness;
  beforeAll(async () => {
    // room for two PNGs of the test's size not yet used anywhere
    q = await startHarness({ uploadsPerHour: 3, uploadUnusedMaxBytes: 2 * PNG.length + 10 });
  });
  afterAll(() => q.close());

  it('at most the hourly number per user, in the user language, storing nothing more', async () => {
    const u = await registerByEmail(q);
    const other = await registerByEmail(q);
    const names: string[] = [];
    for (let i = 0; i < 2; i++)
      names.push((await upload(q, picture(PNG), { token: u.token })).body.data.name);
    // the two used in verifications no longer count against the unused room
    await useInVerification(q, u.user.id, names[0]!);
    await useInVerification(q, u.user.id, names[1]!);
    expect((await upload(q, picture(PNG), { token: u.token })).body.type).toBe('ok');
    const fourth = await upload(q, picture(PNG), { token: u.token });
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({
      type: 'error',
      code: 1429,
      message: 'Too many uploads: at most 3 pictures an hour. Try again in 60 min',
      field: 'file',
    });
    const th = await upload(q, picture(PNG), { token: u.token, lang: 'th' });
    expect(th.body.message).toBe('อัปโหลดบ่อยเกินไป: ได้สูงสุด 3 รูปต่อชั่วโมง โปรดลองอีกครั้งใน 60 นาที');
    expect(await rowsOf(q, u.user.id)).toBe(3);
    // the limit is the user's own: someone else still uploads
    expect((await upload(q, picture(PNG), { token: other.token })).body.type).toBe('ok');
    // an hour on, the user may upload again
    await q.app.ctx.db.query(
      "UPDATE uploads SET created_at = created_at - interval '61 minutes' WHERE owner_user_id = $1",
      [u.user.id],
    );
    expect((await upload(q, picture(PNG), { token: u.token })).body.type).toBe('ok');
  });

  it('caps what a user keeps in pictures nothing refers to yet', async () => {
    const u = await registerByEmail(q);
    const first = (await upload(q, picture(PNG), { token: u.token })).body.data;
    expect((await upload(q, picture(PNG), { token: u.token })).body.type).toBe('ok');
    const full = await upload(q, picture(PNG), { token: u.token, lang: 'en' });
    expect(full.status).toBe(429);
    expect(full.body).toMatchObject({
      type: 'error',
      code: 1429,
      message: `Your pictures not yet used in a deposit or verification already take up ${Math.round(((2 * PNG.length + 10) / 1024) * 10) / 10} KB. Use them, or wait: unused pictures are removed after 24 hours`,
      field: 'file',
    });
    const ja = await upload(q, picture(PNG), { token: u.token, lang: 'ja' });
    expect(ja.body.message).toMatch(/^入金や本人確認にまだ使われていない画像/);
    expect(await rowsOf(q, u.user.id)).toBe(2);
    expect(filesIn(q)).not.toContain(full.body.data?.name);
    // once one is used, there is room again
    await useInVerification(q, u.user.id, first.name);
    expect((await upload(q, picture(PNG), { token: u.token })).body.type).toBe('ok');
  });

  it.skipIf(!process.env.DATABASE_URL)(
    'holds under 25 parallel uploads of one user (PostgreSQL)',
    async () => {
      const u = await registerByEmail(q);
      const results = await Promise.all(
        Array.from({ length: 25 }, () => upload(q, picture(PNG), { token: u.token })),
      );
      // two fit the unused room (the hourly three would allow one more)
      expect(results.filter((r) => r.body.type === 'ok')).toHaveLength(2);
      expect(results.filter((r) => r.status === 429)).toHaveLength(23);
      expect(await rowsOf(q, u.user.id)).toBe(2);
    },
  );
});

async function useInVerification(on: Harness, userId: number, name: string): Promise<void> {
  await on.app.ctx.db.query(
    `INSERT INTO verifications (user_id, level, country, name, id_number, front, back, holding, status, reviewed_at)
     VALUES ($1, 'advanced', 'TH', 'Test', $2, $3, $3, $3, 'rejected', now())`,
    [userId, randomBytes(4).toString('hex'), name],
  );
}

describe('the orphan sweep', () => {
  let s: Harness;
  beforeAll(async () => {
    s = await startHarness({ uploadSweepMs: 0 });
  });
  afterAll(() => s.close());

  it('removes rows and files nothing refers to after 24 hours; what a deposit or verification uses stays', async () => {
    const u = await registerByEmail(s);
    const up = async () => (await upload(s, picture(PNG), { token: u.token })).body.data.name;
    const voucher = await up();
    const photo = await up();
    const orphan = await up();
    const young = await up();
    const dep = await s.call(
      'POST',
      'wallet/charge_req',
      { currency_id: '3', chain: 'TRC20', amount: '100', image: voucher },
      { token: u.token },
    );
    expect(dep.body.type).toBe('ok');
    await useInVerification(s, u.user.id, photo);
    await s.app.ctx.db.query("UPDATE uploads SET created_at = now() - interval '25 hours' WHERE name <> $1", [
      young,
    ]);
    // a file a save left without its row (the row is written first; this is a crash's leftover)
    const dir = join(s.config.dataDir, 'uploads');
    const stray = `${randomBytes(16).toString('hex')}.png`;
    writeFileSync(join(dir, stray), PNG);
    const old = new Date(Date.now() - 25 * 3_600_000);
    utimesSync(join(dir, stray), old, old);
    const freshStray = `${randomBytes(16).toString('hex')}.png`;
    writeFileSync(join(dir, freshStray), PNG);

    const svc = uploadsService(s.app.ctx);
    // two calls at once are one sweep
    const [a, b] = await Promise.all([svc.sweep(), svc.sweep()]);
    expect(a).toEqual({ rows: 1, strays: 1 });
    expect(b).toBe(a);
    const left = (
      await s.app.ctx.db.query<{ name: string }>('SELECT name FROM uploads WHERE owner_user_id = $1', [
        u.user.id,
      ])
    ).map((r) => r.name);
    expect(left.sort()).toEqual([voucher, photo, young].sort());
    expect(filesIn(s).sort()).toEqual([voucher, photo, young, freshStray].sort());
    // the owner gets "not found" for the removed picture, and the kept ones as before
    const gone = await s.inject({
      method: 'GET',
      url: `/api/upload/${orphan}`,
      headers: { lang: 'en', authorization: u.token },
    });
    expect(gone.statusCode).toBe(404);
    const kept = await s.inject({
      method: 'GET',
      url: `/api/upload/${voucher}`,
      headers: { lang: 'en', authorization: u.token },
    });
    expect(kept.statusCode).toBe(200);
    // nothing more to do
    expect(await svc.sweep()).toEqual({ rows: 0, strays: 0 });
  });

  it.skipIf(!process.env.DATABASE_URL)('does nothing while another process sweeps (PostgreSQL)', async () => {
    const u = await registerByEmail(s);
    const name = (await upload(s, picture(PNG), { token: u.token })).body.data.name;
    await s.app.ctx.db.query("UPDATE uploads SET created_at = now() - interval '25 hours' WHERE name = $1", [
      name,
    ]);
    const svc = uploadsService(s.app.ctx);
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => {
      locked = r;
    });
    // the other process: holds the sweep's lock in its transaction
    const other = s.app.ctx.db.tx(async (q) => {
      await q.query(
        "SELECT pg_advisory_xact_lock(hashtext('verdant.uploads.sweep'), hashtext(coalesce(current_schema(), '')))",
      );
      locked();
      await held;
    });
    await isLocked;
    expect(await svc.sweep()).toEqual({ rows: 0, strays: 0 });
    release();
    await other;
    expect(await svc.sweep()).toEqual({ rows: 1, strays: 0 });
  });
});

describe('the sweep timer', () => {
  let t: Harness;
  beforeAll(async () => {
    t = await startHarness({ uploadSweepMs: 200 });
  });
  afterAll(() => t.close());

  it('sweeps on its own while the server runs', async () => {
    const u = await registerByEmail(t);
    const name = (await upload(t, picture(PNG), { token: u.token })).body.data.name;
    await t.app.ctx.db.query("UPDATE uploads SET created_at = now() - interval '25 hours' WHERE name = $1", [
      name,
    ]);
    await expect.poll(() => filesIn(t), { timeout: 20_000, interval: 100 }).not.toContain(name);
    expect(await rowsOf(t, u.user.id)).toBe(0);
  });
});
