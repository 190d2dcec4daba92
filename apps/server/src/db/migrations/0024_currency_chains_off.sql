-- Operators switch a currency's chains on and off (issue 23). `chains` stays the networks the
-- currency exists on (its order is the screens' order); `chains_off` lists those switched off,
-- always some of them. Users are offered the others.
ALTER TABLE currencies ADD COLUMN chains_off text[] NOT NULL DEFAULT '{}';
ALTER TABLE currencies ADD CONSTRAINT currencies_chains_off_known CHECK (chains_off <@ chains);
