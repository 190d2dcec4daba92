import {
  type DepositAddress,
  type DepositAddressBody,
  type DepositRecord,
  type DepositRequestBody,
  type Lang,
  Paths,
  type WalletPageQuery,
} from '@verdant/api';
import { pageOf, parsePaging } from '../../db/paging.ts';
import { isUniqueViolation } from '../../db/values.ts';
import { AppError, invalid } from '../../http/errors.ts';
import type { Currency } from '../../ledger/currencies.ts';
import { addressFor, chainFamily } from './addresses.ts';
import { currentBankDetails } from './bank-details.ts';
import { depositPath } from './keys.ts';
import type { DepositRow } from './review.ts';
import {
  assertCurrencyOpen,
  assertMinimum,
  chainOf,
  currencyOf,
  parseAmount,
  recordPage,
  requestRecord,
  show,
  type WalletDeps,
} from './shared.ts';

/** A deposit as the user's records read it. */
type DepositListRow = Omit<DepositRow, 'user_id' | 'reviewed_by'>;

const DEPOSIT_LIST = `SELECT id, currency_id, chain, address, amount::text AS amount, image, status, reject_reason,
    created_at, reviewed_at
  FROM deposits`;

function toRecord(r: DepositListRow, cur: Currency, lang: Lang): DepositRecord {
  return {
    ...requestRecord(r, cur, lang),
    amount: show(r.amount, cur.decimals),
    image: r.image,
    image_url: `/api/${Paths.upload}/${r.image}`,
  };
}

/** Deposits: the user's own addresses, deposit requests with their proof, and their records. */
export function makeDeposits({ db, uploads, keys, bankDetails }: WalletDeps) {
  /** The user's address for a currency and chain: made once, then always the same. */
  async function depositAddressOf(userId: number, cur: Currency, chain: string): Promise<string> {
    const find = async () =>
      (
        await db.query<{ address: string }>(
          'SELECT address FROM deposit_addresses WHERE user_id = $1 AND currency_id = $2 AND chain = $3',
          [userId, cur.id, chain],
        )
      )[0]?.address;
    const existing = await find();
    if (existing) return existing;
    const family = chainFamily(chain);
    if (!family)
      throw new AppError(
        'CURRENCY_UNAVAILABLE',
        'wallet.chainUnsupported',
        { chain, symbol: cur.symbol },
        'chain',
      );
    const fk = keys[family];
    // non-hardened children of an extended public key: <key>/<currency id>/<user id>
    const child = fk.key.deriveChild(cur.id).deriveChild(userId);
    const address = addressFor(family, child.publicKey!);
    await db.query(
      `INSERT INTO deposit_addresses (user_id, currency_id, chain, address, key_fingerprint, derivation_path)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [userId, cur.id, chain, address, fk.fingerprint, depositPath(fk, cur.id, userId)],
    );
    const made = await find();
    // only a key reused across families or a changed key could collide with another user's address
    if (!made) throw new Error(`deposit address for user ${userId} ${cur.symbol}/${chain} collides`);
    return made;
  }

  return {
    /** wallet/get_in_address: the user's own deposit address, or the platform's bank account. */
    async depositAddress(userId: number, body: DepositAddressBody): Promise<DepositAddress> {
      const cur = await currencyOf(db, body.currency_id);
      assertCurrencyOpen(cur, 'deposit');
      const base = {
        currency_id: cur.id,
        symbol: cur.symbol,
        min_deposit: show(cur.min_deposit, cur.decimals),
      };
      if (cur.is_fiat)
        return { ...base, chain: null, address: null, bank: await currentBankDetails(db, bankDetails) };
      const chain = chainOf(cur, body.chain);
      return { ...base, chain, address: await depositAddressOf(userId, cur, chain), bank: null };
    },

    /** wallet/charge_req: a deposit request waiting for review; no balance changes yet. */
    async requestDeposit(userId: number, body: DepositRequestBody, lang: Lang): Promise<DepositRecord> {
      const cur = await currencyOf(db, body.currency_id);
      assertCurrencyOpen(cur, 'deposit');
      const chain = cur.is_fiat ? null : chainOf(cur, body.chain);
      const amount = parseAmount(body.amount, cur);
      assertMinimum(amount, cur, 'deposit');
      const imageInput = (body.image ?? '').trim();
      if (!imageInput) throw invalid('wallet.proofRequired', 'image');
      const image = await uploads.assertOwned(userId, imageInput, 'image');
      const address = chain ? await depositAddressOf(userId, cur, chain) : null;
      let id: number;
      try {
        const [row] = await db.query<{ id: number }>(
          `INSERT INTO deposits (user_id, currency_id, chain, address, amount, image)
           VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
          [userId, cur.id, chain, address, amount, image],
        );
        id = row!.id;
      } catch (e) {
        if (isUniqueViolation(e)) throw new AppError('CONFLICT', 'wallet.depositDuplicate', {}, 'image');
        throw e;
      }
      const [row] = await db.query<DepositListRow>(`${DEPOSIT_LIST} WHERE id = $1`, [id]);
      return toRecord(row!, cur, lang);
    },

    async deposits(userId: number, query: WalletPageQuery, lang: Lang) {
      const p = parsePaging(query);
      const page = await pageOf<DepositListRow>(
        db,
        {
          count: 'SELECT count(*)::int AS n FROM deposits WHERE user_id = $1',
          list: `${DEPOSIT_LIST} WHERE user_id = $1 ORDER BY id DESC`,
        },
        [userId],
        p,
      );
      return recordPage(db, page, p, (r, cur) => toRecord(r, cur, lang));
    },
  };
}
