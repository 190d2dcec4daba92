import type { AddressInfo } from 'node:net';
import { type Message, type MessagePage, NewsEvents } from '@verdant/api';
import { type Socket as ClientSocket, io as connectTo } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../ledger/ledger.ts';
import { type Harness, registerByEmail, startHarness } from '../../test/harness.ts';
import { operatorLogin } from '../admin/testing.ts';
import { submit as buyOption, tick as optionTick, optionTrader } from '../option/test-helpers.ts';
import { FUND_PASSWORD, readyToWithdraw, requestDeposit, USDT } from '../wallet/test-helpers.ts';
import { writeMessage } from './service.ts';

// Every event a user cares about leaves a message, in that user's language, pushed live to that
// user's sockets only: each through the real operation (operator review, settlement, triggers).

let h: Harness;
let url: string;
let reviewer: { token: string };
let admin: { token: string };
const clients: ClientSocket[] = [];

beforeAll(async () => {
  h = await startHarness();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  reviewer = await operatorLogin(h, 'reviewer');
  admin = await operatorLogin(h, 'admin');
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  await h.close();
});

type User = Awaited<ReturnType<typeof registerByEmail>>;

const messages = async (u: User, lang: 'en' | 'th' = 'en') =>
  (await h.call<MessagePage>('POST', 'news/messages', {}, { token: u.token, lang })).body.data;

async function listen(token: string) {
  const socket = connectTo(url, { path: '/socket.io', forceNew: true, reconnection: false, auth: { token } });
  clients.push(socket);
  const got: Message[] = [];
  socket.on(NewsEvents.message, (m: Message) => got.push(m));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return got;
}

