-- Markets as data, the coins they trade (as ledger currencies), the index feed's recorded ticks,
-- trades, candles of every chart interval (spec §9), and users' favourite markets.

-- Eight more coins a home page is expected to list. TRX is depositable on its own chain (the
-- Tron address family exists); the others have no chain we can address yet, so they are traded
-- but not deposited or withdrawn (can_deposit / can_withdraw false) until one is added as data.
INSERT INTO currencies (id, symbol, name, decimals, chains, is_fiat, min_deposit, min_withdraw, withdraw_fee, can_deposit, can_withdraw, sort) VALUES
  (4, 'BNB', 'BNB', 8, '{}', false, 0.01, 0.05, 0.0005, false, false, 4),
  (5, 'SOL', 'Solana', 8, '{}', false, 0.05, 0.2, 0.01, false, false, 5),
  (6, 'XRP', 'XRP', 6, '{}', false, 10, 30, 0.25, false, false, 6),
  (7, 'DOGE', 'Dogecoin', 8, '{}', false, 50, 100, 5, false, false, 7),
  (8, 'ADA', 'Cardano', 6, '{}', false, 10, 30, 1, false, false, 8),
  (9, 'TRX', 'TRON', 6, '{TRX}', false, 50, 150, 1, true, true, 9),
  (10, 'LTC', 'Litecoin', 8, '{}', false, 0.05, 0.2, 0.001, false, false, 10),
  (11, 'DOT', 'Polkadot', 8, '{}', false, 1, 3, 0.1, false, false, 11);
-- Bank transfers stay after every coin in lists.
UPDATE currencies SET sort = 99 WHERE id = 9999;

