-- A launched coin gets its spot market as data (docs/decisions.md, "New-coin subscription").
-- simulated: the simulated index feed and the back-fill serve the market. A launched coin's
-- market is not simulated: its price is what its book trades at, never a made-up walk.
ALTER TABLE markets ADD COLUMN simulated boolean NOT NULL DEFAULT true;
-- The launched market's grid: price step and quantity step of the coin against the payment
-- currency.
ALTER TABLE launchpad_projects ADD COLUMN tick_size numeric(36, 18) NOT NULL DEFAULT 0.0001 CHECK (tick_size > 0);
ALTER TABLE launchpad_projects ADD COLUMN lot_size numeric(36, 18) NOT NULL DEFAULT 0.01 CHECK (lot_size > 0);
-- The market a project's launch added (null until launch).
ALTER TABLE launchpad_projects ADD COLUMN market_id integer REFERENCES markets (id);
