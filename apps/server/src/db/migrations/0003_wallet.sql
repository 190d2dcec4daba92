-- Wallet: deposit addresses, deposit requests, withdrawal addresses, withdrawals, transfers.
-- Balances themselves live in the ledger (0002); these tables hold the requests behind them.

-- One deposit address per user, currency and chain, derived from the chain family's extended
-- public key at <key>/<currency_id>/<user_id>. Kept once made: the same user always gets the
-- same address, and no two users ever share one.
CREATE TABLE deposit_addresses (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  currency_id integer NOT NULL REFERENCES currencies (id),
  chain text NOT NULL,
  address text NOT NULL,
  -- which key it came from: the fingerprint of the extended public key, and the path below it
  key_fingerprint text NOT NULL,
  derivation_path text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT deposit_addresses_address_key UNIQUE (address),
  CONSTRAINT deposit_addresses_owner_key UNIQUE (user_id, currency_id, chain)
);

-- A user's report of money sent (with a proof picture); credited to spot only on approval.
CREATE TABLE deposits (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  currency_id integer NOT NULL REFERENCES currencies (id),
  -- null for bank transfers
  chain text,
  -- the user's deposit address on that chain, null for bank transfers
  address text,
  amount numeric(36, 18) NOT NULL CHECK (amount > 0),
  -- upload name of the proof picture (private to its owner and operators)
  image text NOT NULL REFERENCES uploads (name),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  reject_reason text,
  -- operator id
  reviewed_by integer,
  reviewed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'pending') = (reviewed_at IS NULL)),
  CHECK ((status = 'rejected') = (reject_reason IS NOT NULL))
);
CREATE INDEX deposits_user_idx ON deposits (user_id, id DESC);
CREATE INDEX deposits_status_idx ON deposits (status, id);
-- a double submit cannot make two identical requests waiting for review
CREATE UNIQUE INDEX deposits_pending_key ON deposits (user_id, currency_id, amount, image) WHERE status = 'pending';

-- Where a user's withdrawals may go; added with the fund password and a verification code.
CREATE TABLE withdraw_addresses (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  currency_id integer NOT NULL REFERENCES currencies (id),
  chain text NOT NULL,
  address text NOT NULL,
  remark text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT withdraw_addresses_user_key UNIQUE (user_id, currency_id, chain, address)
);

-- amount + fee is frozen in the user's spot account while the request waits for review.
CREATE TABLE withdrawals (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  currency_id integer NOT NULL REFERENCES currencies (id),
  -- crypto: the chain and the address as they were when the request was made
  chain text,
  address text,
  -- bank (fiat) withdrawals: the card (bank_cards, migration 0004) and a copy of its details
  bank_card_id integer,
  bank_snapshot jsonb,
  amount numeric(36, 18) NOT NULL CHECK (amount > 0),
  fee numeric(36, 18) NOT NULL CHECK (fee >= 0),
  remark text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
  -- the payout's transaction hash or bank reference, set on approval
  tx_ref text,
  reject_reason text,
  reviewed_by integer,
  reviewed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (address IS NOT NULL OR bank_card_id IS NOT NULL),
  CHECK ((status = 'pending') = (reviewed_at IS NULL)),
  CHECK ((status = 'approved') = (tx_ref IS NOT NULL)),
  CHECK ((status = 'rejected') = (reject_reason IS NOT NULL))
);
CREATE INDEX withdrawals_user_idx ON withdrawals (user_id, created_at DESC);
CREATE INDEX withdrawals_status_idx ON withdrawals (status, id);

-- Moves between a user's own accounts (spot, option, contract, trust).
CREATE TABLE transfers (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  currency_id integer NOT NULL REFERENCES currencies (id),
  from_type text NOT NULL CHECK (from_type IN ('spot', 'option', 'contract', 'trust')),
  to_type text NOT NULL CHECK (to_type IN ('spot', 'option', 'contract', 'trust')),
  amount numeric(36, 18) NOT NULL CHECK (amount > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (from_type <> to_type)
);
CREATE INDEX transfers_user_idx ON transfers (user_id, id DESC);