-- One row per spot market. Prices are multiples of tick_size, quantities of lot_size; the engine
-- works in integer ticks and lots of these. min_amount is the smallest order value, in the quote
-- currency. Fees are fractions (0.001 = 0.1 %). The sim_* columns drive the simulated index feed:
-- its starting price, its annualised volatility, and the typical base volume per minute of the
-- back-filled history.
CREATE TABLE markets (
  id integer PRIMARY KEY,
  -- lower-case base and quote, no separator: URLs, socket rooms and query parameters use it
  symbol text NOT NULL UNIQUE CHECK (symbol ~ '^[a-z0-9]{2,20}$'),
  base_currency_id integer NOT NULL REFERENCES currencies (id),
  quote_currency_id integer NOT NULL REFERENCES currencies (id),
  tick_size numeric(36, 18) NOT NULL CHECK (tick_size > 0),
  lot_size numeric(36, 18) NOT NULL CHECK (lot_size > 0),
  min_amount numeric(36, 18) NOT NULL DEFAULT 0 CHECK (min_amount >= 0),
  maker_fee numeric(12, 8) NOT NULL CHECK (maker_fee >= 0 AND maker_fee < 1),
  taker_fee numeric(12, 8) NOT NULL CHECK (taker_fee >= 0 AND taker_fee < 1),
  price_decimals integer NOT NULL CHECK (price_decimals BETWEEN 0 AND 18),
  amount_decimals integer NOT NULL CHECK (amount_decimals BETWEEN 0 AND 18),
  enabled boolean NOT NULL DEFAULT true,
  sort integer NOT NULL DEFAULT 0,
  sim_price numeric(36, 18) NOT NULL CHECK (sim_price > 0),
  sim_volatility numeric(8, 4) NOT NULL CHECK (sim_volatility > 0 AND sim_volatility < 10),
  sim_volume numeric(36, 18) NOT NULL DEFAULT 0 CHECK (sim_volume >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (base_currency_id <> quote_currency_id),
  CONSTRAINT markets_pair_key UNIQUE (base_currency_id, quote_currency_id)
);

INSERT INTO markets (id, symbol, base_currency_id, quote_currency_id, tick_size, lot_size, min_amount, maker_fee, taker_fee, price_decimals, amount_decimals, sort, sim_price, sim_volatility, sim_volume) VALUES
  (1, 'btcusdt', 1, 3, 0.01, 0.00001, 5, 0.001, 0.001, 2, 5, 1, 67000, 0.55, 2.5),
  (2, 'ethusdt', 2, 3, 0.01, 0.0001, 5, 0.001, 0.001, 2, 4, 2, 3500, 0.70, 25),
  (3, 'bnbusdt', 4, 3, 0.01, 0.001, 5, 0.001, 0.001, 2, 3, 3, 590, 0.60, 60),
  (4, 'solusdt', 5, 3, 0.01, 0.001, 5, 0.001, 0.001, 2, 3, 4, 150, 0.95, 400),
  (5, 'xrpusdt', 6, 3, 0.0001, 0.1, 5, 0.001, 0.001, 4, 1, 5, 0.55, 0.85, 90000),
  (6, 'dogeusdt', 7, 3, 0.00001, 1, 5, 0.001, 0.001, 5, 0, 6, 0.15, 1.00, 400000),
  (7, 'adausdt', 8, 3, 0.0001, 0.1, 5, 0.001, 0.001, 4, 1, 7, 0.45, 0.85, 60000),
  (8, 'trxusdt', 9, 3, 0.00001, 1, 5, 0.001, 0.001, 5, 0, 8, 0.12, 0.50, 150000),
  (9, 'ltcusdt', 10, 3, 0.01, 0.001, 5, 0.001, 0.001, 2, 3, 9, 80, 0.75, 300),
  (10, 'dotusdt', 11, 3, 0.001, 0.01, 5, 0.001, 0.001, 3, 2, 10, 7, 0.85, 2500);

-- Every price the index feed produced: the prices that settle money (options, contracts) are
-- rows of this table, with their time and source ('sim' for the simulated feed).
CREATE TABLE index_ticks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  market_id integer NOT NULL REFERENCES markets (id),
  price numeric(36, 18) NOT NULL CHECK (price > 0),
  source text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX index_ticks_market_time_idx ON index_ticks (market_id, created_at DESC);

-- One row per fill of the spot order book (the order service writes them through recordTrade).
CREATE TABLE trades (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  market_id integer NOT NULL REFERENCES markets (id),
  price numeric(36, 18) NOT NULL CHECK (price > 0),
  qty numeric(36, 18) NOT NULL CHECK (qty > 0),
  -- price × qty, in the quote currency
  amount numeric(36, 18) NOT NULL CHECK (amount > 0),
  taker_side text NOT NULL CHECK (taker_side IN ('buy', 'sell')),
  maker_order_id bigint,
  taker_order_id bigint,
  -- 'match' for fills of the book
  source text NOT NULL DEFAULT 'match',
  created_at timestamptz NOT NULL
);
CREATE INDEX trades_market_idx ON trades (market_id, id DESC);

-- Candles of every stored interval. source: 'sim' history generated by the simulator on first
-- start, 'index' built from recorded index ticks (a market with no trades yet), 'trade' built
-- from trades. open_time is the bucket's start (UTC; weeks start on Monday).
CREATE TABLE candles (
  market_id integer NOT NULL REFERENCES markets (id),
  interval text NOT NULL CHECK (interval IN ('1min', '5min', '30min', '60min', '1day', '1week', '1mon')),
  open_time timestamptz NOT NULL,
  open numeric(36, 18) NOT NULL,
  high numeric(36, 18) NOT NULL,
  low numeric(36, 18) NOT NULL,
  close numeric(36, 18) NOT NULL,
  -- base currency traded, and its value in the quote currency
  volume numeric(36, 18) NOT NULL DEFAULT 0,
  amount numeric(36, 18) NOT NULL DEFAULT 0,
  trades integer NOT NULL DEFAULT 0,
  source text NOT NULL CHECK (source IN ('sim', 'index', 'trade')),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (market_id, interval, open_time),
  CHECK (low <= high AND low > 0)
);

CREATE TABLE favourite_markets (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  market_id integer NOT NULL REFERENCES markets (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, market_id)
);
