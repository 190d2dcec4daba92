-- Option settlement posts one journal per batch and currency (issue 20; docs/decisions.md,
-- "Timed options", funds record). A batch of one order keeps that order's own journal
-- (option_win/loss/flat, ref_type 'option_order'); the orders of a larger batch share an
-- 'options_delivered' journal with one entry per account touched. Each delivered order names
-- its journal, and ledger:verify proves that every journal's entry on each owner's option
-- account is exactly their orders' stakes out of frozen and payouts in. No foreign key: the
-- ledger's tables are append-only and verified as a whole (migration 0023), and a key's check
-- per settled order is the kind of per-row cost this change removes.
ALTER TABLE option_orders ADD COLUMN delivery_journal_id bigint;

-- orders delivered before: their own journal, found by its reference
UPDATE option_orders o SET delivery_journal_id = j.id
  FROM ledger_journals j
 WHERE o.status = 'delivered' AND j.ref_type = 'option_order' AND j.ref_id = o.id::text
   AND j.reason IN ('option_win', 'option_loss', 'option_flat');
