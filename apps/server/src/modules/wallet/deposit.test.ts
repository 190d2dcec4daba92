import type { DepositPage, DepositRecord } from '@verdant/api';
import { subDecimal } from '@verdant/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { approveDeposit, rejectDeposit } from './service.ts';
import { BANK, BTC, ledgerBalance, OPERATOR, requestDeposit, USDT, uploadPng } from './test-helpers.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const chargeReq = (token: string, body: Record<string, string>, lang: 'en' | 'th' = 'en') =>
  h.call<DepositRecord>('POST', 'wallet/charge_req', body, { token, lang });

const log2 = (token: string, query: Record<string, string> = {}, lang: 'en' | 'th' = 'en') =>
  h.call<DepositPage>('GET', 'charge_mention/log2', query, { token, lang });

describe('wallet/charge_req', () => {
  it('records a pending request with its proof; no balance changes until review', async () => {
    const u = await registerByEmail(h);
    const image = await uploadPng(h, u.token);
    const res = await chargeReq(u.token, { currency_id: USDT, chain: 'TRC20', amount: '250.5', image });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      type: 'ok',
      message: 'Submitted. Please wait for the review',
      data: {
        currency_id: 3,
        symbol: 'USDT',
        chain: 'TRC20',
        amount: '250.5',
        image,
        image_url: `/api/upload/${image}`,
        status: 'pending',
        status_code: 'under_review',
        status_text: 'Under review',
        reject_reason: null,
        reviewed_at: null,
      },
    });
    // the request names the user's own deposit address on that chain
    const addr = await h.call<{ address: string }>(
      'POST',
      'wallet/get_in_address',
      { currency_id: USDT, chain: 'TRC20' },
      { token: u.token },
    );
    expect(res.body.data.address).toBe(addr.body.data.address);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '0', frozen: '0' });
    // the owner can fetch the proof through the link it was given
    const pic = await h.inject({
      method: 'GET',
      url: res.body.data.image_url,
      headers: { authorization: u.token },
    });
    expect(pic.statusCode).toBe(200);
    expect(pic.headers['content-type']).toBe('image/png');
  });

  it('checks every rule of spec §5 with its message, and stores nothing on failure', async () => {
    const u = await registerByEmail(h);
    const image = await uploadPng(h, u.token);
    const other = await registerByEmail(h);
    const othersImage = await uploadPng(h, other.token);
    const base = { currency_id: USDT, chain: 'TRC20', amount: '100', image };
    const cases: [Record<string, string>, string, string][] = [
      [{ ...base, currency_id: '' }, 'Please choose a currency', 'currency_id'],
      [{ ...base, currency_id: '77' }, 'This currency is not available', 'currency_id'],
      [{ ...base, chain: '' }, 'Please choose a chain', 'chain'],
      [{ ...base, chain: 'BEP20' }, 'USDT cannot be sent on the BEP20 chain', 'chain'],
      [{ ...base, amount: '' }, 'Please enter the amount', 'amount'],
      [{ ...base, amount: 'ten' }, 'Please enter a valid amount (at most 6 decimal places)', 'amount'],
      [{ ...base, amount: '0' }, 'Please enter a valid amount (at most 6 decimal places)', 'amount'],
      [{ ...base, amount: '9.999999' }, 'The minimum deposit is 10 USDT', 'amount'],
      [{ ...base, image: '' }, 'Please upload the proof image', 'image'],
      [{ ...base, image: 'nope.png' }, 'Please choose a picture to upload', 'image'],
      // someone else's upload is not a proof of this user's payment
      [{ ...base, image: othersImage }, 'Please choose a picture to upload', 'image'],
    ];
    for (const [body, message, field] of cases) {
      const res = await chargeReq(u.token, body);
      expect(res.status, message).toBe(400);
      expect(res.body, message).toMatchObject({ type: 'error', message, field });
    }
    const below = await chargeReq(u.token, { ...base, amount: '9' });
    expect(below.body.code).toBe(3002);
    const btc = await chargeReq(u.token, { currency_id: BTC, amount: '0.00005', image });
    expect(btc.body.message).toBe('The minimum deposit is 0.0001 BTC');
    const th = await chargeReq(u.token, { ...base, amount: '' }, 'th');
    expect(th.body.message).toBe('กรุณากรอกจำนวน');
    expect((await log2(u.token)).body.data.total).toBe(0);
  });

  it('refuses a double submit of the same request while it waits for review', async () => {
    const u = await registerByEmail(h);
    const image = await uploadPng(h, u.token);
    const body = { currency_id: USDT, chain: 'TRC20', amount: '100', image };
    expect((await chargeReq(u.token, body)).body.type).toBe('ok');
    const again = await chargeReq(u.token, { ...body, amount: '100.00' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({
      type: 'error',
      message: 'This deposit request has already been submitted and is under review',
    });
    // several taps at once still make one request
    const image2 = await uploadPng(h, u.token);
    const taps = await Promise.all(
      Array.from({ length: 5 }, () => chargeReq(u.token, { ...body, amount: '150', image: image2 })),
    );
    expect(taps.filter((r) => r.body.type === 'ok')).toHaveLength(1);
    expect(taps.filter((r) => r.status === 409)).toHaveLength(4);
    expect((await log2(u.token)).body.data.total).toBe(2);
  });

  it('bank deposits take a transfer amount and a voucher, no chain', async () => {
    const u = await registerByEmail(h);
    const image = await uploadPng(h, u.token);
    expect((await chargeReq(u.token, { currency_id: BANK, amount: '', image })).body.message).toBe(
      'Please enter the amount',
    );
    expect((await chargeReq(u.token, { currency_id: BANK, amount: '99.99', image })).body.message).toBe(
      'The minimum deposit is 100 Bank',
    );
    expect((await chargeReq(u.token, { currency_id: BANK, amount: '100', image: '' })).body.message).toBe(
      'Please upload the proof image',
    );
    expect((await chargeReq(u.token, { currency_id: BANK, amount: '100.001', image })).body.message).toBe(
      'Please enter a valid amount (at most 2 decimal places)',
    );
    const ok = await chargeReq(u.token, { currency_id: BANK, amount: '1500.25', image, chain: 'TRC20' });
    expect(ok.body.data).toMatchObject({ currency_id: 9999, chain: null, address: null, amount: '1500.25' });
  });
});

