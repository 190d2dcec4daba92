import type { Queryable } from '../db/client.ts';

export interface VerifyReport {
  accounts: number;
  entries: number;
  journals: number;
  problems: string[];
}

/**
 * Recomputes every balance from its entries and checks that value is only ever moved:
 * each journal and each currency sums to zero, and no user account is below zero. Then checks
 * that what is frozen is exactly what should be (see frozenProblems).
 */
export async function verifyLedger(
  q: Queryable,
  /** `frozen: false` skips the frozen check, for tests that post frozen legs with no order behind them. */
  opts: { frozen?: boolean } = {},
): Promise<VerifyReport> {
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
  // No foreign keys check entries as they are written (migration 0023): an entry whose journal
  // or account is missing would drop out of every sum above and out of the funds record, so
  // each is looked for here; so is a journal without entries (a posting always moves something).
  const orphans = await q.query<{ what: string; id: string }>(
    `SELECT 'entry' AS what, e.id::text FROM ledger_entries e
      WHERE NOT EXISTS (SELECT 1 FROM ledger_journals j WHERE j.id = e.journal_id)
         OR NOT EXISTS (SELECT 1 FROM ledger_accounts a WHERE a.id = e.account_id)
     UNION ALL
     SELECT 'journal', j.id::text FROM ledger_journals j
      WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.journal_id = j.id)
     ORDER BY 1, 2`,
  );
  for (const o of orphans)
    problems.push(
      o.what === 'entry'
        ? `entry ${o.id}: its journal or its account does not exist`
        : `journal ${o.id}: it has no entries`,
    );
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
  // every settling price is a recorded tick: a delivered option names its delivery tick, which
  // must exist, be its market's, carry the price and time the order shows, and be the first
  // recorded at or after the delivery time (ties: the lower id). No foreign key checks the
  // tick as it is written (migration 0025).
  const ticks = await q.query<{ id: string }>(
    `SELECT o.id::text FROM option_orders o
       LEFT JOIN index_ticks t ON t.id = o.delivery_tick_id
      WHERE o.status = 'delivered'
        AND (t.id IS NULL OR t.market_id <> o.market_id OR t.price <> o.delivery_price
             OR t.created_at <> o.delivery_tick_at OR t.created_at < o.deliver_at
             OR EXISTS (SELECT 1 FROM index_ticks e
                         WHERE e.market_id = o.market_id AND e.created_at >= o.deliver_at
                           AND (e.created_at < t.created_at OR (e.created_at = t.created_at AND e.id < t.id))))
      ORDER BY o.id`,
  );
  for (const o of ticks)
    problems.push(
      `option order ${o.id}: its delivery price is not the first recorded tick at or after its delivery time`,
    );
  // every delivered option is paid by the journal it names, and that journal's entry on the
  // owner's option account is exactly its orders' stakes out of frozen and payouts in (one
  // order's journal, or several of one user's delivered in the same pass: migration 0026)
  const paid = await q.query<{ journal: string | null; user_id: number; orders: string }>(
    `WITH o AS (
       SELECT delivery_journal_id AS journal, user_id, currency_id, sum(amount) AS stake, sum(payout) AS payout,
              string_agg(id::text, ', ' ORDER BY id) AS orders
         FROM option_orders WHERE status = 'delivered'
        GROUP BY delivery_journal_id, user_id, currency_id
     ), e AS (
       SELECT e.journal_id, a.user_id, a.currency_id, sum(e.delta_frozen) AS frozen, sum(e.delta_available) AS available
         FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id AND a.type = 'option'
        WHERE e.journal_id IN (SELECT journal FROM o)
        GROUP BY 1, 2, 3
     )
     SELECT o.journal::text, o.user_id, o.orders
       FROM o LEFT JOIN e ON e.journal_id = o.journal AND e.user_id = o.user_id AND e.currency_id = o.currency_id
      WHERE e.journal_id IS NULL OR e.frozen <> -o.stake OR e.available <> o.payout
      ORDER BY o.orders`,
  );
  for (const p of paid)
    problems.push(
      p.journal === null
        ? `option orders ${p.orders}: delivered without a journal`
        : `option orders ${p.orders}: journal ${p.journal} does not pay user ${p.user_id} their stakes and payouts`,
    );
  if (opts.frozen !== false) problems.push(...(await frozenProblems(q)));
  return { ...counts!, problems };
}

