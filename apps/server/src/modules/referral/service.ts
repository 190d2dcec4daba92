import {
  type AdminReferralMember,
  type AdminReferralMemberBody,
  type Lang,
  REFERRAL_RANKING_SIZE,
  type ReferralInvite,
  type ReferralPageQuery,
  type ReferralRanking,
  type ReferralRebateKind,
  type ReferralRebatePage,
  type ReferralRefereePage,
  type ReferralShare,
} from '@verdant/api';
import { dec, parseDecimal } from '@verdant/engine';
import type { AppContext } from '../../context.ts';
import { parsePaging } from '../../db/paging.ts';
import { canon } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { t } from '../../i18n/index.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import { parseId, writeAudit } from '../admin/service.ts';
import { accountOf, lockUser, userAccounts } from '../user/service.ts';
import { usdtPrices } from '../wallet/service.ts';
import { posterSvg } from './poster.ts';

/** The registration page with the code filled in (the web app reads `invite`). */
export const inviteLink = (code: string) =>
  `/h5/#/pages/user/login/register?invite=${encodeURIComponent(code)}`;

/**
 * An account as others may see it in a list: an e-mail keeps its first two letters and its
 * domain, a phone number its first three and last two digits.
 */
export function maskAccount(account: string): string {
  const at = account.indexOf('@');
  if (at > 0) return `${account.slice(0, Math.min(2, at))}***${account.slice(at)}`;
  if (account.length <= 5) return `${account.slice(0, 1)}****`;
  return `${account.slice(0, 3)}****${account.slice(-2)}`;
}

interface SumRow {
  user_id: number;
  currency_id: number;
  amount: string;
}

/** A user's rate and exclusive status: the operator's rate when exclusive, else the default. */
interface RateRow {
  exclusive: boolean;
  rate: string;
  default_rate: string;
  updated_at: Date | null;
}

