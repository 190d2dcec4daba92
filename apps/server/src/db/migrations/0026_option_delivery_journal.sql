-- Option settlement posts one journal per user and currency per settlement pass (issue 20;
-- docs/decisions.md, "Options: one journal per user and pass"). An order delivered alone keeps
-- its own journal (option_win/loss/flat, ref_type 'option_order'); several of one user delivered
-- together share an 'options_delivered' journal. Each delivered order names its journal, and
-- ledger:verify proves that every journal's entry on the user's option account is exactly its
-- orders' stakes out of frozen and payouts in. No foreign key: the ledger's tables are
-- append-only and verified as a whole (migration 0023), and a key's check per settled order
-- is the per-row cost this change removes.
ALTER TABLE option_orders ADD COLUMN delivery_journal_id bigint;

-- orders delivered before: their own journal, found by its reference
UPDATE option_orders o SET delivery_journal_id = j.id
  FROM ledger_journals j
 WHERE o.status = 'delivered' AND j.ref_type = 'option_order' AND j.ref_id = o.id::text
   AND j.reason IN ('option_win', 'option_loss', 'option_flat');
