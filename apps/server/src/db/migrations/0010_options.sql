-- Timed options (docs/decisions.md, "Timed options"): the delivery times each market offers, as
-- data, with the profit a win pays, the fee taken from that profit and the range of a stake; the
-- currencies a stake may be paid in; and the orders, each with the recorded index ticks that
-- priced its purchase and its delivery.

-- Stakes are paid from the user's option account in one of these currencies. Stake ranges of
-- option_seconds are in units of the payable currency: every seeded one is a dollar coin.
CREATE TABLE option_currencies (
  currency_id integer PRIMARY KEY REFERENCES currencies (id),
  enabled boolean NOT NULL DEFAULT true,
  sort integer NOT NULL DEFAULT 0
);
INSERT INTO option_currencies (currency_id, sort) VALUES (3, 1);

-- profit_ratio: a win pays stake × profit_ratio on top of the stake; fee_rate: the fraction of
-- that profit kept as a fee. Both are copied onto each order at purchase, so changing this
-- table never changes an order already bought.
CREATE TABLE option_seconds (
  market_id integer NOT NULL REFERENCES markets (id),
  seconds integer NOT NULL CHECK (seconds BETWEEN 5 AND 86400),
  profit_ratio numeric(12, 8) NOT NULL CHECK (profit_ratio > 0 AND profit_ratio <= 10),
  fee_rate numeric(12, 8) NOT NULL DEFAULT 0 CHECK (fee_rate >= 0 AND fee_rate < 1),
  min_amount numeric(36, 18) NOT NULL CHECK (min_amount > 0),
  max_amount numeric(36, 18) NOT NULL,
  enabled boolean NOT NULL DEFAULT true,
  PRIMARY KEY (market_id, seconds),
  CHECK (max_amount >= min_amount)
);
INSERT INTO option_seconds (market_id, seconds, profit_ratio, fee_rate, min_amount, max_amount)
SELECT m.id, s.seconds, s.ratio, 0.02, s.min_amount, s.max_amount
  FROM markets m
 CROSS JOIN (VALUES (30, 0.80, 10, 5000), (60, 0.85, 10, 10000), (120, 0.90, 50, 20000), (300, 0.95, 100, 50000))
       AS s (seconds, ratio, min_amount, max_amount);

-- One row per purchase. While waiting, its stake is frozen in the user's option account (the
-- ledger check proves the two agree); delivery settles it exactly once: the settlement job's
-- conditional UPDATE ... WHERE status = 'waiting' runs in the transaction that posts the money.
CREATE TABLE option_orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  market_id integer NOT NULL REFERENCES markets (id),
  currency_id integer NOT NULL REFERENCES currencies (id),
  direction text NOT NULL CHECK (direction IN ('bullish', 'bearish')),
  seconds integer NOT NULL CHECK (seconds > 0),
  amount numeric(36, 18) NOT NULL CHECK (amount > 0),
  profit_ratio numeric(12, 8) NOT NULL,
  fee_rate numeric(12, 8) NOT NULL,
  -- the latest recorded tick at or before the purchase
  purchase_tick_id bigint NOT NULL REFERENCES index_ticks (id),
  purchase_price numeric(36, 18) NOT NULL,
  purchase_tick_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  -- created_at + seconds
  deliver_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'delivered')),
  -- the first recorded tick at or after deliver_at
  delivery_tick_id bigint REFERENCES index_ticks (id),
  delivery_price numeric(36, 18),
  delivery_tick_at timestamptz,
  result text CHECK (result IN ('win', 'loss', 'flat')),
  -- returned to the option account: stake + profit − fee on a win, the stake when flat, 0 on a loss
  payout numeric(36, 18),
  pnl numeric(36, 18),
  fee numeric(36, 18),
  settled_at timestamptz,
  CHECK ((status = 'waiting') = (delivery_tick_id IS NULL)),
  CHECK (status = 'waiting' OR (delivery_price IS NOT NULL AND delivery_tick_at >= deliver_at
         AND result IS NOT NULL AND payout >= 0 AND fee >= 0 AND pnl IS NOT NULL AND settled_at IS NOT NULL))
);
CREATE INDEX option_orders_due_idx ON option_orders (deliver_at, id) WHERE status = 'waiting';
CREATE INDEX option_orders_user_idx ON option_orders (user_id, status, id DESC);
