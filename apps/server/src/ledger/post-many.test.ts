import { dec } from '@verdant/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, registerByEmail, startHarness } from '../test/harness.ts';
import {
  type AccountRef,
  balanceOf,
  InsufficientFunds,
  LedgerBatch,
  type Posting,
  post,
  postMany,
} from './ledger.ts';
import { verifyLedger } from './verify.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const USDT = 3;
const BTC = 1;
const spot = (userId: number, currencyId = USDT): AccountRef => ({ userId, type: 'spot', currencyId });

const canon = (b: { available: string; frozen: string }) => ({
  available: dec(b.available).toFixed(),
  frozen: dec(b.frozen).toFixed(),
});

/** The i-th user of `a` holds what the i-th user of `b` holds, in USDT and BTC. */
async function expectSameBalances(a: number[], b: number[]) {
  for (let i = 0; i < a.length; i++)
    for (const c of [USDT, BTC])
      expect(canon(await balanceOf(h.app.ctx.db, spot(a[i]!, c)))).toEqual(
        canon(await balanceOf(h.app.ctx.db, spot(b[i]!, c))),
      );
}

/** A small deterministic generator, so a failure can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Random postings among `users` and a house account: transfers, freezes, unfreezes, deposits. */
function randomPostings(
  users: number[],
  house: 'launchpad' | 'option_pool',
  seed: number,
  n: number,
): Posting[] {
  const r = rng(seed);
  const pick = () => users[Math.floor(r() * users.length)]!;
  const amt = () => (Math.floor(r() * 5_000_000) / 10 ** Math.floor(r() * 7)).toString();
  const out: Posting[] = [];
  for (let i = 0; i < n; i++) {
    const a = amt();
    const cur = r() < 0.7 ? USDT : BTC;
    const kind = Math.floor(r() * 4);
    if (kind === 0)
      out.push({
        reason: 'deposit',
        legs: [
          { account: spot(pick(), cur), available: a },
          { account: { house, currencyId: cur }, available: `-${a}` },
        ],
      });
    else if (kind === 1) {
      const x = pick();
      let y = pick();
      if (y === x) y = users[(users.indexOf(x) + 1) % users.length]!;
      out.push({
        reason: 'transfer',
        legs: [
          { account: spot(x, cur), available: `-${a}` },
          { account: spot(y, cur), available: a },
        ],
      });
    } else if (kind === 2)
      out.push({ reason: 'freeze', legs: [{ account: spot(pick(), cur), available: `-${a}`, frozen: a }] });
    else
      out.push({ reason: 'unfreeze', legs: [{ account: spot(pick(), cur), available: a, frozen: `-${a}` }] });
  }
  return out;
}

async function newUsers(n: number) {
  return Promise.all(Array.from({ length: n }, async () => (await registerByEmail(h)).user.id));
}

/** A user's entries as (posting reason, currency, deltas, afters), in order. */
async function statement(userIds: number[]) {
  const rows = await h.app.ctx.db.query<{
    j: string;
    u: number;
    c: number;
    r: string;
    da: string;
    df: string;
    aa: string;
    fa: string;
  }>(
    `SELECT e.journal_id::text AS j, a.user_id AS u, a.currency_id AS c, j.reason AS r, e.delta_available::text AS da, e.delta_frozen::text AS df,
            e.available_after::text AS aa, e.frozen_after::text AS fa
       FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN ledger_journals j ON j.id = e.journal_id
      WHERE a.user_id = ANY($1::int[]) ORDER BY e.id`,
    [userIds],
  );
  // Within a posting, entries follow account ids, which differ between the two sets of users:
  // compare each posting's entries by user and currency instead.
  return rows
    .map((x) => ({ ...x, u: userIds.indexOf(x.u) }))
    .sort((x, y) => Number(BigInt(x.j) - BigInt(y.j)) || x.u - y.u || x.c - y.c)
    .map(({ j: _, ...x }) => x);
}

