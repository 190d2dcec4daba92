import type { AdminDashboard, LedgerCheck } from '@verdant/api';
import type { Db } from '../../db/client.ts';
import { currenciesById } from '../../ledger/currencies.ts';
import { houseBalances } from '../../ledger/statement.ts';
import { verifyLedger } from '../../ledger/verify.ts';
import { openInterest } from '../contract/service.ts';
import { marketVolumes } from '../market/service.ts';
import { userCounts } from '../user/service.ts';
import { type MoneyRequestKind, moneyRequestTotals } from '../wallet/service.ts';

/** The pools whose results the dashboard shows: what the house won (> 0) or lost (< 0) in all. */
const POOLS = ['option_pool', 'contract_pool'] as const;
/** The ledger check shows at most this many problems (the verify command prints them all). */
const PROBLEMS_SHOWN = 100;

/** Midnight UTC of today: "today" of the dashboard (docs/decisions.md, Operator dashboard). */
export const startOfDayUtc = (now = new Date()) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** The operators' dashboard, each figure read through the module that owns it. */
export async function dashboard(db: Db, adjustmentsPending: number): Promise<AdminDashboard> {
  const since = startOfDayUtc();
  const day = new Date(Date.now() - 24 * 3600_000);
  const currencies = await currenciesById(db);
  const symbol = (id: number) => currencies.get(id)?.symbol ?? String(id);
  const money = async (kind: MoneyRequestKind) => {
    const rows = await moneyRequestTotals(db, kind, since);
    const pick = (b: 'pending' | 'approved') =>
      rows
        .filter((r) => r.bucket === b)
        .map((r) => ({ symbol: symbol(r.currency_id), count: r.count, amount: r.amount }));
    return { pending: pick('pending'), approved_today: pick('approved') };
  };
  const [users, deposits, withdrawals, volumes, interest, pools] = await Promise.all([
    userCounts(db, since),
    money('deposit'),
    money('withdrawal'),
    marketVolumes(db, day),
    openInterest(db),
    houseBalances(db, POOLS),
  ]);
  return {
    users,
    since: since.toISOString(),
    deposits,
    withdrawals,
    spot_volumes: volumes,
    open_interest: interest,
    house_results: pools.map((p) => ({ house: p.house, symbol: symbol(p.currency_id), balance: p.balance })),
    adjustments_pending: adjustmentsPending,
  };
}

/** Runs the ledger verification (ledger/verify.ts) and answers its report. */
export async function ledgerCheck(db: Db): Promise<LedgerCheck> {
  const r = await verifyLedger(db);
  return {
    ok: r.problems.length === 0,
    accounts: r.accounts,
    entries: r.entries,
    journals: r.journals,
    problems: r.problems.slice(0, PROBLEMS_SHOWN),
    checked_at: new Date().toISOString(),
  };
}
