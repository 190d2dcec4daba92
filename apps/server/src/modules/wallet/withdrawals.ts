import {
  type BankCard,
  type Lang,
  WITHDRAW_REMARK_MAX,
  WITHDRAWALS_PER_DAY,
  type WithdrawalLogQuery,
  type WithdrawalRecord,
  type WithdrawBody,
  type WithdrawInfo,
} from '@verdant/api';
import { addDecimal } from '@verdant/engine';
import type { Queryable } from '../../db/client.ts';
import { pageOf, parsePaging } from '../../db/paging.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { t } from '../../i18n/index.ts';
import { type Currency, chainsOn } from '../../ledger/currencies.ts';
import { post } from '../../ledger/ledger.ts';
import { userBalances } from '../../ledger/statement.ts';
import { withdrawFrozen } from '../user/service.ts';
import type { WithdrawalRow } from './review.ts';
import {
  assertChainOn,
  assertCurrencyOpen,
  assertMinimum,
  currencyOf,
  insufficient,
  negate,
  parseAmount,
  parseId,
  parseRemark,
  recordPage,
  requestRecord,
  show,
  spot,
  type WalletDeps,
} from './shared.ts';
import { savedAddresses } from './withdraw-addresses.ts';

const ARRIVAL_KEY = 'wallet.arrival';
/** Namespace of the per-user advisory lock that serialises a user's withdrawal requests. */
const WITHDRAW_LOCK_NS = 7253;

/** A withdrawal as the user's records read it. */
type WithdrawalListRow = Omit<WithdrawalRow, 'user_id' | 'bank_snapshot' | 'reviewed_by'>;

const WITHDRAWAL_LIST = `SELECT id, currency_id, chain, address, bank_card_id, amount::text AS amount,
    fee::text AS fee, remark, status, tx_ref, reject_reason, created_at, reviewed_at
  FROM withdrawals`;

/** Where the money goes: a chain address, or a bank card with a copy of its details. */
interface Destination {
  chain: string | null;
  address: string | null;
  bankCardId: number | null;
  bankSnapshot: Record<string, unknown> | null;
}

function toRecord(r: WithdrawalListRow, cur: Currency, lang: Lang): WithdrawalRecord {
  return {
    ...requestRecord(r, cur, lang),
    bank_card_id: r.bank_card_id,
    amount: show(r.amount, cur.decimals),
    fee: show(r.fee, cur.decimals),
    total: show(addDecimal(r.amount, r.fee), cur.decimals),
    remark: r.remark,
    tx_ref: r.tx_ref,
  };
}

/** The card as the withdrawal keeps it: what the operator pays to, without the bank module's extras. */
function cardSnapshot(card: BankCard): Record<string, unknown> {
  const { card_number_masked: _m, created_at: _c, updated_at: _u, ...snapshot } = card;
  return snapshot;
}

/** An operator froze this user's withdrawals (issue 23): refused with the reason to ask support. */
async function assertWithdrawOpen(q: Queryable, userId: number): Promise<void> {
  if (await withdrawFrozen(q, userId)) throw new AppError('WITHDRAW_FROZEN', 'wallet.withdrawFrozen');
}

