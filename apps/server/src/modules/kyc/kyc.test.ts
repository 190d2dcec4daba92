import type { VerificationStatus } from '@verdant/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { auditRows, operatorLogin, uploadPng } from '../admin/testing.ts';

let h: Harness;
let reviewer: { id: number; token: string };
beforeAll(async () => {
  h = await startHarness();
  reviewer = await operatorLogin(h, 'reviewer');
});
afterAll(() => h.close());

let idSeq = 0;
const basic = (over: Record<string, string> = {}) => {
  idSeq += 1;
  return {
    country: 'th',
    name: 'Somchai Jaidee',
    id_number: `1 1037 ${String(10000 + idSeq)} 12 ${idSeq % 10}`,
    address: '99 Sukhumvit Road, Bangkok',
    ...over,
  };
};

const submit = (token: string, body: Record<string, string>) =>
  h.call('POST', 'user/real_name', body, { token });
const submit2 = (token: string, body: Record<string, string>) =>
  h.call('POST', 'user/real_name2', body, { token });
const status = async (token: string, lang: 'en' | 'th' = 'en') =>
  (await h.call<VerificationStatus>('GET', 'user/real_name_status', undefined, { token, lang })).body;

async function pendingId(userId: number, level: 'basic' | 'advanced'): Promise<number> {
  const [row] = await h.app.ctx.db.query<{ id: number }>(
    "SELECT id FROM verifications WHERE user_id = $1 AND level = $2 AND status = 'pending'",
    [userId, level],
  );
  if (!row) throw new Error('no pending verification');
  return row.id;
}

const approve = (id: number) =>
  h.call('POST', 'admin/verifications/approve', { id: String(id) }, { token: reviewer.token });
const reject = (id: number, reason: string) =>
  h.call('POST', 'admin/verifications/reject', { id: String(id), reason }, { token: reviewer.token });

/** A user whose basic verification an operator has approved. */
async function basicVerifiedUser() {
  const u = await registerByEmail(h);
  expect((await submit(u.token, basic())).body.type).toBe('ok');
  expect((await approve(await pendingId(u.user.id, 'basic'))).body.type).toBe('ok');
  return u;
}

