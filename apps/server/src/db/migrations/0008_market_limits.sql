-- The usual exchange limits of each spot market, as data (docs/decisions.md, "Order limits"):
-- the largest quantity of one order (base currency), the largest value of one order (quote
-- currency: a limit order's price × quantity, a market buy's amount), the open orders one user
-- may keep on the market, and the price band: a limit order's price must lie within this
-- fraction of the market's latest index price (0.2 = ±20 %).
ALTER TABLE markets ADD COLUMN max_qty numeric(36, 18) CHECK (max_qty > 0);
ALTER TABLE markets ADD COLUMN max_amount numeric(36, 18) NOT NULL DEFAULT 10000000 CHECK (max_amount > 0);
ALTER TABLE markets ADD COLUMN max_open_orders integer NOT NULL DEFAULT 200 CHECK (max_open_orders > 0);
ALTER TABLE markets ADD COLUMN price_band numeric(8, 6) NOT NULL DEFAULT 0.2 CHECK (price_band > 0 AND price_band < 1);

-- Round numbers worth well over the largest order value at each coin's reference price: they
-- bound market sells, which have no price to value them by before they trade.
UPDATE markets SET max_qty = CASE symbol
  WHEN 'btcusdt' THEN 1000
  WHEN 'ethusdt' THEN 10000
  WHEN 'bnbusdt' THEN 50000
  WHEN 'solusdt' THEN 100000
  WHEN 'xrpusdt' THEN 50000000
  WHEN 'dogeusdt' THEN 100000000
  WHEN 'adausdt' THEN 50000000
  WHEN 'trxusdt' THEN 100000000
  WHEN 'ltcusdt' THEN 200000
  WHEN 'dotusdt' THEN 2000000
  ELSE 1000000 END;
ALTER TABLE markets ALTER COLUMN max_qty SET NOT NULL;

-- The engine counts lots and quote units (tick × lot) in safe integers: the limits must fit.
ALTER TABLE markets ADD CONSTRAINT markets_limits_fit_engine
  CHECK (max_qty / lot_size < 9007199254740991 AND max_amount / (tick_size * lot_size) < 9007199254740991);
