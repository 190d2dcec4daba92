// Test-only: writes a new-coin project into the embedded database of DATA_DIR before the server
// starts there (one process at a time): open now, closing in CLOSE_S seconds, launching LAUNCH_S
// seconds from now with no lock-up, so an end-to-end test can see it through launch.
import { openDb } from '../../server/src/db/client.ts';
import { migrate } from '../../server/src/db/migrate.ts';

const db = await openDb({ dataDir: process.env.DATA_DIR });
await migrate(db);
const close = Number(process.env.CLOSE_S ?? '120');
const launch = Number(process.env.LAUNCH_S ?? '130');
await db.query(
  `INSERT INTO currencies (id, symbol, name, decimals, can_deposit, can_withdraw, sort)
   VALUES (50, 'EEC', 'E2E Coin', 4, false, false, 50)`,
);
await db.query(
  `INSERT INTO launchpad_projects (id, name, intro, coin_currency_id, pay_currency_id, issue_price, total_supply,
                                   user_min, user_max, starts_at, ends_at, launch_at, lockup_days, expected_return, sort)
   VALUES (50, '{"en":"E2E Coin","th":"E2E Coin"}', '{"en":"A coin made for the end-to-end test.","th":"เหรียญสำหรับการทดสอบ"}',
           50, 3, 0.25, 100000, 10, 1000, now() - interval '1 hour', now() + $1 * interval '1 second',
           now() + $2 * interval '1 second', 0, 0.2, 0)`,
  [close, launch],
);
await db.close();
