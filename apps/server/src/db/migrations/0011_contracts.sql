-- Perpetual contracts (docs/decisions.md, "Contracts"): contract markets as data, the positions
-- (pending limit orders, holdings, closed and cancelled ones) with the recorded index ticks that
-- settled them, each position's history, and where the trigger job has read the index up to.

-- One contract per underlying spot market's index. lot_value: units of the underlying in one
-- lot; multiples: the leverage a user may pick; fee rates are fractions of the market value;
-- equity at or below open value × maintenance_rate liquidates. Limits per user count one contract.
CREATE TABLE contract_markets (
  id integer PRIMARY KEY,
  market_id integer NOT NULL UNIQUE REFERENCES markets (id),
  currency_id integer NOT NULL REFERENCES currencies (id),
  lot_value numeric(36, 18) NOT NULL CHECK (lot_value > 0),
  multiples integer[] NOT NULL CHECK (cardinality(multiples) > 0 AND 1 <= ALL (multiples)),
  open_fee_rate numeric(12, 8) NOT NULL CHECK (open_fee_rate >= 0 AND open_fee_rate < 1),
  close_fee_rate numeric(12, 8) NOT NULL CHECK (close_fee_rate >= 0 AND close_fee_rate < 1),
  maintenance_rate numeric(12, 8) NOT NULL CHECK (maintenance_rate >= 0 AND maintenance_rate < 1),
  max_lots_per_order integer NOT NULL CHECK (max_lots_per_order >= 1),
  max_lots_per_user integer NOT NULL CHECK (max_lots_per_user >= max_lots_per_order),
  max_open_positions integer NOT NULL CHECK (max_open_positions >= 1),
  enabled boolean NOT NULL DEFAULT true,
  sort integer NOT NULL DEFAULT 0
);
INSERT INTO contract_markets (id, market_id, currency_id, lot_value, multiples, open_fee_rate, close_fee_rate,
                              maintenance_rate, max_lots_per_order, max_lots_per_user, max_open_positions, sort) VALUES
  (1, 1, 3, 0.01, '{5,10,20,50,100}', 0.0005, 0.0005, 0.005, 500, 2000, 50, 1),
  (2, 2, 3, 0.1, '{5,10,20,50,100}', 0.0005, 0.0005, 0.005, 500, 2000, 50, 2),
  (3, 4, 3, 1, '{5,10,20,50}', 0.0005, 0.0005, 0.008, 500, 2000, 50, 3),
  (4, 5, 3, 100, '{5,10,20,50}', 0.0005, 0.0005, 0.008, 500, 2000, 50, 4),
  (5, 6, 3, 1000, '{5,10,20}', 0.0005, 0.0005, 0.01, 500, 2000, 50, 5);

-- status: pending (a limit order waiting for the index: margin and opening fee frozen), holding
-- (margin frozen in the contract account), closed, cancelled. Money columns are what was posted
-- to the ledger. Every open, close, trigger and liquidation names the index tick that priced it.
-- armed_tick_id: triggers fire on ticks after this one (the opening tick, or the tick current
-- when the take-profit and stop-loss were last set), so a restart replays them exactly.
CREATE TABLE contract_positions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  contract_id integer NOT NULL REFERENCES contract_markets (id),
  direction text NOT NULL CHECK (direction IN ('long', 'short')),
  type text NOT NULL CHECK (type IN ('market', 'limit')),
  status text NOT NULL CHECK (status IN ('pending', 'holding', 'closed', 'cancelled')),
  lots integer NOT NULL CHECK (lots >= 1),
  multiple integer NOT NULL CHECK (multiple >= 1),
  lot_value numeric(36, 18) NOT NULL,
  close_fee_rate numeric(12, 8) NOT NULL,
  maintenance_rate numeric(12, 8) NOT NULL,
  -- the limit price (limit orders), else the opening price
  price numeric(36, 18) NOT NULL CHECK (price > 0),
  market_value numeric(36, 18) NOT NULL,
  margin numeric(36, 18) NOT NULL CHECK (margin > 0),
  open_fee numeric(36, 18) NOT NULL CHECK (open_fee >= 0),
  take_profit numeric(36, 18),
  stop_loss numeric(36, 18),
  liquidation_price numeric(36, 18),
  armed_tick_id bigint NOT NULL REFERENCES index_ticks (id),
  open_price numeric(36, 18),
  open_tick_id bigint REFERENCES index_ticks (id),
  opened_at timestamptz,
  close_price numeric(36, 18),
  close_tick_id bigint REFERENCES index_ticks (id),
  close_reason text CHECK (close_reason IN ('user', 'take_profit', 'stop_loss', 'liquidation')),
  pnl numeric(36, 18),
  close_fee numeric(36, 18),
  payout numeric(36, 18),
  closed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((take_profit IS NULL) = (stop_loss IS NULL)),
  CHECK ((status IN ('holding', 'closed')) = (open_tick_id IS NOT NULL)),
  CHECK ((status = 'closed') = (close_tick_id IS NOT NULL AND payout >= 0 AND close_fee >= 0))
);
CREATE INDEX contract_positions_user_idx ON contract_positions (user_id, status, id DESC);
CREATE INDEX contract_positions_open_idx ON contract_positions (contract_id) WHERE status IN ('pending', 'holding');

-- What happened to a position, in order, with the tick that priced it (the history the user sees).
CREATE TABLE contract_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  position_id bigint NOT NULL REFERENCES contract_positions (id),
  kind text NOT NULL CHECK (kind IN ('order', 'open', 'set_stops', 'cancel', 'close', 'take_profit', 'stop_loss', 'liquidation')),
  tick_id bigint REFERENCES index_ticks (id),
  price numeric(36, 18),
  take_profit numeric(36, 18),
  stop_loss numeric(36, 18),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contract_events_position_idx ON contract_events (position_id, id);

-- The last index tick of each contract's market the trigger job has processed.
CREATE TABLE contract_cursors (
  contract_id integer PRIMARY KEY REFERENCES contract_markets (id),
  tick_id bigint NOT NULL
);

-- Operators cannot change a position, a price or a result: no UPDATE or DELETE of settled rows.
-- (The body is one line: migrations are split into statements at a ';' that ends a line.)
CREATE FUNCTION contract_settled_immutable() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF TG_OP = 'DELETE' THEN RAISE EXCEPTION 'contract positions are never deleted'; END IF; IF OLD.status IN ('closed', 'cancelled') THEN RAISE EXCEPTION 'contract position % is settled and cannot change', OLD.id; END IF; RETURN NEW; END $$;
CREATE TRIGGER contract_positions_settled BEFORE UPDATE OR DELETE ON contract_positions
  FOR EACH ROW EXECUTE FUNCTION contract_settled_immutable();
