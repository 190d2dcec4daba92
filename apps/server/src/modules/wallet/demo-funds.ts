import { CURRENCY_IDS, type DemoFundsInfo } from '@verdant/api';
import { AppError } from '../../http/errors.ts';
import { findCurrency } from '../../ledger/currencies.ts';
import { post } from '../../ledger/ledger.ts';
import { show, spot, type WalletDeps } from './shared.ts';

/** What a newcomer may take once to try trading (docs/decisions.md, Demo funds). */
export const DEMO_FUNDS = { currencyId: CURRENCY_IDS.USDT, amount: '10000' } as const;

/**
 * Demo funds (issue 23): while nothing can really be deposited, because every chain runs on the
 * development keys, a user may take 10,000 USDT once, from the treasury through the ledger,
 * marked 'demo_funds' in the journal and in the demo_funds row that makes it once per user.
 * Never with a real key configured, and off with DEMO_FUNDS=0.
 */
export function makeDemoFunds({ db, keys }: WalletDeps, enabled: boolean) {
  const offeredHere = enabled && Object.values(keys).every((k) => k.source === 'development');

  async function info(userId: number): Promise<DemoFundsInfo> {
    const cur = await findCurrency(db, DEMO_FUNDS.currencyId);
    const [taken] = await db.query('SELECT 1 FROM demo_funds WHERE user_id = $1', [userId]);
    return {
      offered: offeredHere && !taken && !!cur,
      taken: !!taken,
      amount: show(DEMO_FUNDS.amount, cur?.decimals ?? 2),
      symbol: cur?.symbol ?? 'USDT',
    };
  }

  return {
    demoFundsInfo: info,

    /** wallet/demo_funds (POST): the first request credits; any other, however close, is refused. */
    async takeDemoFunds(userId: number): Promise<DemoFundsInfo> {
      if (!offeredHere) throw new AppError('DEMO_FUNDS_OFF', 'wallet.demoFundsOff');
      const { currencyId, amount } = DEMO_FUNDS;
      const credited = await db.tx(async (q) => {
        // the primary key decides between parallel requests: the losers insert nothing
        const [row] = await q.query(
          `INSERT INTO demo_funds (user_id, currency_id, amount) VALUES ($1, $2, $3)
           ON CONFLICT (user_id) DO NOTHING RETURNING user_id`,
          [userId, currencyId, amount],
        );
        if (!row) return false;
        await post(q, {
          reason: 'demo_funds',
          refType: 'demo_funds',
          refId: userId,
          legs: [
            { account: { house: 'treasury', currencyId }, available: `-${amount}` },
            { account: spot(userId, currencyId), available: amount },
          ],
        });
        return true;
      });
      if (!credited) throw new AppError('DEMO_FUNDS_TAKEN', 'wallet.demoFundsTaken');
      return info(userId);
    },
  };
}
