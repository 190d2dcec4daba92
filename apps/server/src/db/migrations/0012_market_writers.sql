-- One writer per market in a cluster (REDIS_URL; docs/decisions.md, Cluster). The process that
-- takes a market's book raises its token (the UPDATE waits for every batch still holding the
-- row FOR SHARE) and only then reads the open orders; each of its batches checks, in its own
-- transaction, that the token is still its own. A batch of a process that lost the market
-- therefore fails and changes nothing. A lone process never writes here.
CREATE TABLE market_writers (
  market_id integer PRIMARY KEY REFERENCES markets (id),
  token bigint NOT NULL,
  node text NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now()
);

-- Raises SQLSTATE VF001 unless market m's token is still t; holds the row FOR SHARE until the
-- transaction ends. One line: the migration runner splits statements at a semicolon ending a line.
CREATE FUNCTION spot_writer_check(m integer, t bigint) RETURNS void LANGUAGE plpgsql AS $$ BEGIN PERFORM 1 FROM market_writers WHERE market_id = m AND token = t FOR SHARE; IF NOT FOUND THEN RAISE EXCEPTION 'market % has another writer now', m USING ERRCODE = 'VF001'; END IF; END $$;
