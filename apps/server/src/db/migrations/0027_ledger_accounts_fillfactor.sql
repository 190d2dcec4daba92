-- Balances change in place many times a day: leave room on each page of ledger_accounts so an
-- update of available/frozen can be a heap-only tuple (HOT: the new version on the same page, no
-- new entry in any of the table's three indexes, none of which covers the balances). At the
-- default fillfactor of 100 every page is full and each balance change wrote a new tuple
-- elsewhere plus three index entries. Measured on a settlement pass over 10,000 options of
-- 10,000 owners (docs/bench.md, options): the ledger's write per 5,000 accounts 111-217 ms at
-- 100, 79-170 ms at 60 and 70, in interleaved runs. Pages written from now on follow it;
-- existing ones as they are rewritten.
ALTER TABLE ledger_accounts SET (fillfactor = 70);
