import type { TransferBody, TransferHistoryQuery, TransferRecord } from '@verdant/api';
import { pageOf, parsePaging } from '../../db/paging.ts';
import { invalid } from '../../http/errors.ts';
import type { Currency } from '../../ledger/currencies.ts';
import { post, type UserAccountType } from '../../ledger/ledger.ts';
import {
  currencyFilter,
  currencyOf,
  insufficient,
  iso,
  negate,
  parseAccountType,
  parseAmount,
  recordPage,
  show,
  type WalletDeps,
} from './shared.ts';

interface TransferRow {
  id: number;
  currency_id: number;
  from_type: UserAccountType;
  to_type: UserAccountType;
  amount: string;
  created_at: Date;
}

function toRecord(r: TransferRow, cur: Currency): TransferRecord {
  return {
    id: r.id,
    currency_id: cur.id,
    symbol: cur.symbol,
    from: r.from_type,
    to: r.to_type,
    amount: show(r.amount, cur.decimals),
    created_at: iso(r.created_at),
  };
}

/** Transfers between the user's own accounts. */
export function makeTransfers({ db }: WalletDeps) {
  return {
    /** wallet/change: between the user's own accounts, one posting. */
    async transfer(userId: number, body: TransferBody): Promise<TransferRecord> {
      const cur = await currencyOf(db, body.currency_id);
      const from = parseAccountType(body.from, 'from');
      const to = parseAccountType(body.to, 'to');
      if (from === to) throw invalid('wallet.sameAccount', 'to');
      const amount = parseAmount(body.amount, cur);
      const row = await db
        .tx(async (q) => {
          const [tr] = await q.query<{ id: number; created_at: Date }>(
            `INSERT INTO transfers (user_id, currency_id, from_type, to_type, amount) VALUES ($1, $2, $3, $4, $5)
             RETURNING id, created_at`,
            [userId, cur.id, from, to, amount],
          );
          await post(q, {
            reason: 'transfer',
            refType: 'transfer',
            refId: tr!.id,
            legs: [
              { account: { userId, type: from, currencyId: cur.id }, available: negate(amount) },
              { account: { userId, type: to, currencyId: cur.id }, available: amount },
            ],
          });
          return tr!;
        })
        .catch(insufficient);
      return toRecord({ ...row, currency_id: cur.id, from_type: from, to_type: to, amount }, cur);
    },

    async transfers(userId: number, query: TransferHistoryQuery) {
      const currencyId = await currencyFilter(db, query.currency_id);
      const p = parsePaging(query);
      const cond = currencyId === undefined ? '' : 'AND currency_id = $2';
      const page = await pageOf<TransferRow>(
        db,
        {
          count: `SELECT count(*)::int AS n FROM transfers WHERE user_id = $1 ${cond}`,
          list: `SELECT id, currency_id, from_type, to_type, amount::text AS amount, created_at
                   FROM transfers WHERE user_id = $1 ${cond}
                  ORDER BY id DESC`,
        },
        currencyId === undefined ? [userId] : [userId, currencyId],
        p,
      );
      return recordPage(db, page, p, toRecord);
    },
  };
}
