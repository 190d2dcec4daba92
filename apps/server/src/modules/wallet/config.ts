import type {
  BankDetails,
  ConfigBankDetailsBody,
  ConfigCurrency,
  ConfigCurrencyBody,
  Lang,
} from '@verdant/api';
import { compareDecimal } from '@verdant/engine';
import type { AppContext } from '../../context.ts';
import { type Currency, listCurrencies, lockCurrency, updateCurrency } from '../../ledger/currencies.ts';
import { auditedChange, ConfigFields, type OperatorSession } from '../admin/service.ts';
import { chainFamily } from './addresses.ts';
import { currentBankDetails, parseBankDetails, saveBankDetails, storedBankDetails } from './bank-details.ts';

/** Amounts an operator may set: far above any real minimum or fee, below the columns' range. */
const MAX_SETTING = '1000000000';

const toConfig = (c: Currency): ConfigCurrency => ({
  id: c.id,
  symbol: c.symbol,
  name: c.name,
  decimals: c.decimals,
  chains: c.chains,
  chains_off: c.chains_off,
  is_fiat: c.is_fiat,
  min_deposit: c.min_deposit,
  min_withdraw: c.min_withdraw,
  withdraw_fee: c.withdraw_fee,
  can_deposit: c.can_deposit,
  can_withdraw: c.can_withdraw,
});

/**
 * The chains an operator switches off: `chains_off`, names separated by commas (left out: as
 * they are). A chain stays off unless deposit addresses can be made on it, and a crypto currency
 * open to deposits keeps at least one chain on (users would have nowhere to send).
 */
function chainsOffOf(f: ConfigFields, cur: Currency, canDeposit: boolean): string[] {
  const raw = f.optionalText('chains_off', 200);
  if (raw === undefined) return cur.chains_off;
  const off: string[] = [];
  for (const name of raw
    .split(',')
    .map((x) => x.trim().toUpperCase())
    .filter(Boolean)) {
    const chain = cur.chains.find((c) => c.toUpperCase() === name);
    if (!chain) throw f.fail('chains_off', 'chainUnknown', { chain: name.slice(0, 20), symbol: cur.symbol });
    if (!off.includes(chain)) off.push(chain);
  }
  const on = cur.chains.filter((c) => !off.includes(c));
  const unsupported = on.find((c) => chainFamily(c) === null);
  if (unsupported) throw f.fail('chains_off', 'chainUnsupported', { chain: unsupported });
  if (!cur.is_fiat && canDeposit && on.length === 0)
    throw f.fail('chains_off', 'chainsNoneOn', { symbol: cur.symbol });
  // in the currency's own order, so the audit's before and after compare
  return cur.chains.filter((c) => off.includes(c));
}

/**
 * Operators' side of currencies (the ledger's table, its settings read on each request by the
 * wallet) and of the platform's bank account. Balances are not here: nothing in configuration
 * moves money.
 */
export function walletConfig(ctx: AppContext) {
  const { db } = ctx;
  const envBank = parseBankDetails(ctx.config.bankDetails);

  return {
    async currencies(): Promise<ConfigCurrency[]> {
      return (await listCurrencies(db)).map(toConfig);
    },

    /** Minimums, fee and whether deposits and withdrawals are open; audited. */
    async saveCurrency(
      op: OperatorSession,
      ip: string,
      body: ConfigCurrencyBody,
      lang: Lang,
    ): Promise<ConfigCurrency> {
      const f = new ConfigFields(body, lang);
      const id = f.integer('id', 1, 999_999_999);
      const current = (await listCurrencies(db)).find((c) => c.id === id);
      if (!current) throw f.fail('id', 'unknown');
      const amount = (field: string) =>
        f.decimal(field, { min: '0', max: MAX_SETTING, places: current.decimals });
      const minDeposit = amount('min_deposit');
      const minWithdraw = amount('min_withdraw');
      const fee = amount('withdraw_fee');
      // the smallest withdrawal pays its fee and still sends something
      if (compareDecimal(fee, minWithdraw) > 0)
        throw f.fail('withdraw_fee', 'notAbove', { max: minWithdraw });
      const canDeposit = f.flag('can_deposit');
      const canWithdraw = f.flag('can_withdraw');
      const chainsOff = chainsOffOf(f, current, canDeposit);
      const after = await auditedChange(db, {
        op,
        ip,
        action: 'config.currency.save',
        targetType: 'currency',
        targetId: id,
        read: async (q) => {
          const c = await lockCurrency(q, id);
          return c ? toConfig(c) : null;
        },
        write: (q) =>
          updateCurrency(q, id, {
            min_deposit: minDeposit,
            min_withdraw: minWithdraw,
            withdraw_fee: fee,
            can_deposit: canDeposit,
            can_withdraw: canWithdraw,
            chains_off: chainsOff,
          }),
      });
      await ctx.changes.changed('currencies');
      return after;
    },

    /** The account bank deposits go to, as users see it now. */
    bankDetails: (): Promise<BankDetails> => currentBankDetails(db, envBank),

    async saveBankDetails(
      op: OperatorSession,
      ip: string,
      body: ConfigBankDetailsBody,
      lang: Lang,
    ): Promise<BankDetails> {
      const f = new ConfigFields(body, lang);
      const details = {
        bank_name: f.text('bank_name', 100),
        account_name: f.text('account_name', 100),
        account_number: f.text('account_number', 60),
        swift: f.text('swift', 20),
        bank_address: f.text('bank_address', 200, false),
        remark: f.text('remark', 200, false),
      };
      await auditedChange(db, {
        op,
        ip,
        action: 'config.bank_details.save',
        targetType: 'bank_details',
        targetId: 'platform',
        // before the first save, the audit shows what users saw: the environment's account
        read: async (q) => (await storedBankDetails(q, true)) ?? { ...envBank },
        write: (q) => saveBankDetails(q, details),
      });
      await ctx.changes.changed('bank');
      return currentBankDetails(db, envBank);
    },
  };
}
