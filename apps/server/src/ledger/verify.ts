import type { Queryable } from '../db/client.ts';

export interface VerifyReport {
  accounts: number;
  entries: number;
  journals: number;
  problems: string[];
}

/**
 * Recomputes every balance from its entries and checks that value is only ever moved:
 * each journal and each currency sums to zero, and no user account is below zero.
 */
export async function verifyLedger(q: Queryable): Promise<VerifyReport> {
  const problems: string[] = [];
  const [counts] = await q.query<{ accounts: number; entries: number; journals: number }>(
    `SELECT (SELECT count(*) FROM ledger_accounts)::int AS accounts,
            (SELECT count(*) FROM ledger_entries)::int AS entries,
            (SELECT count(*) FROM ledger_journals)::int AS journals`,
  );
  const drift = await q.query<{ id: string; available: string; frozen: string; sa: string; sf: string }>(
    `SELECT a.id::text, a.available::text, a.frozen::text,
            COALESCE(e.sa, 0)::text AS sa, COALESCE(e.sf, 0)::text AS sf
       FROM ledger_accounts a
       LEFT JOIN (SELECT account_id, sum(delta_available) AS sa, sum(delta_frozen) AS sf
                    FROM ledger_entries GROUP BY account_id) e ON e.account_id = a.id
      WHERE a.available <> COALESCE(e.sa, 0) OR a.frozen <> COALESCE(e.sf, 0)`,
  );
  for (const d of drift) {
    problems.push(`account ${d.id}: balance ${d.available}/${d.frozen} but entries sum to ${d.sa}/${d.sf}`);
  }
  const lastAfter = await q.query<{ id: string }>(
    `SELECT a.id::text FROM ledger_accounts a
       JOIN LATERAL (SELECT available_after, frozen_after FROM ledger_entries
                      WHERE account_id = a.id ORDER BY id DESC LIMIT 1) l ON true
      WHERE l.available_after <> a.available OR l.frozen_after <> a.frozen`,
  );
  for (const d of lastAfter)
    problems.push(`account ${d.id}: its last entry's balance-after differs from the balance`);
  const currencies = await q.query<{ currency_id: number; total: string }>(
    `SELECT currency_id, sum(available + frozen)::text AS total FROM ledger_accounts
      GROUP BY currency_id HAVING sum(available + frozen) <> 0`,
  );
  for (const c of currencies) problems.push(`currency ${c.currency_id}: accounts sum to ${c.total}, not 0`);
  const journals = await q.query<{ journal_id: string; currency_id: number; total: string }>(
    `SELECT e.journal_id::text, a.currency_id, sum(e.delta_available + e.delta_frozen)::text AS total
       FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
      GROUP BY e.journal_id, a.currency_id HAVING sum(e.delta_available + e.delta_frozen) <> 0`,
  );
  for (const j of journals)
    problems.push(`journal ${j.journal_id}: currency ${j.currency_id} sums to ${j.total}, not 0`);
  const negative = await q.query<{ id: string }>(
    'SELECT id::text FROM ledger_accounts WHERE user_id IS NOT NULL AND (available < 0 OR frozen < 0)',
  );
  for (const n of negative) problems.push(`account ${n.id}: a user balance below zero`);
  return { ...counts!, problems };
}
