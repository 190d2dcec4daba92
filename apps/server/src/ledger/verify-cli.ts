// `npm run ledger:verify`: checks the ledger of the database the server uses (DATA_DIR or
// DATABASE_URL); exits 1 on any difference. With PGlite, stop the server first: the embedded
// database allows one process at a time.
import { loadConfig } from '../config.ts';
import { openDb } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';
import { verifyLedger } from './verify.ts';

const config = loadConfig();
const db = await openDb({ url: config.databaseUrl, dataDir: config.dataDir, schema: config.databaseSchema });
try {
  await migrate(db);
  const r = await verifyLedger(db);
  console.log(`ledger: ${r.accounts} accounts, ${r.journals} journals, ${r.entries} entries`);
  for (const p of r.problems) console.log(`  PROBLEM ${p}`);
  console.log(
    r.problems.length
      ? `ledger: ${r.problems.length} problem(s)`
      : 'ledger: clean (every balance equals its entries; every currency sums to zero; frozen funds are what open orders and pending withdrawals hold)',
  );
  process.exitCode = r.problems.length ? 1 : 0;
} finally {
  await db.close();
}