/** Waits for a condition the server makes true (a socket message arriving), failing after 5 s. */
async function until(pred: () => boolean, what: string) {
  const end = Date.now() + 5000;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const review = (path: string, body: Record<string, string>, token = reviewer.token) =>
  h.call('POST', path, body, { token });

describe('deposits and withdrawals', () => {
  it('a passed deposit: the message is kept, and pushed live to that user alone, in the user’s language', async () => {
    const u = await registerByEmail(h);
    const other = await registerByEmail(h);
    await h.call('POST', 'set/lang', { lang: 'th' }, { token: u.token });
    const mine = await listen(u.token);
    const theirs = await listen(other.token);
    const id = await requestDeposit(h, u, '250.5');
    expect((await messages(u)).total).toBe(0);
    expect((await review('admin/deposits/approve', { id: String(id) })).body.type).toBe('ok');
    await until(() => mine.length === 1, 'the deposit message');
    expect(mine[0]).toMatchObject({ kind: 'deposit_passed', title: 'เงินฝากเข้าบัญชีแล้ว', read: false });
    expect(mine[0]!.body).toContain(`#${id} จำนวน 250.5 USDT`);
    // kept: the list shows the same message, in the language of the request
    const [kept] = (await messages(u)).items;
    expect(kept).toMatchObject({ id: mine[0]!.id, kind: 'deposit_passed', title: 'Deposit credited' });
    // the other user's socket heard nothing (it does hear its own: proof it was listening)
    const o = await requestDeposit(h, other, '10');
    await review('admin/deposits/approve', { id: String(o) });
    await until(() => theirs.length === 1, "the other user's own message");
    expect(theirs.map((m) => m.body)).toEqual([expect.stringContaining(`#${o} of 10 USDT`)]);
    expect(mine).toHaveLength(1);
  });

  it('nothing is pushed for a message whose transaction rolled back; the next one arrives alone', async () => {
    const u = await registerByEmail(h);
    const heard = await listen(u.token);
    await expect(
      h.app.ctx.db.tx(async (q) => {
        await writeMessage(q, u.user.id, 'deposit_passed', { id: 1, amount: '1', currency_id: 3 });
        throw new Error('the review failed after the message was written');
      }),
    ).rejects.toThrow('the review failed');
    const id = await requestDeposit(h, u, '20');
    await review('admin/deposits/approve', { id: String(id) });
    await until(() => heard.length > 0, 'the deposit message');
    expect(heard.map((m) => m.body)).toEqual([expect.stringContaining(`#${id} of 20 USDT`)]);
    expect((await messages(u)).total).toBe(1);
  });

  it('a rejected deposit names the reason; a refused review (already reviewed) writes nothing more', async () => {
    const u = await registerByEmail(h);
    const id = await requestDeposit(h, u, '10');
    await review('admin/deposits/reject', { id: String(id), reason: 'The voucher is unreadable' });
    const again = await review('admin/deposits/approve', { id: String(id) });
    expect(again.status).toBe(400);
    const page = await messages(u);
    expect(page.items.map((m) => [m.kind, m.body])).toEqual([
      ['deposit_rejected', `Your deposit #${id} of 10 USDT was rejected: The voucher is unreadable`],
    ]);
  });

  it('a withdrawal paid, and one rejected', async () => {
    const { u, addressId } = await readyToWithdraw(h, '1000');
    const before = (await messages(u)).total; // the funding deposit's own message
    const ask = async () => {
      const r = await h.call<{ id: number }>(
        'POST',
        'wallet/out',
        { currency_id: USDT, address_id: String(addressId), amount: '200', fund_password: FUND_PASSWORD },
        { token: u.token },
      );
      if (r.body.type !== 'ok') throw new Error(r.body.message);
      return String(r.body.data.id);
    };
    const paid = await ask();
    await review('admin/withdrawals/approve', { id: paid, tx_ref: '0xabc' });
    const refused = await ask();
    await review('admin/withdrawals/reject', { id: refused, reason: 'Address on a sanctions list' });
    const page = await messages(u);
    expect(page.total).toBe(before + 2);
    expect(page.items.slice(0, 2).map((m) => [m.kind, m.body])).toEqual([
      [
        'withdrawal_rejected',
        `Your withdrawal #${refused} of 200 USDT was rejected and the amount returned to your spot account: Address on a sanctions list`,
      ],
      ['withdrawal_passed', `Your withdrawal #${paid} of 200 USDT was approved and paid out.`],
    ]);
  });
});

describe('identity verification', () => {
  let seq = 0;
  async function submitted() {
    const u = await registerByEmail(h);
    seq += 1;
    const r = await h.call(
      'POST',
      'user/real_name',
      {
        country: 'th',
        name: 'Somchai Jaidee',
        id_number: `3 1037 ${String(20000 + seq)} 45 ${seq % 10}`,
        address: '1 Silom Road, Bangkok',
      },
      { token: u.token },
    );
    if (r.body.type !== 'ok') throw new Error(r.body.message);
    const [v] = await h.app.ctx.db.query<{ id: number }>(
      "SELECT id FROM verifications WHERE user_id = $1 AND status = 'pending'",
      [u.user.id],
    );
    return { u, id: String(v!.id) };
  }

  it('approved and rejected each leave their message', async () => {
    const a = await submitted();
    await review('admin/verifications/approve', { id: a.id });
    expect((await messages(a.u)).items.map((m) => [m.kind, m.body])).toEqual([
      ['verification_passed', 'Your basic identity verification was approved.'],
    ]);
    const b = await submitted();
    await review('admin/verifications/reject', { id: b.id, reason: 'The photo is blurred' });
    const [m] = (await messages(b.u, 'th')).items;
    expect(m).toMatchObject({ kind: 'verification_rejected', title: 'การยืนยันตัวตนถูกปฏิเสธ' });
    expect(m!.body).toContain('ขั้นพื้นฐาน');
    expect(m!.body).toContain('The photo is blurred');
  });
});

describe('options, contracts and subscriptions', () => {
  it('options delivered in one settlement pass: one message per user, with the counts and the exact total when several, pushed after the pass commits', async () => {
    const a = await optionTrader(h);
    const b = await optionTrader(h);
    const heardA = await listen(a.token);
    const heardB = await listen(b.token);
    // market 5 (xrpusdt) is this file's own: its ticks stay out of other tests
    await optionTick(h.app, '100', Date.now() - 1, 5);
    const orders = [];
    for (const [u, direction, amount] of [
      [a, 'bullish', '100'],
      [a, 'bearish', '100'],
      [a, 'bullish', '33.3'],
      [b, 'bullish', '100'],
    ] as const) {
      const r = await buyOption(h, u.token, { symbol: 'xrpusdt', direction, amount });
      expect(r.body.message).toBe('Purchase successful');
      orders.push(r.body.data);
    }
    const due = Math.max(...orders.map((o) => Date.parse(o.deliver_at)));
    await optionTick(h.app, '101', due + 100, 5);
    expect(await h.app.option.settleDue(due + 1000)).toBe(4);
    // a: three delivered together, one message; 178.4 + 0 + 59.4072 paid (33.3 + 26.64 profit − 0.5328 fee)
    const gotA = (await messages(a)).items.filter((m) => m.kind.startsWith('option'));
    expect(gotA.map((m) => [m.kind, m.title, m.body])).toEqual([
      [
        'options_delivered',
        'Options delivered',
        "3 of your options were delivered: 2 won, 1 lost, 0 flat. Paid to your option account: 237.8072 USDT. Each one's delivery price is in your option history.",
      ],
    ]);
    // b: one alone says its price and result
    const gotB = (await messages(b)).items;
    expect(gotB.map((m) => m.body)).toEqual([
      `Your option #${orders[3]!.id} was delivered at 101: won. Paid to your option account: 178.4 USDT.`,
    ]);
    expect((await messages(a, 'th')).items[0]!.body).toContain('237.8072 USDT');
    await until(() => heardA.length === 1 && heardB.length === 1, 'each user hears one message');
    expect(heardA[0]!.kind).toBe('options_delivered');
    expect(heardB[0]!.kind).toBe('option_delivered');
  });

  it('a liquidated position', async () => {
    const u = await registerByEmail(h);
    await h.app.ctx.db.tx((q) =>
      post(q, {
        reason: 'deposit',
        legs: [
          { account: { userId: u.user.id, type: 'contract', currencyId: 3 }, available: '100' },
          { account: { house: 'deposits', currencyId: 3 }, available: '-100' },
        ],
      }),
    );
    let clock = Date.now() - 600_000;
    const contractTick = async (price: string) => {
      clock += 1000;
      await h.app.ctx.db.query(
        `INSERT INTO index_ticks (market_id, price, source, created_at) VALUES (1, $1, 'test', $2)`,
        [price, new Date(clock).toISOString()],
      );
      await h.app.contract.advanceAll();
    };
    await contractTick('60000');
    const p = await h.call<{ id: string }>(
      'POST',
      'lever/submit',
      { symbol: 'btcusdt', direction: 'long', lots: '1', multiple: '100' },
      { token: u.token },
    );
    expect(p.body.type).toBe('ok');
    await contractTick('59700.01');
    expect((await messages(u)).total).toBe(0);
    await contractTick('59650');
    expect((await messages(u)).items.map((m) => [m.kind, m.body])).toEqual([
      [
        'position_liquidated',
        `Your BTC/USDT contract position #${p.body.data.id} was liquidated at 59650. Returned to your contract account: 2.20175 USDT.`,
      ],
    ]);
  });

  it('a subscription passed (allotted)', async () => {
    const u = await registerByEmail(h);
    await h.app.ctx.db.tx((q) =>
      post(q, {
        reason: 'deposit',
        legs: [
          { account: { userId: u.user.id, type: 'spot', currencyId: 3 }, available: '1000' },
          { account: { house: 'deposits', currencyId: 3 }, available: '-1000' },
        ],
      }),
    );
    const r = await h.call<{ id: string }>(
      'POST',
      'lh/send/order',
      { project_id: '1', amount: '1000' },
      {
        token: u.token,
      },
    );
    expect(r.body.type).toBe('ok');
    await review('admin/launchpad/pass', { id: String(r.body.data.id), amount: '400' }, admin.token);
    expect((await messages(u)).items.map((m) => [m.kind, m.body])).toEqual([
      [
        'subscription_passed',
        `Your subscription #${r.body.data.id} was allotted 800 VDT; 600 USDT not used was returned.`,
      ],
    ]);
  });
});
