import type { ReferralRebateKind } from '@verdant/api';
import { dec, toScaled, truncateDecimal } from '@verdant/engine';
import type { Queryable } from '../../db/client.ts';
import { type Posting, post, postMany, type UserAccountType } from '../../ledger/ledger.ts';

/** A trading fee a user was just charged (it went to the house `fees` account). */
export interface FeeCharge {
  kind: ReferralRebateKind;
  payerId: number;
  currencyId: number;
  /** A positive decimal string. */
  fee: string;
  /** The referrer's account credited: the one the fee was paid from (spot, contract, option). */
  accountType: UserAccountType;
  refType: string;
  refId: string | number;
}

/**
 * Whether a decimal amount is above zero: on its exact count of 10^-18 (a settlement pass checks
 * thousands of fees; decimal.js objects cost more than the rest of the check), decimal.js only
 * for a value the count cannot hold.
 */
function positive(v: string): boolean {
  const n = toScaled(v, 18);
  return n === null ? dec(v).gt(0) : n > 0n;
}

interface ReferrerRow {
  payer: number;
  referrer: number;
  rate: string;
  decimals: Record<string, number>;
}

/**
 * The rebates owed on these fees, as ledger postings from the house `fees` account to each
 * payer's referrer, for the caller to post in the transaction that charges the fees. One query
 * for all the charges (referrers, their rates, the currencies' places); the rebate rows are
 * written by one more statement that is sent, not awaited (the transaction awaits it with its
 * COMMIT). A payer without a referrer, or a rebate that truncates to zero, gives nothing.
 */
export async function rebatePostings(q: Queryable, charges: readonly FeeCharge[]): Promise<Posting[]> {
  const paid = charges.filter((c) => c.payerId > 0 && positive(c.fee));
  if (paid.length === 0) return [];
  const rows = await q.query<ReferrerRow>(
    `SELECT u.id AS payer, u.invited_by AS referrer, COALESCE(m.rate, s.default_rate)::text AS rate,
            (SELECT json_object_agg(c.id, c.decimals) FROM currencies c WHERE c.id = ANY($2::int[])) AS decimals
       FROM users u
       CROSS JOIN referral_settings s
       LEFT JOIN referral_members m ON m.user_id = u.invited_by AND m.exclusive
      WHERE u.id = ANY($1::int[]) AND u.invited_by IS NOT NULL`,
    [[...new Set(paid.map((c) => c.payerId))], [...new Set(paid.map((c) => c.currencyId))]],
  );
  if (rows.length === 0) return [];
  const byPayer = new Map(rows.map((r) => [r.payer, r]));
  const postings: Posting[] = [];
  const rec = {
    referrer: [] as number[],
    referee: [] as number[],
    kind: [] as string[],
    currency: [] as number[],
    fee: [] as string[],
    rate: [] as string[],
    amount: [] as string[],
    refType: [] as string[],
    refId: [] as string[],
  };
  for (const c of paid) {
    const r = byPayer.get(c.payerId);
    if (!r) continue;
    const places = r.decimals[String(c.currencyId)];
    if (places === undefined) throw new Error(`referral: unknown currency ${c.currencyId}`);
    // truncated: the referrer never gets more than its rate of the fee
    const amount = dec(truncateDecimal(dec(c.fee).times(dec(r.rate)).toFixed(), places));
    if (!amount.gt(0)) continue;
    const a = amount.toFixed();
    postings.push({
      reason: 'referral_rebate',
      refType: c.refType,
      refId: c.refId,
      legs: [
        { account: { house: 'fees', currencyId: c.currencyId }, available: `-${a}` },
        { account: { userId: r.referrer, type: c.accountType, currencyId: c.currencyId }, available: a },
      ],
    });
    rec.referrer.push(r.referrer);
    rec.referee.push(c.payerId);
    rec.kind.push(c.kind);
    rec.currency.push(c.currencyId);
    rec.fee.push(dec(c.fee).toFixed());
    rec.rate.push(dec(r.rate).toFixed());
    rec.amount.push(a);
    rec.refType.push(c.refType);
    rec.refId.push(String(c.refId));
  }
  if (postings.length > 0)
    // sent with the transaction's other writes; tx awaits it before COMMIT answers
    q.query(
      `INSERT INTO referral_rebates (referrer_id, referee_id, kind, currency_id, fee, rate, amount, ref_type, ref_id)
       SELECT * FROM unnest($1::int[], $2::int[], $3::text[], $4::int[], $5::numeric[], $6::numeric[],
                            $7::numeric[], $8::text[], $9::text[])`,
      [
        rec.referrer,
        rec.referee,
        rec.kind,
        rec.currency,
        rec.fee,
        rec.rate,
        rec.amount,
        rec.refType,
        rec.refId,
      ],
    ).catch(() => {});
  return postings;
}

/**
 * The fees a posting charges one user: its legs crediting the house `fees` account, paid by the
 * posting's only user. A posting that moves several users' money (a spot fill) is not read this
 * way: its caller knows who paid which fee and builds the charges itself.
 */
export function feeCharges(p: Posting, kind: ReferralRebateKind): FeeCharge[] {
  let payer: { userId: number; type: UserAccountType } | null = null;
  for (const l of p.legs) {
    if ('house' in l.account) continue;
    if (payer && payer.userId !== l.account.userId) return [];
    payer = { userId: l.account.userId, type: l.account.type };
  }
  if (!payer) return [];
  const out: FeeCharge[] = [];
  for (const l of p.legs) {
    if (!('house' in l.account) || l.account.house !== 'fees' || !l.available) continue;
    if (!positive(l.available)) continue;
    out.push({
      kind,
      payerId: payer.userId,
      currencyId: l.account.currencyId,
      fee: l.available,
      accountType: payer.type,
      refType: p.refType ?? kind,
      refId: p.refId ?? '',
    });
  }
  return out;
}

/** Posts a posting that charges a fee, and the referrer's rebate on it, in the caller's transaction. */
export async function postCharging(q: Queryable, p: Posting, kind: ReferralRebateKind): Promise<string> {
  const journal = await post(q, p);
  const rebates = await rebatePostings(q, feeCharges(p, kind));
  if (rebates.length > 0) await postMany(q, rebates);
  return journal;
}
