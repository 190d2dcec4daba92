import type {
  CurrencyBalance,
  CurrencyInfo,
  Lang,
  LedgerFlow,
  LegalLogBody,
  WalletAccount,
  WalletDetail,
  WalletDetailBody,
  WalletList,
} from '@verdant/api';
import { CURRENCY_IDS, WALLET_ACCOUNT_TYPES } from '@verdant/api';
import { addDecimal, compareDecimal, dec } from '@verdant/engine';
import { parsePaging } from '../../db/paging.ts';
import { hasMessage, t } from '../../i18n/index.ts';
import { type Currency, chainsOn, listCurrencies } from '../../ledger/currencies.ts';
import type { UserAccountType } from '../../ledger/ledger.ts';
import { type StatementEntry, statement, userBalances } from '../../ledger/statement.ts';
import { type UsdtPrices, usdtPrices } from './prices.ts';
import { currencyFilter, currencyOf, iso, parseAccountType, show, type WalletDeps } from './shared.ts';

/** How many of the latest flows an account's detail shows. */
const DETAIL_FLOWS = 20;

type Balance = { available: string; frozen: string };

function toCurrencyInfo(c: Currency): CurrencyInfo {
  return {
    id: c.id,
    symbol: c.symbol,
    name: c.name,
    decimals: c.decimals,
    chains: chainsOn(c),
    is_fiat: c.is_fiat,
    min_deposit: show(c.min_deposit, c.decimals),
    min_withdraw: show(c.min_withdraw, c.decimals),
    withdraw_fee: show(c.withdraw_fee, c.decimals),
    can_deposit: c.can_deposit,
    can_withdraw: c.can_withdraw,
  };
}

function reasonText(lang: Lang, reason: string): string {
  const key = `wallet.reason.${reason}`;
  return hasMessage(key) ? t(lang, key) : reason;
}

function toFlow(r: StatementEntry, lang: Lang): LedgerFlow {
  return {
    id: r.id,
    time: iso(r.created_at),
    type: r.type,
    currency_id: r.currency_id,
    symbol: r.symbol,
    reason: r.reason,
    reason_text: reasonText(lang, r.reason),
    delta_available: show(r.delta_available, r.decimals),
    delta_frozen: show(r.delta_frozen, r.decimals),
    available_after: show(r.available_after, r.decimals),
    frozen_after: show(r.frozen_after, r.decimals),
    ref_type: r.ref_type,
    ref_id: r.ref_id,
  };
}

/** One currency in one account: exact total, and its display with the USDT value. */
function valuation(
  c: Currency,
  b: Balance | undefined,
  usdtDecimals: number,
  prices: UsdtPrices,
): { view: CurrencyBalance; exactUsdt: string | null; total: string } {
  const available = b?.available ?? '0';
  const frozen = b?.frozen ?? '0';
  const total = addDecimal(available, frozen);
  const price = prices.get(c.id) ?? null;
  const exactUsdt = price === null ? null : dec(total).times(price).toFixed();
  return {
    total,
    exactUsdt,
    view: {
      currency_id: c.id,
      symbol: c.symbol,
      name: c.name,
      decimals: c.decimals,
      total: show(total, c.decimals),
      available: show(available, c.decimals),
      frozen: show(frozen, c.decimals),
      usdt_value: exactUsdt === null ? null : show(exactUsdt, usdtDecimals),
    },
  };
}

const usdtDecimalsOf = (all: readonly Currency[]) =>
  all.find((c) => c.id === CURRENCY_IDS.USDT)?.decimals ?? 6;

/** Balances and their flows: the assets tab, an account's detail, the statement. */
export function makeBalances({ db }: WalletDeps) {
  /** The user's balances by "type:currency id". */
  async function balances(userId: number): Promise<Map<string, Balance>> {
    return new Map((await userBalances(db, userId)).map((b) => [`${b.type}:${b.currency_id}`, b]));
  }

  return {
    async currencyList(): Promise<CurrencyInfo[]> {
      return (await listCurrencies(db)).map(toCurrencyInfo);
    },

    /** wallet/list: four accounts × every currency, valued in USDT where a price exists. */
    async list(userId: number): Promise<WalletList> {
      const all = await listCurrencies(db);
      const have = await balances(userId);
      const usdtDecimals = usdtDecimalsOf(all);
      const prices = await usdtPrices(db);
      let grand = dec('0');
      let allValued = true;
      const accounts: WalletAccount[] = WALLET_ACCOUNT_TYPES.map((type) => {
        let sum = dec('0');
        let valued = true;
        const rows = all.map((c) => {
          const b = valuation(c, have.get(`${type}:${c.id}`), usdtDecimals, prices);
          if (b.exactUsdt === null) {
            if (compareDecimal(b.total, '0') !== 0) valued = false;
          } else sum = sum.plus(b.exactUsdt);
          return b.view;
        });
        grand = grand.plus(sum);
        allValued &&= valued;
        return { type, total_usdt: show(sum.toFixed(), usdtDecimals), valued, currencies: rows };
      });
      return { total_usdt: show(grand.toFixed(), usdtDecimals), valued: allValued, accounts };
    },

    async detail(userId: number, body: WalletDetailBody, lang: Lang): Promise<WalletDetail> {
      const cur = await currencyOf(db, body.currency_id);
      const type = parseAccountType(body.type, 'type');
      const b = valuation(
        cur,
        (await balances(userId)).get(`${type}:${cur.id}`),
        usdtDecimalsOf(await listCurrencies(db)),
        await usdtPrices(db),
      );
      const { rows } = await statement(
        db,
        { userId, type, currencyId: cur.id },
        { page: 1, limit: DETAIL_FLOWS, offset: 0 },
      );
      return {
        type,
        currency_id: cur.id,
        symbol: cur.symbol,
        name: cur.name,
        decimals: cur.decimals,
        total: b.view.total,
        available: b.view.available,
        frozen: b.view.frozen,
        usdt_value: b.view.usdt_value,
        flows: rows.map((r) => toFlow(r, lang)),
      };
    },

    /** wallet/legal_log: the statement, paged, optionally of one account type and currency. */
    async legalLog(userId: number, body: LegalLogBody, lang: Lang) {
      const type: UserAccountType | undefined = (body.type ?? '').trim()
        ? parseAccountType(body.type, 'type')
        : undefined;
      const currencyId = await currencyFilter(db, body.currency_id);
      const p = parsePaging(body);
      const { rows, total } = await statement(db, { userId, type, currencyId }, p);
      return { list: rows.map((r) => toFlow(r, lang)), page: p.page, limit: p.limit, total };
    },
  };
}