describe('basic verification (user/real_name)', () => {
  it('checks required fields and formats, and changes nothing on failure', async () => {
    const u = await registerByEmail(h);
    const cases: [Record<string, string>, string, string][] = [
      [basic({ country: '' }), 'Please choose your country', 'country'],
      [basic({ country: 'XX' }), 'Please choose a valid country', 'country'],
      [basic({ country: 'Thailand' }), 'Please choose a valid country', 'country'],
      [basic({ name: ' ' }), 'Please enter your name', 'name'],
      [basic({ name: 'A' }), 'Please enter your name as on your ID, 2 to 100 letters', 'name'],
      [basic({ name: 'R2D2' }), 'Please enter your name as on your ID, 2 to 100 letters', 'name'],
      [basic({ name: '<script>' }), 'Please enter your name as on your ID, 2 to 100 letters', 'name'],
      [basic({ id_number: '' }), 'Please enter your ID number', 'id_number'],
      [basic({ id_number: '12' }), 'Please enter a valid ID number', 'id_number'],
      [basic({ id_number: '12#45678' }), 'Please enter a valid ID number', 'id_number'],
      [basic({ address: 'x'.repeat(201) }), 'The address is too long (200 characters at most)', 'address'],
    ];
    for (const [body, message, field] of cases) {
      const res = await submit(u.token, body);
      expect(res.status, message).toBe(400);
      expect(res.body).toEqual({ type: 'error', code: 1400, message, field });
    }
    const s = await status(u.token);
    expect(s).toMatchObject({ data: { verification: 'none', basic: null, can_submit_basic: true } });
  });

  it('none → under review → verified by an operator; user/center shows it; the address is optional', async () => {
    const u = await registerByEmail(h);
    const res = await submit(u.token, basic({ address: '', name: '  Somchai   Jaidee ' }));
    expect(res.body).toMatchObject({ type: 'ok', message: 'Submitted. Your verification is under review' });

    const pending = await status(u.token);
    expect(pending.data).toMatchObject({
      verification: 'pending',
      advanced_verification: 'none',
      can_submit_basic: false,
      can_submit_advanced: false,
      basic: {
        status: 'pending',
        country: 'TH',
        country_name: 'Thailand',
        name: 'Somchai Jaidee',
        address: '',
      },
      advanced: null,
    });
    expect(pending.data.basic?.id_number).toMatch(/^11037\d+$/);
    expect((await status(u.token, 'th')).data.basic?.country_name).toBe('ไทย');

    // a second submission while under review is refused
    const again = await submit(u.token, basic());
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Your verification is under review');

    const id = await pendingId(u.user.id, 'basic');
    const ok = await approve(id);
    expect(ok.body).toMatchObject({
      type: 'ok',
      message: 'Approved',
      data: { id, status: 'verified', level: 'basic', user_id: u.user.id, reviewed_by: reviewer.id },
    });
    const center = await h.call<{ verification: string }>('GET', 'user/center', undefined, {
      token: u.token,
    });
    expect(center.body.data.verification).toBe('verified');
    expect((await status(u.token)).data).toMatchObject({
      verification: 'verified',
      can_submit_basic: false,
      can_submit_advanced: true,
      basic: { status: 'verified', reject_reason: null },
    });
    const done = await submit(u.token, basic());
    expect(done.status).toBe(409);
    expect(done.body.message).toBe('Your identity is already verified');
  });

  it('rejected with a reason the user sees; then the user may submit again', async () => {
    const u = await registerByEmail(h);
    await submit(u.token, basic());
    const id = await pendingId(u.user.id, 'basic');
    const noReason = await reject(id, ' ');
    expect(noReason.body).toMatchObject({ type: 'error', message: 'Please enter the reason for rejecting' });
    const res = await reject(id, 'The name does not match the ID');
    expect(res.body).toMatchObject({ type: 'ok', message: 'Rejected', data: { status: 'rejected' } });
    expect((await status(u.token)).data).toMatchObject({
      verification: 'rejected',
      can_submit_basic: true,
      basic: { status: 'rejected', reject_reason: 'The name does not match the ID' },
    });
    expect((await submit(u.token, basic({ name: 'Somchai Jaidee-Smith' }))).body.type).toBe('ok');
    expect((await status(u.token)).data).toMatchObject({
      verification: 'pending',
      basic: { status: 'pending', name: 'Somchai Jaidee-Smith', reject_reason: null },
    });
  });

  it('refuses an ID number under review or verified for another account', async () => {
    const a = await registerByEmail(h);
    const b = await registerByEmail(h);
    const body = basic();
    expect((await submit(a.token, body)).body.type).toBe('ok');
    const res = await submit(b.token, { ...body, id_number: body.id_number.replace(/ /g, '') });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({
      message: 'This ID number is already used by another account',
      field: 'id_number',
    });
  });

  it('a double submit makes one submission', async () => {
    const u = await registerByEmail(h);
    const body = basic();
    const results = await Promise.all([submit(u.token, body), submit(u.token, body)]);
    expect(results.map((r) => r.body.type).sort()).toEqual(['error', 'ok']);
    const rows = await h.app.ctx.db.query('SELECT id FROM verifications WHERE user_id = $1', [u.user.id]);
    expect(rows).toHaveLength(1);
  });
});

