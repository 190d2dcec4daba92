import {
  type AddWithdrawAddressBody,
  WITHDRAW_ADDRESS_REMARK_MAX,
  WITHDRAW_ADDRESSES_MAX,
  type WithdrawAddress,
} from '@verdant/api';
import type { Queryable } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import { codeChannel, codeTarget, parseFundPassword } from '../../http/parse.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import { normalizeAddress } from './addresses.ts';
import {
  assertCurrencyOpen,
  chainOf,
  currencyFilter,
  currencyOf,
  iso,
  parseId,
  parseRemark,
  type WalletDeps,
} from './shared.ts';

interface SavedAddress {
  id: number;
  currency_id: number;
  chain: string;
  address: string;
  remark: string | null;
  created_at: Date;
}

/** The user's saved addresses, newest first, of one currency or all. */
export async function savedAddresses(
  q: Queryable,
  userId: number,
  currencyId?: number,
): Promise<SavedAddress[]> {
  return q.query<SavedAddress>(
    `SELECT id, currency_id, chain, address, remark, created_at FROM withdraw_addresses
      WHERE user_id = $1 ${currencyId === undefined ? '' : 'AND currency_id = $2'}
      ORDER BY id DESC`,
    currencyId === undefined ? [userId] : [userId, currencyId],
  );
}

/** Withdrawal addresses: saved once with the fund password and a code, then chosen by id. */
export function makeWithdrawAddresses({ db, users, codes }: WalletDeps) {
  return {
    async withdrawAddresses(userId: number, currencyInput: string | undefined): Promise<WithdrawAddress[]> {
      const currencyId = await currencyFilter(db, currencyInput);
      const rows = await savedAddresses(db, userId, currencyId);
      const currencies = await currenciesById(db);
      return rows.map((r) => ({
        ...r,
        symbol: currencies.get(r.currency_id)!.symbol,
        created_at: iso(r.created_at),
      }));
    },

    /**
     * wallet/addaddress: checked for its chain, confirmed with the fund password and a code
     * sent (purpose 'address') to the user's own phone or e-mail.
     */
    async addWithdrawAddress(userId: number, body: AddWithdrawAddressBody): Promise<WithdrawAddress> {
      const cur = await currencyOf(db, body.currency_id);
      if (cur.is_fiat) throw invalid('wallet.bankUsesCard', 'currency_id');
      assertCurrencyOpen(cur, 'withdraw');
      const chain = chainOf(cur, body.chain);
      const raw = (body.address ?? '').trim();
      if (!raw) throw invalid('wallet.addressRequired', 'address');
      const address = normalizeAddress(chain, raw);
      if (!address) throw new AppError('ADDRESS_INVALID', 'wallet.addressInvalid', { chain }, 'address');
      const remark = parseRemark(body.remark, WITHDRAW_ADDRESS_REMARK_MAX);
      const fundPassword = parseFundPassword(body.fund_password, 'fund_password');
      if (!(body.code ?? '').trim()) throw invalid('validation.codeRequired', 'code');
      const codeType = (body.code_type ?? '').trim();
      if (codeType && codeType !== 'mobile' && codeType !== 'email')
        throw invalid('validation.typeInvalid', 'code_type');
      const user = await users.center(userId);
      if (!user.has_fund_password)
        throw new AppError('FUND_PASSWORD_UNSET', 'fund.unset', {}, 'fund_password');
      const [counts] = await db.query<{ total: number; same: number }>(
        `SELECT count(*)::int AS total,
                count(*) FILTER (WHERE currency_id = $2 AND chain = $3 AND address = $4)::int AS same
           FROM withdraw_addresses WHERE user_id = $1`,
        [userId, cur.id, chain, address],
      );
      if ((counts?.same ?? 0) > 0) throw new AppError('CONFLICT', 'wallet.addressExists', {}, 'address');
      if ((counts?.total ?? 0) >= WITHDRAW_ADDRESSES_MAX)
        throw new AppError('CONFLICT', 'wallet.addressLimit', { max: WITHDRAW_ADDRESSES_MAX }, 'address');
      await users.verifyFundPassword(userId, fundPassword);
      const channel = codeChannel(codeType, !!user.email);
      const target = codeTarget(user, channel);
      // no code can have been sent to a contact the user does not have
      if (!target) throw new AppError('CODE_INVALID', 'codes.invalid', {}, 'code');
      const codeId = await codes.check({ channel, target, purpose: 'address' }, body.code);
      try {
        const row = await db.tx(async (q) => {
          await codes.consume(q, codeId);
          const [r] = await q.query<{ id: number; created_at: Date }>(
            `INSERT INTO withdraw_addresses (user_id, currency_id, chain, address, remark)
             VALUES ($1, $2, $3, $4, $5) RETURNING id, created_at`,
            [userId, cur.id, chain, address, remark],
          );
          return r!;
        });
        return {
          id: row.id,
          currency_id: cur.id,
          symbol: cur.symbol,
          chain,
          address,
          remark,
          created_at: iso(row.created_at),
        };
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'wallet.addressExists', {}, 'address');
        throw e;
      }
    },

    async deleteWithdrawAddress(userId: number, idInput: string | undefined): Promise<void> {
      const id = parseId(idInput);
      const rows =
        id === null
          ? []
          : await db.query('DELETE FROM withdraw_addresses WHERE id = $1 AND user_id = $2 RETURNING id', [
              id,
              userId,
            ]);
      if (rows.length === 0) throw new AppError('NOT_FOUND', 'errors.notFound', {}, 'id');
    },
  };
}
