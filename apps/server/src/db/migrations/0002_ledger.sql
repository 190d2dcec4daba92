-- Currencies as data, accounts (user × type × currency, and house accounts), and the ledger.

CREATE TABLE currencies (
  id integer PRIMARY KEY,
  symbol text NOT NULL UNIQUE,
  name text NOT NULL,
  -- digits kept and shown; amounts are truncated to these, never rounded up
  decimals integer NOT NULL CHECK (decimals BETWEEN 0 AND 18),
  chains text[] NOT NULL DEFAULT '{}',
  is_fiat boolean NOT NULL DEFAULT false,
  min_deposit numeric(36, 18) NOT NULL DEFAULT 0 CHECK (min_deposit >= 0),
  min_withdraw numeric(36, 18) NOT NULL DEFAULT 105 CHECK (min_withdraw >= 0),
  withdraw_fee numeric(36, 18) NOT NULL DEFAULT 0 CHECK (withdraw_fee >= 0),
  can_deposit boolean NOT NULL DEFAULT true,
  can_withdraw boolean NOT NULL DEFAULT true,
  sort integer NOT NULL DEFAULT 0
);

INSERT INTO currencies (id, symbol, name, decimals, chains, is_fiat, min_deposit, min_withdraw, withdraw_fee, sort) VALUES
  (3, 'USDT', 'Tether USD', 6, '{TRC20,OMNI,ERC20}', false, 10, 105, 1, 1),
  (1, 'BTC', 'Bitcoin', 8, '{OMNI}', false, 0.0001, 0.002, 0.0002, 2),
  (2, 'ETH', 'Ethereum', 8, '{ERC20}', false, 0.001, 0.03, 0.002, 3),
  (9999, 'Bank', 'Bank transfer (USD)', 2, '{}', true, 100, 105, 0, 9);

-- One row per user × type × currency, or per house account × currency. House accounts are the
-- platform's side of every movement (deposits in, withdrawals out, fees, pools): they may go
-- negative; a user's never do.
CREATE TABLE ledger_accounts (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer REFERENCES users (id),
  house text,
  type text NOT NULL CHECK (type IN ('spot', 'option', 'contract', 'trust', 'house')),
  currency_id integer NOT NULL REFERENCES currencies (id),
  available numeric(36, 18) NOT NULL DEFAULT 0,
  frozen numeric(36, 18) NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((user_id IS NULL) <> (house IS NULL)),
  CHECK ((house IS NULL) = (type <> 'house')),
  CONSTRAINT ledger_accounts_available_nonnegative CHECK (house IS NOT NULL OR available >= 0),
  CONSTRAINT ledger_accounts_frozen_nonnegative CHECK (house IS NOT NULL OR frozen >= 0)
);
CREATE UNIQUE INDEX ledger_accounts_user_key ON ledger_accounts (user_id, type, currency_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX ledger_accounts_house_key ON ledger_accounts (house, currency_id) WHERE house IS NOT NULL;

-- One posting: a set of entries that moves value between accounts and sums to zero per currency.
CREATE TABLE ledger_journals (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reason text NOT NULL,
  ref_type text,
  ref_id text,
  operator_id integer,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ledger_journals_ref_idx ON ledger_journals (ref_type, ref_id);

CREATE TABLE ledger_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  journal_id bigint NOT NULL REFERENCES ledger_journals (id),
  account_id bigint NOT NULL REFERENCES ledger_accounts (id),
  delta_available numeric(36, 18) NOT NULL,
  delta_frozen numeric(36, 18) NOT NULL,
  -- balance after this entry, for statements
  available_after numeric(36, 18) NOT NULL,
  frozen_after numeric(36, 18) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (delta_available <> 0 OR delta_frozen <> 0)
);
CREATE INDEX ledger_entries_account_idx ON ledger_entries (account_id, id);
CREATE INDEX ledger_entries_journal_idx ON ledger_entries (journal_id);
