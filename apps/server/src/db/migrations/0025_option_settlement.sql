-- Option settlement at scale (issue 20; docs/bench.md, "Options").
--
-- 1. Several options of one user delivered in the same settlement pass are told in one message.
ALTER TABLE messages DROP CONSTRAINT messages_kind_check;
ALTER TABLE messages ADD CONSTRAINT messages_kind_check CHECK (kind IN ('deposit_passed', 'deposit_rejected',
  'withdrawal_passed', 'withdrawal_rejected', 'verification_passed', 'verification_rejected', 'option_delivered',
  'options_delivered', 'position_liquidated', 'subscription_passed'));

-- 2. The delivery tick's foreign key ran a look-up and a row lock on index_ticks per order settled:
-- a quarter of the settling UPDATE (about 40 ms of 5,000 orders on PGlite). The one writer
-- (option/settlement.ts) takes the id from the ticks it has just read in the same transaction,
-- and ledger:verify proves that every delivered order's tick exists with the price and time
-- the order shows, which the key alone never did.
ALTER TABLE option_orders DROP CONSTRAINT option_orders_delivery_tick_id_fkey;
