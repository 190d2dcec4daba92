-- The operator console's user controls (issue 23): withdrawals frozen per user (login freezing is
-- users.status = 'disabled'), manual balance adjustments reviewed by a second operator, and the
-- demo funds a newcomer takes once while the server runs on development deposit keys.

ALTER TABLE users ADD COLUMN withdraw_frozen boolean NOT NULL DEFAULT false;

-- A request to change one user balance; only an approval by another operator posts it to the ledger.
CREATE TABLE balance_adjustments (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  account_type text NOT NULL CHECK (account_type IN ('spot', 'option', 'contract', 'trust')),
  currency_id integer NOT NULL REFERENCES currencies (id),
  -- signed: a credit (> 0) or a debit (< 0) of the user's available balance
  amount numeric(36, 18) NOT NULL CHECK (amount <> 0),
  reason text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  requested_by integer NOT NULL REFERENCES operators (id),
  reviewed_by integer REFERENCES operators (id),
  review_note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  reviewed_at timestamptz,
  -- the four-eyes rule, kept by the table too
  CHECK (reviewed_by IS NULL OR reviewed_by <> requested_by),
  CHECK ((status = 'pending') = (reviewed_by IS NULL))
);
CREATE INDEX balance_adjustments_status_idx ON balance_adjustments (status, id);

-- One row per user who took the demo funds: the primary key makes it once per user.
CREATE TABLE demo_funds (
  user_id integer PRIMARY KEY REFERENCES users (id),
  currency_id integer NOT NULL REFERENCES currencies (id),
  amount numeric(36, 18) NOT NULL CHECK (amount > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