export function createReferralService(ctx: AppContext) {
  const { db } = ctx;

  /** Sums per user and currency valued in USDT (a coin without a price yet counts 0). */
  async function valued(rows: readonly SumRow[]): Promise<Map<number, string>> {
    const prices = await usdtPrices(db);
    const out = new Map<number, ReturnType<typeof dec>>();
    for (const r of rows) {
      const price = prices.get(r.currency_id);
      const v = price ? dec(r.amount).times(price) : dec('0');
      out.set(r.user_id, (out.get(r.user_id) ?? dec('0')).plus(v));
    }
    // USDT's places: a valuation is shown, never credited
    return new Map([...out].map(([k, v]) => [k, v.toDecimalPlaces(6, 1).toFixed()]));
  }

  async function rateOf(userId: number): Promise<RateRow> {
    const [r] = await db.query<RateRow>(
      `SELECT COALESCE(m.exclusive, false) AS exclusive, COALESCE(m.rate, s.default_rate)::text AS rate,
              s.default_rate::text AS default_rate, m.updated_at
         FROM referral_settings s LEFT JOIN referral_members m ON m.user_id = $1 AND m.exclusive`,
      [userId],
    );
    return { ...r!, rate: canon(r!.rate), default_rate: canon(r!.default_rate) };
  }

  async function earnings(userId: number) {
    const rows = await db.query<SumRow>(
      `SELECT referrer_id AS user_id, currency_id, sum(amount)::text AS amount
         FROM referral_rebates WHERE referrer_id = $1 GROUP BY referrer_id, currency_id ORDER BY currency_id`,
      [userId],
    );
    const currencies = await currenciesById(db);
    return {
      total: (await valued(rows)).get(userId) ?? '0',
      list: rows.map((r) => ({
        currency: currencies.get(r.currency_id)?.symbol ?? '',
        currency_id: r.currency_id,
        amount: canon(r.amount),
      })),
    };
  }

  async function codeOf(userId: number): Promise<{ invite_code: string; authorisation_code: string | null }> {
    const [u] = await db.query<{ invite_code: string; authorisation_code: string | null }>(
      `SELECT u.invite_code, i.invite_code AS authorisation_code
         FROM users u LEFT JOIN users i ON i.id = u.invited_by WHERE u.id = $1`,
      [userId],
    );
    if (!u) throw new AppError('NOT_FOUND', 'errors.notFound');
    return u;
  }

  const countReferees = async (userId: number) =>
    (
      await db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE invited_by = $1', [userId])
    )[0]!.n;

  return {
    /** Writes the configured default rate where every fee writer reads it (see the migration). */
    async applyConfig(): Promise<void> {
      await db.query('UPDATE referral_settings SET default_rate = $1', [ctx.config.referralRate]);
    },

    async invite(userId: number): Promise<ReferralInvite> {
      const codes = await codeOf(userId);
      const [rate, promoted, earned] = [
        await rateOf(userId),
        await countReferees(userId),
        await earnings(userId),
      ];
      return {
        ...codes,
        link: inviteLink(codes.invite_code),
        promoted_count: promoted,
        total_earnings: earned.total,
        earnings: earned.list,
        pending_payout: '0',
        rate: rate.rate,
        exclusive: rate.exclusive,
      };
    },

    async share(userId: number, lang: Lang): Promise<ReferralShare> {
      const { invite_code } = await codeOf(userId);
      return {
        invite_code,
        link: inviteLink(invite_code),
        text: t(lang, 'referral.shareText', { code: invite_code }),
      };
    },

    /** The poster as SVG; `origin` makes the QR code's link absolute (a phone camera needs the host). */
    async poster(userId: number, lang: Lang, origin: string): Promise<string> {
      const { invite_code } = await codeOf(userId);
      return posterSvg(`${origin}${inviteLink(invite_code)}`, invite_code, {
        brand: 'Verdant',
        headline: t(lang, 'referral.posterHeadline'),
        scan: t(lang, 'referral.posterScan'),
        codeLabel: t(lang, 'referral.posterCode'),
      });
    },

    /** The top promoters by rebates received, valued in USDT; ties by who registered first. */
    async ranking(): Promise<ReferralRanking> {
      const rows = await db.query<SumRow>(
        `SELECT referrer_id AS user_id, currency_id, sum(amount)::text AS amount
           FROM referral_rebates GROUP BY referrer_id, currency_id`,
      );
      const totals = [...(await valued(rows))]
        .filter(([, v]) => dec(v).gt(0))
        .sort(([a, x], [b, y]) => dec(y).comparedTo(x) || a - b)
        .slice(0, REFERRAL_RANKING_SIZE);
      const accounts = await userAccounts(
        db,
        totals.map(([id]) => id),
      );
      return {
        list: totals.map(([id, v], i) => ({
          rank: i + 1,
          account: maskAccount(accounts.get(id) ?? ''),
          rebate: v,
        })),
      };
    },

    async referees(userId: number, query: ReferralPageQuery): Promise<ReferralRefereePage> {
      const paging = parsePaging(query);
      const total = await countReferees(userId);
      const rows = await db.query<{
        id: number;
        account_type: 'mobile' | 'email';
        email: string | null;
        area_code: string | null;
        mobile: string | null;
        created_at: Date;
        verification: string;
      }>(
        `SELECT id, account_type, email, area_code, mobile, created_at, verification FROM users
          WHERE invited_by = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
        [userId, paging.limit, paging.offset],
      );
      const sums = await db.query<SumRow>(
        `SELECT referee_id AS user_id, currency_id, sum(amount)::text AS amount FROM referral_rebates
          WHERE referrer_id = $1 AND referee_id = ANY($2::int[]) GROUP BY referee_id, currency_id`,
        [userId, rows.map((r) => r.id)],
      );
      const rebates = await valued(sums);
      return {
        list: rows.map((r) => ({
          account: maskAccount(accountOf(r)),
          registered_at: new Date(r.created_at).toISOString(),
          verified: r.verification === 'verified',
          rebate: rebates.get(r.id) ?? '0',
        })),
        page: paging.page,
        limit: paging.limit,
        total,
      };
    },

    async rebates(userId: number, query: ReferralPageQuery): Promise<ReferralRebatePage> {
      const paging = parsePaging(query);
      const [count] = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM referral_rebates WHERE referrer_id = $1',
        [userId],
      );
      const rows = await db.query<{
        id: string;
        kind: ReferralRebateKind;
        referee_id: number;
        currency_id: number;
        fee: string;
        rate: string;
        amount: string;
        account_type: string;
        created_at: Date;
      }>(
        `SELECT id::text, kind, referee_id, currency_id, fee::text, rate::text, amount::text, kind AS account_type,
                created_at
           FROM referral_rebates WHERE referrer_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
        [userId, paging.limit, paging.offset],
      );
      const [accounts, currencies] = [
        await userAccounts(
          db,
          rows.map((r) => r.referee_id),
        ),
        await currenciesById(db),
      ];
      return {
        list: rows.map((r) => ({
          id: r.id,
          kind: r.kind,
          referee: maskAccount(accounts.get(r.referee_id) ?? ''),
          currency: currencies.get(r.currency_id)?.symbol ?? '',
          fee: canon(r.fee),
          rate: canon(r.rate),
          amount: canon(r.amount),
          account_type: r.account_type,
          created_at: new Date(r.created_at).toISOString(),
        })),
        page: paging.page,
        limit: paging.limit,
        total: count!.n,
      };
    },

    async member(userIdText: string | undefined): Promise<AdminReferralMember> {
      const userId = parseId(userIdText, 'user_id', 'admin.userIdRequired');
      const [u] = await db.query<{
        invite_code: string;
        invited_by: number | null;
        account_type: 'mobile' | 'email';
        email: string | null;
        area_code: string | null;
        mobile: string | null;
      }>('SELECT invite_code, invited_by, account_type, email, area_code, mobile FROM users WHERE id = $1', [
        userId,
      ]);
      if (!u) throw new AppError('NOT_FOUND', 'admin.userNotFound', {}, 'user_id');
      const rate = await rateOf(userId);
      return {
        user_id: userId,
        account: accountOf(u),
        invite_code: u.invite_code,
        invited_by: u.invited_by,
        promoted_count: await countReferees(userId),
        exclusive: rate.exclusive,
        rate: rate.rate,
        default_rate: rate.default_rate,
        total_earnings: (await earnings(userId)).total,
        updated_at: rate.updated_at ? new Date(rate.updated_at).toISOString() : null,
      };
    },

    /**
     * An operator makes a user an exclusive member with its own rate, or returns it to the
     * default rate. The user's row is locked first, so two operators at once are applied one
     * after the other and each audit entry's "before" is what that change replaced.
     */
    async setMember(operatorId: number, ip: string | null, body: AdminReferralMemberBody) {
      const userId = parseId(body.user_id, 'user_id', 'admin.userIdRequired');
      const ex = (body.exclusive ?? '').trim().toLowerCase();
      if (!['1', 'true', '0', 'false'].includes(ex)) throw invalid('referral.exclusiveInvalid', 'exclusive');
      const exclusive = ex === '1' || ex === 'true';
      let rate: string | null = null;
      if (exclusive) {
        const text = (body.rate ?? '').trim();
        if (!text) throw invalid('referral.rateRequired', 'rate');
        const r = parseDecimal(text);
        if (r === null || dec(r).lt(0) || dec(r).gt(1) || dec(r).decimalPlaces() > 8)
          throw invalid('referral.rateInvalid', 'rate');
        rate = r;
      }
      await db.tx(async (q) => {
        if (!(await lockUser(q, userId)))
          throw new AppError('NOT_FOUND', 'admin.userNotFound', {}, 'user_id');
        const [before] = await q.query<{ exclusive: boolean; rate: string | null }>(
          'SELECT exclusive, rate::text FROM referral_members WHERE user_id = $1',
          [userId],
        );
        const [after] = await q.query<{ exclusive: boolean; rate: string | null }>(
          `INSERT INTO referral_members (user_id, exclusive, rate, updated_by, updated_at)
           VALUES ($1, $2, $3, $4, now())
           ON CONFLICT (user_id) DO UPDATE
             SET exclusive = EXCLUDED.exclusive, rate = EXCLUDED.rate, updated_by = EXCLUDED.updated_by,
                 updated_at = now()
           RETURNING exclusive, rate::text`,
          [userId, exclusive, rate, operatorId],
        );
        await writeAudit(q, {
          operatorId,
          action: 'referral.member',
          targetType: 'user',
          targetId: userId,
          before: before ?? { exclusive: false, rate: null },
          after,
          ip,
        });
      });
      return this.member(String(userId));
    },
  };
}
export type ReferralService = ReturnType<typeof createReferralService>;