async function withdrawalsToday(q: Queryable, userId: number): Promise<number> {
  const [r] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM withdrawals
      WHERE user_id = $1 AND created_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`,
    [userId],
  );
  return r?.n ?? 0;
}

/** Withdrawals: what the screen shows first, the request that freezes the money, the records. */
export function makeWithdrawals({ db, users, bankCards }: WalletDeps) {
  /** Where a crypto withdrawal goes: one of the user's saved addresses for the currency. */
  async function addressDestination(
    userId: number,
    cur: Currency,
    input: string | undefined,
  ): Promise<Destination> {
    const saved = await savedAddresses(db, userId, cur.id);
    if (saved.length === 0)
      throw new AppError('WITHDRAW_ADDRESS_REQUIRED', 'wallet.withdrawAddressRequired', {}, 'address_id');
    const id = parseId(input);
    const chosen = saved.find((a) => a.id === id);
    if (!chosen)
      throw new AppError('WITHDRAW_ADDRESS_REQUIRED', 'wallet.withdrawAddressChoose', {}, 'address_id');
    if (!cur.chains.includes(chosen.chain))
      throw invalid('wallet.chainInvalid', 'address_id', { chain: chosen.chain, symbol: cur.symbol });
    assertChainOn(cur, chosen.chain, 'address_id');
    return { chain: chosen.chain, address: chosen.address, bankCardId: null, bankSnapshot: null };
  }

  /** Where a bank withdrawal goes: one of the user's bank cards (the bank module's), named by its masked number. */
  async function bankDestination(userId: number, input: string | undefined): Promise<Destination> {
    const cards = await bankCards.list(userId);
    if (cards.length === 0)
      throw new AppError('WITHDRAW_ADDRESS_REQUIRED', 'wallet.bankCardRequired', {}, 'bank_card_id');
    const id = parseId(input);
    const card = cards.find((c) => c.id === id);
    if (!card) throw new AppError('WITHDRAW_ADDRESS_REQUIRED', 'wallet.bankCardChoose', {}, 'bank_card_id');
    const label = [card.bank_name, card.card_number_masked].filter(Boolean).join(' ');
    return { chain: null, address: label || null, bankCardId: card.id, bankSnapshot: cardSnapshot(card) };
  }

  return {
    /** wallet/get_info: what the withdraw screen shows before the user types anything. */
    async withdrawInfo(
      userId: number,
      body: { currency_id?: string | undefined },
      lang: Lang,
    ): Promise<WithdrawInfo> {
      const cur = await currencyOf(db, body.currency_id);
      const user = await users.center(userId);
      const b = (await userBalances(db, userId)).find((x) => x.type === 'spot' && x.currency_id === cur.id);
      const today = await withdrawalsToday(db, userId);
      const addresses = await savedAddresses(db, userId, cur.id);
      return {
        currency_id: cur.id,
        symbol: cur.symbol,
        decimals: cur.decimals,
        is_fiat: cur.is_fiat,
        chains: chainsOn(cur),
        can_withdraw: cur.can_withdraw,
        available: show(b?.available ?? '0', cur.decimals),
        min_withdraw: show(cur.min_withdraw, cur.decimals),
        withdraw_fee: show(cur.withdraw_fee, cur.decimals),
        daily_limit: WITHDRAWALS_PER_DAY,
        withdrawals_today: today,
        withdrawals_left: Math.max(0, WITHDRAWALS_PER_DAY - today),
        has_fund_password: user.has_fund_password,
        verification: user.verification,
        verified: user.verification === 'verified',
        address_count: addresses.length,
        arrival_key: ARRIVAL_KEY,
        arrival_text: t(lang, ARRIVAL_KEY),
      };
    },

    /**
     * wallet/out: the rules of spec §5 and §9 in order, then one posting that freezes
     * amount + fee in the spot account while the request waits for review.
     */
    async withdraw(userId: number, body: WithdrawBody, lang: Lang): Promise<WithdrawalRecord> {
      const cur = await currencyOf(db, body.currency_id);
      assertCurrencyOpen(cur, 'withdraw');
      const dest = cur.is_fiat
        ? await bankDestination(userId, body.bank_card_id)
        : await addressDestination(userId, cur, body.address_id);
      const amount = parseAmount(body.amount, cur);
      if (!body.fund_password) throw invalid('validation.fundPasswordRequired', 'fund_password');
      const remark = parseRemark(body.remark, WITHDRAW_REMARK_MAX);
      const user = await users.center(userId);
      if (user.verification !== 'verified')
        throw new AppError('VERIFICATION_REQUIRED', 'wallet.verificationRequired');
      if (!user.has_fund_password)
        throw new AppError('FUND_PASSWORD_UNSET', 'fund.unset', {}, 'fund_password');
      // before the fund password, so a frozen user's attempts are not counted against them
      await assertWithdrawOpen(db, userId);
      await users.verifyFundPassword(userId, body.fund_password);
      assertMinimum(amount, cur, 'withdraw');
      const fee = cur.withdraw_fee;
      const total = addDecimal(amount, fee);
      const id = await db
        .tx(async (q) => {
          // one request of this user at a time: the day's count and the balance hold together
          await q.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [WITHDRAW_LOCK_NS, userId]);
          await assertWithdrawOpen(q, userId);
          if ((await withdrawalsToday(q, userId)) >= WITHDRAWALS_PER_DAY)
            throw new AppError('WITHDRAW_DAILY_LIMIT', 'wallet.dailyLimit', { max: WITHDRAWALS_PER_DAY });
          const [w] = await q.query<{ id: number }>(
            `INSERT INTO withdrawals (user_id, currency_id, chain, address, bank_card_id, bank_snapshot, amount, fee, remark)
             VALUES ($1, $2, $3, $4, $5, $6::text::jsonb, $7, $8, $9) RETURNING id`,
            [
              userId,
              cur.id,
              dest.chain,
              dest.address,
              dest.bankCardId,
              dest.bankSnapshot === null ? null : JSON.stringify(dest.bankSnapshot),
              amount,
              fee,
              remark,
            ],
          );
          await post(q, {
            reason: 'withdraw_freeze',
            refType: 'withdrawal',
            refId: w!.id,
            legs: [{ account: spot(userId, cur.id), available: negate(total), frozen: total }],
          });
          return w!.id;
        })
        .catch(insufficient);
      const [row] = await db.query<WithdrawalListRow>(`${WITHDRAWAL_LIST} WHERE id = $1`, [id]);
      return toRecord(row!, cur, lang);
    },

    async withdrawals(userId: number, query: WithdrawalLogQuery, lang: Lang) {
      const p = parsePaging(query);
      const idInput = (query.id ?? '').trim();
      // a malformed id is no withdrawal of theirs: the detail page shows "not found"
      if (idInput && !/^\d{1,15}$/.test(idInput)) return { list: [], page: p.page, limit: p.limit, total: 0 };
      const cond = idInput ? 'AND id = $2' : '';
      const page = await pageOf<WithdrawalListRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM withdrawals WHERE user_id = $1 ${cond}`,
          list: `${WITHDRAWAL_LIST} WHERE user_id = $1 ${cond} ORDER BY id DESC`,
        },
        idInput ? [userId, idInput] : [userId],
        p,
      );
      return recordPage(db, page, p, (r, cur) => toRecord(r, cur, lang));
    },
  };
}
