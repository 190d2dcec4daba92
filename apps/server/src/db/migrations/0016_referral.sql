-- The referral programme (issue 22). A referrer earns a share of the trading fees its referees
-- pay (users.invited_by, recorded at registration), credited through the ledger from the house
-- fees account when the fee is charged. docs/decisions.md, "Referral programme".

-- The default rate, one row: the server writes REFERRAL_RATE here at start, so every writer of
-- a fee (spot desks, option settlement, contract triggers) reads it in the query that finds the
-- referrers, with no per-process copy to go stale.
CREATE TABLE referral_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  default_rate numeric(10, 8) NOT NULL CHECK (default_rate >= 0 AND default_rate <= 1)
);
INSERT INTO referral_settings (id, default_rate) VALUES (true, 0.2);

-- Exclusive members: an operator gave them their own rate.
CREATE TABLE referral_members (
  user_id integer PRIMARY KEY REFERENCES users (id),
  exclusive boolean NOT NULL,
  rate numeric(10, 8) CHECK (rate >= 0 AND rate <= 1),
  updated_by integer REFERENCES operators (id),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (exclusive = (rate IS NOT NULL))
);

-- One row per rebate credited (its ledger journal carries reason 'referral_rebate').
CREATE TABLE referral_rebates (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  referrer_id integer NOT NULL REFERENCES users (id),
  referee_id integer NOT NULL REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN ('spot', 'contract', 'option')),
  currency_id integer NOT NULL REFERENCES currencies (id),
  fee numeric(36, 18) NOT NULL CHECK (fee > 0),
  rate numeric(10, 8) NOT NULL,
  amount numeric(36, 18) NOT NULL CHECK (amount > 0),
  ref_type text NOT NULL,
  ref_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX referral_rebates_referrer ON referral_rebates (referrer_id, id DESC);
CREATE INDEX referral_rebates_pair ON referral_rebates (referrer_id, referee_id);
CREATE INDEX users_invited_by ON users (invited_by, id DESC) WHERE invited_by IS NOT NULL;
