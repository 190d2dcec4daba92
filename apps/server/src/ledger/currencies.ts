import type { Queryable } from '../db/client.ts';
import { canon } from '../db/values.ts';

/**
 * The currencies table belongs to the ledger (its accounts are kept in them): every module reads
 * currencies here rather than with its own SQL. Amounts come back as canonical decimal strings.
 */
export interface Currency {
  id: number;
  symbol: string;
  name: string;
  decimals: number;
  /** Every network the currency exists on, switched on or off. */
  chains: string[];
  /** The chains operators switched off (some of `chains`): users are offered the others. */
  chains_off: string[];
  is_fiat: boolean;
  min_deposit: string;
  min_withdraw: string;
  withdraw_fee: string;
  can_deposit: boolean;
  can_withdraw: boolean;
}

const COLUMNS = `id, symbol, name, decimals, chains, chains_off, is_fiat, min_deposit::text AS min_deposit,
  min_withdraw::text AS min_withdraw, withdraw_fee::text AS withdraw_fee, can_deposit, can_withdraw`;

const canonical = (c: Currency): Currency => ({
  ...c,
  min_deposit: canon(c.min_deposit),
  min_withdraw: canon(c.min_withdraw),
  withdraw_fee: canon(c.withdraw_fee),
});

/** The chains users may deposit and withdraw on now, in the currency's order. */
export function chainsOn(c: Pick<Currency, 'chains' | 'chains_off'>): string[] {
  return c.chains.filter((ch) => !c.chains_off.includes(ch));
}

/** Every currency, in the order screens list them. */
export async function listCurrencies(q: Queryable): Promise<Currency[]> {
  return (await q.query<Currency>(`SELECT ${COLUMNS} FROM currencies ORDER BY sort, id`)).map(canonical);
}

/** One currency by id, or null. */
export async function findCurrency(q: Queryable, id: number): Promise<Currency | null> {
  const [row] = await q.query<Currency>(`SELECT ${COLUMNS} FROM currencies WHERE id = $1`, [id]);
  return row ? canonical(row) : null;
}

/** Every currency by id (for lists whose rows carry only a currency id). */
export async function currenciesById(q: Queryable): Promise<ReadonlyMap<number, Currency>> {
  return new Map((await listCurrencies(q)).map((c) => [c.id, c]));
}

/** What operators set on a currency (issue 23); the rest (symbol, decimals, its chains) is fixed. */
export interface CurrencySettings {
  chains_off: string[];
  min_deposit: string;
  min_withdraw: string;
  withdraw_fee: string;
  can_deposit: boolean;
  can_withdraw: boolean;
}

/** One currency, its row locked until the caller's transaction ends (an operator's change). */
export async function lockCurrency(q: Queryable, id: number): Promise<Currency | null> {
  const [row] = await q.query<Currency>(`SELECT ${COLUMNS} FROM currencies WHERE id = $1 FOR UPDATE`, [id]);
  return row ? canonical(row) : null;
}

/** Writes an operator's settings of a currency (checked by the caller and by the table's CHECK). */
export async function updateCurrency(q: Queryable, id: number, s: CurrencySettings): Promise<void> {
  await q.query(
    `UPDATE currencies SET min_deposit = $2, min_withdraw = $3, withdraw_fee = $4, can_deposit = $5,
            can_withdraw = $6, chains_off = $7::text[] WHERE id = $1`,
    [id, s.min_deposit, s.min_withdraw, s.withdraw_fee, s.can_deposit, s.can_withdraw, s.chains_off],
  );
}
