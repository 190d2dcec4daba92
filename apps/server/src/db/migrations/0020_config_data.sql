-- Configuration as data (issue 23): what was read from the environment and is now edited by
-- operators. Each table holds at most one row (id is always true); without a row the
-- environment's value stays in force (MM_SPREAD_BPS, MM_SIZE_QUOTE, BANK_DETAILS), so an install
-- that never opens the console behaves as before.
CREATE TABLE market_maker_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  spread_bps integer NOT NULL CHECK (spread_bps BETWEEN 1 AND 5000),
  size_quote numeric(36, 18) NOT NULL CHECK (size_quote > 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE platform_bank_details (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  bank_name text NOT NULL CHECK (bank_name <> ''),
  account_name text NOT NULL CHECK (account_name <> ''),
  account_number text NOT NULL CHECK (account_number <> ''),
  swift text NOT NULL CHECK (swift <> ''),
  bank_address text NOT NULL DEFAULT '',
  remark text NOT NULL DEFAULT '',
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The database keeps the rules the console checks, whoever writes: a fee is a fraction below one,
-- a withdrawal's fee is covered by its minimum, a step is positive.
ALTER TABLE markets ADD CONSTRAINT markets_config_check
  CHECK (tick_size > 0 AND lot_size > 0 AND maker_fee >= 0 AND maker_fee < 1 AND taker_fee >= 0 AND taker_fee < 1);
ALTER TABLE currencies ADD CONSTRAINT currencies_config_check
  CHECK (min_withdraw >= 0 AND withdraw_fee >= 0 AND min_deposit >= 0 AND withdraw_fee <= min_withdraw);
