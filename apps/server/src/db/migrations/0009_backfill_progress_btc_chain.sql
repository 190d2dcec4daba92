-- Resumable market back-fill, and Bitcoin on its own chain.

-- One row per market whose simulated history was planned. until_ms (the history's end) and days
-- are fixed before the first candle is written, so a back-fill cut short by a kill carries on
-- with the same walk; completed_at is set only after its last batch: "some candles exist" no
-- longer counts as back-filled.
CREATE TABLE market_backfills (
  market_id integer PRIMARY KEY REFERENCES markets (id),
  until_ms bigint NOT NULL,
  days integer NOT NULL CHECK (days > 0),
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- How far each interval has been written: the open time of the last candle of the last
-- committed batch (candles of an interval are written in time order, each batch in the
-- transaction that moves this mark).
CREATE TABLE market_backfill_progress (
  market_id integer NOT NULL REFERENCES market_backfills (market_id),
  interval text NOT NULL,
  written_through timestamptz NOT NULL,
  PRIMARY KEY (market_id, interval)
);

-- Installs from before this table cannot tell a complete back-fill from one cut short. A market
-- with simulated 1-minute candles gets a plan ending at its latest one (where the old back-fill
-- ended) and is walked again once on the next start: candles that exist are kept as they are,
-- missing ones are written. 30 days was the default BACKFILL_DAYS. Markets whose candles are
-- all real (index or trades) have nothing to back-fill.
INSERT INTO market_backfills (market_id, until_ms, days, completed_at)
SELECT m.id, coalesce(s.until_ms, 0), 30, CASE WHEN s.until_ms IS NULL THEN now() END
  FROM markets m
  CROSS JOIN LATERAL (
    SELECT (extract(epoch FROM max(open_time)) * 1000)::bigint AS until_ms
      FROM candles WHERE market_id = m.id AND interval = '1min' AND source = 'sim'
  ) s
 WHERE EXISTS (SELECT 1 FROM candles c WHERE c.market_id = m.id);

-- BTC moves on the Bitcoin network, not on "OMNI" (Omni Layer is a token protocol on top of it,
-- USDT-OMNI's chain). The addresses are the same Bitcoin addresses: only the chain's name
-- changes, in the currency and in every request and address of BTC that carries it.
UPDATE currencies SET chains = array_replace(chains, 'OMNI', 'BTC') WHERE symbol = 'BTC';
UPDATE deposit_addresses SET chain = 'BTC'
 WHERE chain = 'OMNI' AND currency_id IN (SELECT id FROM currencies WHERE symbol = 'BTC');
UPDATE deposits SET chain = 'BTC'
 WHERE chain = 'OMNI' AND currency_id IN (SELECT id FROM currencies WHERE symbol = 'BTC');
UPDATE withdraw_addresses SET chain = 'BTC'
 WHERE chain = 'OMNI' AND currency_id IN (SELECT id FROM currencies WHERE symbol = 'BTC');
UPDATE withdrawals SET chain = 'BTC'
 WHERE chain = 'OMNI' AND currency_id IN (SELECT id FROM currencies WHERE symbol = 'BTC');
