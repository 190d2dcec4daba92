-- Spot orders, the fees of each fill (a fill is a row of trades), and system users (the house
-- market maker trades through the same engine and ledger as everyone).

-- A system user is the platform acting as a trader (the market maker): it cannot log in (its
-- password hash is not an argon2 hash) and operators can tell it apart from customers.
ALTER TABLE users ADD COLUMN is_system boolean NOT NULL DEFAULT false;

CREATE TABLE spot_orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  market_id integer NOT NULL REFERENCES markets (id),
  side text NOT NULL CHECK (side IN ('buy', 'sell')),
  type text NOT NULL CHECK (type IN ('limit', 'market')),
  -- as asked: price for limit orders; qty (base) unless a market buy by amount (quote)
  price numeric(36, 18) CHECK (price > 0),
  qty numeric(36, 18) CHECK (qty > 0),
  amount numeric(36, 18) CHECK (amount > 0),
  filled_qty numeric(36, 18) NOT NULL DEFAULT 0 CHECK (filled_qty >= 0),
  filled_amount numeric(36, 18) NOT NULL DEFAULT 0 CHECK (filled_amount >= 0),
  fee numeric(36, 18) NOT NULL DEFAULT 0 CHECK (fee >= 0),
  -- what the ledger still holds frozen for this order (quote for buys, base for sells);
  -- zero once the order is finished
  frozen numeric(36, 18) NOT NULL DEFAULT 0 CHECK (frozen >= 0),
  status text NOT NULL CHECK (status IN ('waiting', 'completed', 'cancelled')),
  cancel_reason text CHECK (cancel_reason IN ('user', 'unfilled', 'self_trade')),
  -- the engine's time priority: the book is rebuilt from open orders in this order
  seq bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((type = 'limit') = (price IS NOT NULL)),
  CHECK ((qty IS NULL) <> (amount IS NULL)),
  CHECK (status = 'waiting' OR frozen = 0),
  CHECK ((status = 'cancelled') = (cancel_reason IS NOT NULL))
);
-- recovery: the open orders of a market in time priority
CREATE INDEX spot_orders_open_idx ON spot_orders (market_id, seq) WHERE status = 'waiting';
-- a user's lists, newest first
CREATE INDEX spot_orders_user_idx ON spot_orders (user_id, id DESC);

-- Who traded and what each side paid. Buyers pay their fee in the base currency, sellers in
-- the quote currency (see docs/decisions.md, "Spot orders").
ALTER TABLE trades ADD COLUMN maker_user_id integer REFERENCES users (id);
ALTER TABLE trades ADD COLUMN taker_user_id integer REFERENCES users (id);
ALTER TABLE trades ADD COLUMN maker_fee numeric(36, 18) NOT NULL DEFAULT 0 CHECK (maker_fee >= 0);
ALTER TABLE trades ADD COLUMN taker_fee numeric(36, 18) NOT NULL DEFAULT 0 CHECK (taker_fee >= 0);
CREATE INDEX trades_maker_order_idx ON trades (maker_order_id) WHERE maker_order_id IS NOT NULL;
CREATE INDEX trades_taker_order_idx ON trades (taker_order_id) WHERE taker_order_id IS NOT NULL;
