-- Bank cards, identity verification, operators (separate from users), their sessions, and the
-- audit log of everything an operator changes.

CREATE TABLE bank_cards (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- the account holder's name as the user writes it
  name text NOT NULL,
  -- digits only (spaces are stripped on the way in)
  card_number text NOT NULL CHECK (card_number ~ '^[0-9]{8,30}$'),
  bank_name text NOT NULL,
  branch text NOT NULL DEFAULT '',
  bank_address text NOT NULL DEFAULT '',
  -- upper case, 8 or 11 characters
  swift text NOT NULL CHECK (swift ~ '^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$'),
  -- the cardholder's full name as the bank spells it
  holder_name text NOT NULL,
  -- electronic format (no spaces, upper case), checksum verified; empty when not given
  iban text NOT NULL DEFAULT '',
  beneficiary_address text NOT NULL DEFAULT '',
  postal_code text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX bank_cards_user_number_key ON bank_cards (user_id, card_number);

CREATE TABLE operators (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- lower case
  username text NOT NULL UNIQUE,
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'reviewer')),
  disabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE operator_sessions (
  token_hash text PRIMARY KEY,
  operator_id integer NOT NULL REFERENCES operators (id) ON DELETE CASCADE,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX operator_sessions_operator_idx ON operator_sessions (operator_id);

-- One row per submission. users.verification / users.advanced_verification hold the current
-- state; these rows hold what was submitted and how it was reviewed.
CREATE TABLE verifications (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  level text NOT NULL CHECK (level IN ('basic', 'advanced')),
  -- ISO 3166-1 alpha-2
  country text NOT NULL,
  name text NOT NULL,
  id_number text NOT NULL,
  address text NOT NULL DEFAULT '',
  -- upload names (private files), advanced level only
  front text REFERENCES uploads (name),
  back text REFERENCES uploads (name),
  holding text REFERENCES uploads (name),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'rejected')),
  reject_reason text,
  reviewed_by integer REFERENCES operators (id),
  reviewed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((level = 'advanced') = (front IS NOT NULL AND back IS NOT NULL AND holding IS NOT NULL)),
  CHECK ((status = 'pending') = (reviewed_at IS NULL))
);
-- at most one submission per user and level waits for review (a double submit cannot make two)
CREATE UNIQUE INDEX verifications_pending_key ON verifications (user_id, level) WHERE status = 'pending';
CREATE INDEX verifications_user_idx ON verifications (user_id, level, id DESC);
CREATE INDEX verifications_status_idx ON verifications (status, id);
CREATE INDEX verifications_identity_idx ON verifications (country, id_number) WHERE level = 'basic';

-- Append-only record of operator actions: who, what, on which row, its state before and after.
CREATE TABLE audit_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- null when done from the command line (creating operators)
  operator_id integer REFERENCES operators (id),
  action text NOT NULL,
  target_type text,
  target_id text,
  before jsonb,
  after jsonb,
  ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_operator_idx ON audit_log (operator_id, id DESC);
CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id, id DESC);
