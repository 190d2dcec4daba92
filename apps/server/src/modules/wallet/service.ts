import type { AppContext } from '../../context.ts';
import { bankService } from '../bank/service.ts';
import { codesService } from '../codes/service.ts';
import { uploadsService } from '../uploads/service.ts';
import { userService } from '../user/service.ts';
import { makeBalances } from './balances.ts';
import { parseBankDetails } from './bank-details.ts';
import { makeDemoFunds } from './demo-funds.ts';
import { makeDeposits } from './deposits.ts';
import type { DepositKeys } from './keys.ts';
import type { WalletDeps } from './shared.ts';
import { makeTransfers } from './transfers.ts';
import { makeWithdrawAddresses } from './withdraw-addresses.ts';
import { makeWithdrawals } from './withdrawals.ts';

export { type UsdtPrices, usdtPrices } from './prices.ts';
// What other modules may use of the wallet: the operators' review of deposits and withdrawals.
export {
  demoFundsOf,
  type MoneyRequestKind,
  moneyRequest,
  moneyRequestPage,
  moneyRequestTotals,
  type StoredMoneyRequest,
} from './requests.ts';
export {
  approveDeposit,
  approveWithdrawal,
  type DepositRow,
  rejectDeposit,
  rejectWithdrawal,
  type WithdrawalRow,
} from './review.ts';
export { parseBankDetails };

/**
 * The user's wallet, one part per sub-domain: balances and flows, transfers, deposits,
 * withdrawal addresses, withdrawals. A malformed BANK_DETAILS stops the server here, at start.
 */
export function walletService(ctx: AppContext, keys: DepositKeys) {
  const deps: WalletDeps = {
    db: ctx.db,
    users: userService(ctx),
    codes: codesService(ctx),
    uploads: uploadsService(ctx),
    bankCards: bankService(ctx),
    bankDetails: parseBankDetails(ctx.config.bankDetails),
    keys,
  };
  return {
    ...makeBalances(deps),
    ...makeTransfers(deps),
    ...makeDeposits(deps),
    ...makeWithdrawAddresses(deps),
    ...makeWithdrawals(deps),
    ...makeDemoFunds(deps, ctx.config.demoFunds),
  };
}
export type WalletService = ReturnType<typeof walletService>;