describe('advanced verification (user/real_name2)', () => {
  it('needs basic verification first: "Complete basic identity verification first"', async () => {
    const u = await registerByEmail(h);
    const photos = {
      front: await uploadPng(h, u.token),
      back: await uploadPng(h, u.token),
      holding: await uploadPng(h, u.token),
    };
    const res = await submit2(u.token, photos);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      type: 'error',
      code: 3021,
      message: 'Complete basic identity verification first',
    });
    // still not enough while basic is only under review
    await submit(u.token, basic());
    expect((await submit2(u.token, photos)).body.message).toBe('Complete basic identity verification first');
  });

  it('requires the three photos, each an upload of the user', async () => {
    const u = await basicVerifiedUser();
    const other = await registerByEmail(h);
    const mine = [await uploadPng(h, u.token), await uploadPng(h, u.token), await uploadPng(h, u.token)];
    const theirs = await uploadPng(h, other.token);
    const cases: [Record<string, string>, string, string][] = [
      [{ back: mine[1]!, holding: mine[2]! }, 'Please upload a photo of the front of your ID', 'front'],
      [{ front: mine[0]!, holding: mine[2]! }, 'Please upload a photo of the back of your ID', 'back'],
      [{ front: mine[0]!, back: mine[1]! }, 'Please upload a photo of you holding your ID', 'holding'],
      // someone else's upload is refused like a missing picture
      [{ front: theirs, back: mine[1]!, holding: mine[2]! }, 'Please choose a picture to upload', 'front'],
      [{ front: mine[0]!, back: 'nope.png', holding: mine[2]! }, 'Please choose a picture to upload', 'back'],
      [
        { front: mine[0]!, back: mine[0]!, holding: mine[2]! },
        'Please upload three different photos',
        'holding',
      ],
    ];
    for (const [body, message, field] of cases) {
      const res = await submit2(u.token, body);
      expect(res.status, message).toBe(400);
      expect(res.body).toMatchObject({ type: 'error', message, field });
    }
    expect((await status(u.token)).data.advanced_verification).toBe('none');
  });

  it('under review → verified; the photos stay private to the user and operators', async () => {
    const u = await basicVerifiedUser();
    const other = await registerByEmail(h);
    const photos = {
      front: await uploadPng(h, u.token),
      back: await uploadPng(h, u.token),
      holding: await uploadPng(h, u.token),
    };
    const res = await submit2(u.token, photos);
    expect(res.body).toMatchObject({ type: 'ok', message: 'Submitted. Your verification is under review' });
    const s = await status(u.token);
    expect(s.data).toMatchObject({
      verification: 'verified',
      advanced_verification: 'pending',
      can_submit_advanced: false,
      advanced: { status: 'pending', ...photos, name: 'Somchai Jaidee', country: 'TH' },
    });
    expect((await submit2(u.token, photos)).body.message).toBe('Your verification is under review');

    // the owner can fetch them; another user and a visitor cannot
    const get = (url: string, token?: string) =>
      h.inject({ method: 'GET', url, headers: { lang: 'en', ...(token ? { authorization: token } : {}) } });
    expect((await get(`/api/upload/${photos.front}`, u.token)).statusCode).toBe(200);
    expect((await get(`/api/upload/${photos.front}`, other.token)).statusCode).toBe(404);
    expect((await get(`/api/upload/${photos.front}`)).statusCode).toBe(401);
    // a user's token does not open the operators' door
    const asUser = await get(`/api/admin/upload/${photos.front}`, u.token);
    expect(asUser.statusCode).toBe(401);
    expect(asUser.json()).toEqual({ type: '999', code: 999, message: 'Operator login required' });

    // the reviewer sees the queue with the photo paths, and can open them
    const queue = await h.call<{ items: { id: number; user_id: number; front: string; level: string }[] }>(
      'GET',
      'admin/verifications',
      { level: 'advanced' },
      { token: reviewer.token },
    );
    const item = queue.body.data.items.find((i) => i.user_id === u.user.id)!;
    expect(item.front).toBe(`/api/admin/upload/${photos.front}`);
    const photo = await get(item.front, reviewer.token);
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');

    const ok = await approve(item.id);
    expect(ok.body).toMatchObject({ type: 'ok', data: { status: 'verified', level: 'advanced' } });
    expect((await status(u.token)).data).toMatchObject({
      verification: 'verified',
      advanced_verification: 'verified',
      can_submit_advanced: false,
    });
    const center2 = await h.call<{ advanced_verification: string }>('GET', 'user/center2', undefined, {
      token: u.token,
    });
    expect(center2.body.data.advanced_verification).toBe('verified');
  });

  it('a rejected advanced verification can be submitted again with new photos', async () => {
    const u = await basicVerifiedUser();
    const photos = async () => ({
      front: await uploadPng(h, u.token),
      back: await uploadPng(h, u.token),
      holding: await uploadPng(h, u.token),
    });
    await submit2(u.token, await photos());
    await reject(await pendingId(u.user.id, 'advanced'), 'The photo holding the ID is blurred');
    expect((await status(u.token)).data).toMatchObject({
      advanced_verification: 'rejected',
      can_submit_advanced: true,
      advanced: { status: 'rejected', reject_reason: 'The photo holding the ID is blurred' },
    });
    expect((await submit2(u.token, await photos())).body.type).toBe('ok');
    expect((await status(u.token)).data.advanced_verification).toBe('pending');
  });
});

