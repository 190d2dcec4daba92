-- The ledger's integrity without a check per entry (docs/decisions.md, "Ledger: integrity of the
-- entries"). Each foreign key of ledger_entries ran a look-up and a row lock per entry written:
-- about a third of the database's work when 10,000 options settle in one pass. The one writer
-- (ledger.ts) takes both ids from the statement that writes the entries (the journals it inserts,
-- the accounts it holds locked), and ledger:verify proves that every entry's journal and account
-- exist. What the keys also stopped, a referenced journal or account being deleted, the triggers
-- below stop for every row: the ledger is append-only.
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_journal_id_fkey;
ALTER TABLE ledger_entries DROP CONSTRAINT ledger_entries_account_id_fkey;
-- Nothing reads entries by journal (statements go from the account's entries to their journal by
-- its primary key), and without the key no delete of a journal needs it.
DROP INDEX ledger_entries_journal_idx;

CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the ledger is append-only: % on % is refused', TG_OP, TG_TABLE_NAME; END $$;
CREATE TRIGGER ledger_accounts_append_only BEFORE DELETE OR TRUNCATE ON ledger_accounts FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_journals_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ledger_journals FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE OR TRUNCATE ON ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION ledger_append_only();