describe('postMany', () => {
  it('does exactly what post() does one posting at a time, on random postings', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const one = await newUsers(4);
      const many = await newUsers(4);
      const postings = (users: number[], house: 'launchpad' | 'option_pool') =>
        randomPostings(users, house, seed, 120);
      const single: boolean[] = [];
      for (const p of postings(one, 'launchpad')) {
        try {
          await h.app.ctx.db.tx((q) => post(q, p));
          single.push(true);
        } catch (e) {
          expect(e).toBeInstanceOf(InsufficientFunds);
          single.push(false);
        }
      }
      const results = await h.app.ctx.db.tx((q) => postMany(q, postings(many, 'option_pool')));
      expect(results.map((r) => r.ok)).toEqual(single);
      expect(single.filter(Boolean).length).toBeGreaterThan(20);
      expect(single.filter((x) => !x).length).toBeGreaterThan(5);
      expect(await statement(many)).toEqual(await statement(one));
      // (an account postMany created for a posting it then refused is a zero row; post() rolled it back)
      await expectSameBalances(many, one);
    }
    expect((await verifyLedger(h.app.ctx.db, { frozen: false })).problems).toEqual([]);
  });

  it('posted in steps through one LedgerBatch (some accounts locked up front, the rest on demand), writes once what postMany writes', async () => {
    const one = await newUsers(4);
    const steps = await newUsers(4);
    const postings = (users: number[], house: 'launchpad' | 'option_pool') =>
      randomPostings(users, house, 7, 120);
    const all = await h.app.ctx.db.tx((q) => postMany(q, postings(one, 'launchpad')));
    const stepped = await h.app.ctx.db.tx(async (q) => {
      const list = postings(steps, 'option_pool');
      const batch = new LedgerBatch(q);
      await batch.lock([spot(steps[0]!), spot(steps[1]!, BTC)]);
      const first = await batch.post(list.slice(0, 50));
      const second = await batch.post(list.slice(50));
      const journals = await batch.write();
      expect(journals).toHaveLength([...first, ...second].filter((r) => r.ok).length);
      return [...first, ...second];
    });
    expect(stepped.map((r) => r.ok)).toEqual(all.map((r) => r.ok));
    expect(await statement(steps)).toEqual(await statement(one));
    await expectSameBalances(steps, one);
    expect((await verifyLedger(h.app.ctx.db, { frozen: false })).problems).toEqual([]);
  });

  it('a write not yet answered keeps nothing posted after it: the next write carries that', async () => {
    const one = await newUsers(4);
    const twice = await newUsers(4);
    const postings = (users: number[], house: 'launchpad' | 'option_pool') =>
      randomPostings(users, house, 11, 120);
    const all = await h.app.ctx.db.tx((q) => postMany(q, postings(one, 'launchpad')));
    const [results, journals] = await h.app.ctx.db.tx(async (q) => {
      const list = postings(twice, 'option_pool');
      const batch = new LedgerBatch(q);
      const first = await batch.post(list.slice(0, 60));
      const written = batch.write(); // as a spot batch does: sent, not awaited
      const second = await batch.post(list.slice(60));
      return [
        [...first, ...second],
        [...(await written), ...(await batch.write())],
      ] as const;
    });
    expect(results.map((r) => r.ok)).toEqual(all.map((r) => r.ok));
    expect(journals).toHaveLength(results.filter((r) => r.ok).length);
    expect(await statement(twice)).toEqual(await statement(one));
    await expectSameBalances(twice, one);
    expect((await verifyLedger(h.app.ctx.db, { frozen: false })).problems).toEqual([]);
  });

  it('reports each posting that would overdraw, applies the rest, and later ones see the balance without it', async () => {
    const [a, b] = await newUsers(2);
    const deposit = (u: number, x: string): Posting => ({
      reason: 'deposit',
      legs: [
        { account: spot(u), available: x },
        { account: { house: 'deposits', currencyId: USDT }, available: `-${x}` },
      ],
    });
    const move = (x: string): Posting => ({
      reason: 'transfer',
      legs: [
        { account: spot(a!), available: `-${x}` },
        { account: spot(b!), available: x },
      ],
    });
    const r = await h.app.ctx.db.tx((q) =>
      postMany(q, [deposit(a!, '10'), move('7'), move('5'), move('3'), move('0.000000000000000001')]),
    );
    expect(r.map((x) => x.ok)).toEqual([true, true, false, true, false]);
    const short = r[2]!;
    expect(short.ok ? null : short.accountId).toMatch(/^\d+$/);
    expect(await balanceOf(h.app.ctx.db, spot(a!))).toEqual({
      available: '0.000000000000000000',
      frozen: '0.000000000000000000',
    });
    expect(await balanceOf(h.app.ctx.db, spot(b!))).toEqual({
      available: '10.000000000000000000',
      frozen: '0.000000000000000000',
    });
    const [j] = await h.app.ctx.db.query<{ n: number }>(
      `SELECT count(DISTINCT e.journal_id)::int AS n FROM ledger_entries e JOIN ledger_accounts l ON l.id = e.account_id
        WHERE l.user_id = $1`,
      [b],
    );
    expect(j!.n).toBe(2);
    expect((await verifyLedger(h.app.ctx.db, { frozen: false })).problems).toEqual([]);
  });

  it('keeps the rules of post(): sums to zero, moves something, at most 18 decimals', async () => {
    const [a] = await newUsers(1);
    await expect(
      h.app.ctx.db.tx((q) => postMany(q, [{ reason: 'x', legs: [{ account: spot(a!), available: '1' }] }])),
    ).rejects.toThrow(/does not sum to zero/);
    await expect(
      h.app.ctx.db.tx((q) => postMany(q, [{ reason: 'x', legs: [{ account: spot(a!), available: '0' }] }])),
    ).rejects.toThrow(/moves nothing/);
    await expect(
      h.app.ctx.db.tx((q) =>
        postMany(q, [
          {
            reason: 'x',
            legs: [
              { account: spot(a!), available: '-0.0000000000000000001', frozen: '0.0000000000000000001' },
            ],
          },
        ]),
      ),
    ).rejects.toThrow(/decimals/);
    expect(await h.app.ctx.db.tx((q) => postMany(q, []))).toEqual([]);
  });

  it('runs beside concurrent post() calls on the same accounts without deadlock or lost updates', async () => {
    const users = await newUsers(5);
    await h.app.ctx.db.tx((q) =>
      postMany(
        q,
        users.map((u) => ({
          reason: 'deposit',
          legs: [
            { account: spot(u), available: '1000' },
            { account: { house: 'deposits', currencyId: USDT }, available: '-1000' },
          ],
        })),
      ),
    );
    const ring = (k: number): Posting[] =>
      users.map((u, i) => ({
        reason: 'transfer',
        legs: [
          { account: spot(u), available: '-1' },
          { account: spot(users[(i + k) % users.length]!), available: '1' },
        ],
      }));
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 8; i++) {
      const k = 1 + (i % (users.length - 1));
      work.push(h.app.ctx.db.tx((q) => postMany(q, ring(k))));
      for (const p of ring(k).reverse()) work.push(h.app.ctx.db.tx((q) => post(q, p)));
    }
    await Promise.all(work);
    for (const u of users)
      expect((await balanceOf(h.app.ctx.db, spot(u))).available).toBe('1000.000000000000000000');
    const [n] = await h.app.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id WHERE a.user_id = ANY($1::int[])`,
      [users],
    );
    expect(n!.n).toBe(5 + 8 * 5 * 2 * 2);
    expect((await verifyLedger(h.app.ctx.db, { frozen: false })).problems).toEqual([]);
  });
});