/**
 * What each account should hold frozen, from the records that freeze funds, and where the
 * ledger differs. Balanced journals alone cannot catch an order filled twice or a reservation
 * lost: the money moved consistently, but not as the orders say. Sources of frozen funds:
 * - an open spot order reserves what its remainder can still spend: a sell its unfilled
 *   quantity of the base; a limit buy price × quantity of the quote, less what its fills spent
 *   (a fill below the limit spends less; market orders never stay open);
 * - a pending withdrawal holds amount + fee of its currency in the spot account;
 * - an option waiting for delivery holds its stake in the option account (stakes in flight);
 * - a hosting trust order holds its principal in the trust account;
 * - a new-coin subscription under review holds its payment in the spot account, and a passed one
 *   its allotted coins until the user redeems them.
 * Nothing else freezes; house accounts never do. Each order's `frozen` column (what the book is
 * rebuilt with) must also equal its remainder's reservation.
 */
async function frozenProblems(q: Queryable): Promise<string[]> {
  const problems: string[] = [];
  const reserve = `CASE WHEN o.side = 'sell' THEN o.qty - o.filled_qty ELSE o.price * o.qty - o.filled_amount END`;
  const accounts = await q.query<{
    user_id: number;
    type: string;
    symbol: string;
    frozen: string;
    expected: string;
  }>(
    `WITH expected AS (
       SELECT o.user_id, 'spot' AS type,
              CASE WHEN o.side = 'buy' THEN m.quote_currency_id ELSE m.base_currency_id END AS currency_id,
              ${reserve} AS f
         FROM spot_orders o JOIN markets m ON m.id = o.market_id WHERE o.status = 'waiting'
       UNION ALL
       SELECT user_id, 'spot', currency_id, amount + fee FROM withdrawals WHERE status = 'pending'
       UNION ALL
       SELECT p.user_id, 'contract', c.currency_id,
              CASE WHEN p.status = 'pending' THEN p.margin + p.open_fee ELSE p.margin END
         FROM contract_positions p JOIN contract_markets c ON c.id = p.contract_id
        WHERE p.status IN ('pending', 'holding')
       UNION ALL
       SELECT user_id, 'option', currency_id, amount FROM option_orders WHERE status = 'waiting'
       UNION ALL
       SELECT user_id, 'trust', currency_id, amount FROM trust_orders WHERE status = 'hosting'
       UNION ALL
       SELECT o.user_id, 'spot', p.pay_currency_id, o.amount
         FROM launchpad_orders o JOIN launchpad_projects p ON p.id = o.project_id WHERE o.status = 'review'
       UNION ALL
       SELECT o.user_id, 'spot', p.coin_currency_id, o.quantity
         FROM launchpad_orders o JOIN launchpad_projects p ON p.id = o.project_id
        WHERE o.status = 'passed' AND o.redeemed_at IS NULL
     ), e AS (SELECT user_id, type, currency_id, sum(f) AS f FROM expected GROUP BY 1, 2, 3),
     a AS (SELECT user_id, type, currency_id, frozen FROM ledger_accounts WHERE user_id IS NOT NULL)
     SELECT coalesce(a.user_id, e.user_id) AS user_id, coalesce(a.type, e.type) AS type, c.symbol,
            trim_scale(coalesce(a.frozen, 0))::text AS frozen, trim_scale(coalesce(e.f, 0))::text AS expected
       FROM a FULL JOIN e ON e.user_id = a.user_id AND e.type = a.type AND e.currency_id = a.currency_id
       JOIN currencies c ON c.id = coalesce(a.currency_id, e.currency_id)
      WHERE coalesce(a.frozen, 0) <> coalesce(e.f, 0)
      ORDER BY 1, 2, 3`,
  );
  for (const a of accounts)
    problems.push(
      `user ${a.user_id} ${a.type} ${a.symbol}: frozen ${a.frozen}, but open orders and pending withdrawals hold ${a.expected}`,
    );
  const house = await q.query<{ house: string; symbol: string; frozen: string }>(
    `SELECT a.house, c.symbol, trim_scale(a.frozen)::text AS frozen
       FROM ledger_accounts a JOIN currencies c ON c.id = a.currency_id
      WHERE a.house IS NOT NULL AND a.frozen <> 0 ORDER BY 1, 2`,
  );
  for (const h of house)
    problems.push(`house ${h.house} ${h.symbol}: frozen ${h.frozen}, but nothing freezes there`);
  const orders = await q.query<{ id: string; frozen: string; expected: string }>(
    `SELECT o.id::text, trim_scale(o.frozen)::text AS frozen, trim_scale(${reserve})::text AS expected
       FROM spot_orders o WHERE o.status = 'waiting' AND o.frozen <> ${reserve} ORDER BY o.id`,
  );
  for (const o of orders)
    problems.push(`spot order ${o.id}: frozen ${o.frozen}, but its remainder reserves ${o.expected}`);
  return problems;
}
