/**
 * Where one option settlement pass spends its time: seeds 10,000 due orders as the options bench
 * does, then runs one pass with every statement timed (`npx tsx scripts/bench/options-profile.ts
 * [postgres-url]`; add `node --cpu-prof` through NODE_OPTIONS for a CPU profile). A diagnostic,
 * not part of `npm run bench`.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { type Db, openDb, type Queryable } from '../../apps/server/src/db/client.ts';
import { migrate } from '../../apps/server/src/db/migrate.ts';
import { OptionSettler } from '../../apps/server/src/modules/option/settlement.ts';
import { optionTick, seedOptionOrders, seedOptionUsers } from './options.ts';

function timed(db: Db, log: { sql: string; ms: number }[]): Db {
  const wrap = (q: Queryable): Queryable => ({
    async query(sql, params) {
      const t = performance.now();
      // EXPLAIN=ledger: the ledger's write runs under EXPLAIN ANALYZE (executed, so the next batch
      // sees its effects); the journals' ids are not needed by settlement
      if (process.env.EXPLAIN?.includes('ledger') && sql.startsWith('WITH balances')) {
        const plan = await q.query<Record<string, string>>(`EXPLAIN (ANALYZE) ${sql}`, params);
        log.push({ sql: 'EXPLAIN ledger write', ms: performance.now() - t });
        console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
        return [{ journals: [] }] as never;
      }
      // EXPLAIN=orders: the orders' UPDATE runs under EXPLAIN ANALYZE (executed); it moves every row
      // it is given, which is the count settlement checks
      if (process.env.EXPLAIN?.includes('orders') && sql.startsWith('WITH u AS')) {
        const plan = await q.query<Record<string, string>>(`EXPLAIN (ANALYZE) ${sql}`, params);
        console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
        log.push({ sql: 'EXPLAIN orders update', ms: performance.now() - t });
        return [{ n: String(params![0]).split(',').length }] as never;
      }
      // EXPLAIN=due: the due orders' selection is explained first (it only reads), then run
      if (process.env.EXPLAIN?.includes('due') && sql.startsWith('WITH latest')) {
        const plan = await q.query<Record<string, string>>(`EXPLAIN (ANALYZE) ${sql}`, params);
        console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
      }
      try {
        return await q.query(sql, params);
      } finally {
        log.push({ sql: sql.replace(/\s+/g, ' ').slice(0, 70), ms: performance.now() - t });
      }
    },
  });
  return { ...db, query: wrap(db).query, tx: (fn) => db.tx((q) => fn(wrap(q))) } as Db;
}

const url = process.argv[2];
const schema = url ? `bench_prof_${Date.now()}` : undefined;
const db = await openDb(url ? { url, schema } : {});
try {
  await migrate(db);
  // USERS=n: owners of the 10,000 (the bench's 1,000 otherwise; 10000: one order each)
  const users = await seedOptionUsers(db, process.env.USERS ? Number(process.env.USERS) : undefined);
  const base = Date.now() - 120_000;
  await seedOptionOrders(db, users, 10_000, base, base + 30_000, 1);
  await optionTick(db, '67000.01', base + 31_000);
  const log: { sql: string; ms: number }[] = [];
  // BATCH=n: orders per transaction (the job's default otherwise)
  const batch = process.env.BATCH ? Number(process.env.BATCH) : undefined;
  const hooks = { onSettled: () => {}, onError: (e: unknown) => console.error(e) };
  const settler = new OptionSettler(timed(db, log), hooks, batch);
  // PROFILE=<file>: a CPU profile of the pass alone (open it in Chrome's DevTools)
  const session = process.env.PROFILE ? new Session() : null;
  const post = (method: string, params?: object) =>
    new Promise<unknown>((ok, fail) => session!.post(method, params, (e, r) => (e ? fail(e) : ok(r))));
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const n = await settler.settleDue(base + 31_000);
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (session) {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    writeFileSync(process.env.PROFILE!, JSON.stringify(profile));
    session.disconnect();
  }
  console.log(
    `settled ${n}: ${wall.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
  );
  for (const l of log) console.log(`${l.ms.toFixed(1).padStart(8)} ms  ${l.sql}`);
} finally {
  if (schema) await db.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => {});
  await db.close();
}