describe('verification review by operators', () => {
  it('writes an audit row with the row and the user state before and after; a second review is refused', async () => {
    const u = await registerByEmail(h);
    await submit(u.token, basic());
    const id = await pendingId(u.user.id, 'basic');
    expect((await approve(id)).body.type).toBe('ok');

    const again = await approve(id);
    expect([400, 409]).toContain(again.status);
    expect(again.body).toMatchObject({
      type: 'error',
      code: 3030,
      message: 'This request has already been reviewed',
    });
    expect((await reject(id, 'too late')).body.code).toBe(3030);

    const rows = await auditRows(h, 'verification', id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      operator_id: reviewer.id,
      action: 'verification.approve',
      before: { id, status: 'pending', reviewed_by: null, user: { verification: 'pending' } },
      after: { id, status: 'verified', reviewed_by: reviewer.id, user: { verification: 'verified' } },
    });
  });

  it('two operators approving at once: exactly one succeeds, one audit row', async () => {
    const second = await operatorLogin(h, 'reviewer');
    const u = await registerByEmail(h);
    await submit(u.token, basic());
    const id = await pendingId(u.user.id, 'basic');
    const [a, b] = await Promise.all([
      approve(id),
      h.call('POST', 'admin/verifications/reject', { id: String(id), reason: 'no' }, { token: second.token }),
    ]);
    expect([a.body.type, b.body.type].sort()).toEqual(['error', 'ok']);
    expect(await auditRows(h, 'verification', id)).toHaveLength(1);
  });

  it('unknown ids are "not found"; a missing id is asked for', async () => {
    expect((await approve(999_999)).status).toBe(404);
    const res = await h.call('POST', 'admin/verifications/approve', {}, { token: reviewer.token });
    expect(res.body).toMatchObject({ type: 'error', message: 'Please choose the request', field: 'id' });
  });

  it('lists the queue by status, oldest first for pending', async () => {
    const a = await registerByEmail(h);
    const b = await registerByEmail(h);
    await submit(a.token, basic());
    await submit(b.token, basic());
    const res = await h.call<{
      items: { user_id: number; status: string; user_account: string }[];
      total: number;
    }>('GET', 'admin/verifications', { status: 'pending', limit: '100' }, { token: reviewer.token });
    const mine = res.body.data.items.filter((i) => i.user_id === a.user.id || i.user_id === b.user.id);
    expect(mine.map((i) => i.user_id)).toEqual([a.user.id, b.user.id]);
    expect(mine[0]).toMatchObject({ status: 'pending', user_account: a.email });
    expect(res.body.data.items.every((i) => i.status === 'pending')).toBe(true);
    const bad = await h.call('GET', 'admin/verifications', { status: 'maybe' }, { token: reviewer.token });
    expect(bad.body).toMatchObject({ type: 'error', message: 'This status is not valid', field: 'status' });
  });
});