describe('reviewing deposits (operators call these inside their own transaction)', () => {
  it('approval credits spot from the house deposits account, exactly once', async () => {
    const u = await registerByEmail(h);
    const id = await requestDeposit(h, u, '123.456789');
    const houseBefore = await ledgerBalance(h, { house: 'deposits' });
    const row = await h.app.ctx.db.tx((q) => approveDeposit(q, id, OPERATOR));
    expect(row).toMatchObject({
      id,
      user_id: u.user.id,
      currency_id: 3,
      amount: '123.456789',
      status: 'approved',
      reviewed_by: OPERATOR,
    });
    expect(row.reviewed_at).toBeInstanceOf(Date);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '123.456789', frozen: '0' });
    const houseAfter = await ledgerBalance(h, { house: 'deposits' });
    expect(subDecimal(houseBefore.available, houseAfter.available)).toBe('123.456789');
    // the journal names the deposit and the operator
    const [j] = await h.app.ctx.db.query<{ reason: string; operator_id: number }>(
      "SELECT reason, operator_id FROM ledger_journals WHERE ref_type = 'deposit' AND ref_id = $1",
      [String(id)],
    );
    expect(j).toEqual({ reason: 'deposit', operator_id: OPERATOR });

    // reviewing again is refused, and nothing moves
    await expect(h.app.ctx.db.tx((q) => approveDeposit(q, id, OPERATOR))).rejects.toMatchObject({
      codeName: 'ALREADY_REVIEWED',
    });
    await expect(h.app.ctx.db.tx((q) => rejectDeposit(q, id, OPERATOR, 'late'))).rejects.toBeInstanceOf(
      AppError,
    );
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '123.456789', frozen: '0' });

    const rec = (await log2(u.token)).body.data.list[0]!;
    expect(rec).toMatchObject({ id, status: 'approved', status_code: 'passed', status_text: 'Passed' });
    expect(rec.reviewed_at).not.toBeNull();
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });

  it('rejection records the reason and moves no money', async () => {
    const u = await registerByEmail(h);
    const id = await requestDeposit(h, u, '50');
    const entriesBefore = await h.app.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ledger_entries',
    );
    await expect(h.app.ctx.db.tx((q) => rejectDeposit(q, id, OPERATOR, '   '))).rejects.toMatchObject({
      messageKey: 'wallet.rejectReasonRequired',
    });
    const row = await h.app.ctx.db.tx((q) => rejectDeposit(q, id, OPERATOR, 'No payment found'));
    expect(row).toMatchObject({
      status: 'rejected',
      reject_reason: 'No payment found',
      reviewed_by: OPERATOR,
    });
    const entriesAfter = await h.app.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM ledger_entries',
    );
    expect(entriesAfter[0]!.n).toBe(entriesBefore[0]!.n);
    await expect(h.app.ctx.db.tx((q) => approveDeposit(q, id, OPERATOR))).rejects.toMatchObject({
      codeName: 'ALREADY_REVIEWED',
    });
    const th = (await log2(u.token, {}, 'th')).body.data.list[0]!;
    expect(th).toMatchObject({
      status: 'rejected',
      status_code: 'rejected',
      status_text: 'ถูกปฏิเสธ',
      reject_reason: 'No payment found',
    });
    // the same proof may be submitted again once the first request is closed
    const again = await chargeReq(u.token, {
      currency_id: USDT,
      chain: 'TRC20',
      amount: '50',
      image: th.image,
    });
    expect(again.body.type).toBe('ok');
  });

  it('a failed review inside the caller transaction rolls everything back', async () => {
    const u = await registerByEmail(h);
    const id = await requestDeposit(h, u, '70');
    await expect(
      h.app.ctx.db.tx(async (q) => {
        await approveDeposit(q, id, OPERATOR);
        throw new Error('audit log write failed');
      }),
    ).rejects.toThrow('audit log write failed');
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '0', frozen: '0' });
    expect((await log2(u.token)).body.data.list[0]).toMatchObject({ status: 'pending' });
  });

  it('an unknown deposit is not found; simultaneous approvals credit once', async () => {
    await expect(h.app.ctx.db.tx((q) => approveDeposit(q, 99_999_999, OPERATOR))).rejects.toMatchObject({
      codeName: 'NOT_FOUND',
    });
    const u = await registerByEmail(h);
    const id = await requestDeposit(h, u, '80');
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => h.app.ctx.db.tx((q) => approveDeposit(q, id, OPERATOR))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(await ledgerBalance(h, { userId: u.user.id })).toEqual({ available: '80', frozen: '0' });
    expect((await verifyLedger(h.app.ctx.db)).problems).toEqual([]);
  });
});

describe('GET charge_mention/log2', () => {
  it("pages the user's own deposits, newest first", async () => {
    const u = await registerByEmail(h);
    const ids: number[] = [];
    for (const amount of ['10', '20', '30']) ids.push(await requestDeposit(h, u, amount));
    await h.app.ctx.db.tx((q) => approveDeposit(q, ids[0]!, OPERATOR));
    const page = await log2(u.token, { page: '1', limit: '2' });
    expect(page.body.data).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(page.body.data.list.map((d) => [d.amount, d.status_code])).toEqual([
      ['30', 'under_review'],
      ['20', 'under_review'],
    ]);
    const page2 = await log2(u.token, { page: '2', limit: '2' });
    expect(page2.body.data.list.map((d) => [d.amount, d.status_code])).toEqual([['10', 'passed']]);
    const stranger = await registerByEmail(h);
    expect((await log2(stranger.token)).body.data).toMatchObject({ total: 0, list: [] });
    const bad = await log2(u.token, { limit: '0' });
    expect(bad.body).toMatchObject({ type: 'error', field: 'limit' });
  });
});
