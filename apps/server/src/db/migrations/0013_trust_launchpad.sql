-- Locked deposit products ("trust", "hosting") and new-coin subscription (launchpad); the rules are
-- in docs/decisions.md ("Locked deposit products", "New-coin subscription").

-- Products as data. daily_rate: interest per day as a fraction (0.004 = 0.4 %); the total yield is
-- daily_rate × term_days. capacity: principal the product may take in all (sold counts it; it
-- never goes back down). penalty_rule: how early redemption is charged, penalty_rate its factor
-- (daily_interest: multiple of one day's interest; remaining_days: ratio per remaining day).
-- name: the product's name per language code (th, en, ja, ko, es, zh, hk).
CREATE TABLE trust_products (
  id integer PRIMARY KEY,
  name jsonb NOT NULL,
  currency_id integer NOT NULL REFERENCES currencies (id),
  term_days integer NOT NULL CHECK (term_days BETWEEN 1 AND 3650),
  min_amount numeric(36, 18) NOT NULL CHECK (min_amount > 0),
  daily_rate numeric(12, 8) NOT NULL CHECK (daily_rate > 0 AND daily_rate < 1),
  state text NOT NULL DEFAULT 'ongoing' CHECK (state IN ('ongoing', 'soon')),
  capacity numeric(36, 18) NOT NULL CHECK (capacity > 0),
  sold numeric(36, 18) NOT NULL DEFAULT 0,
  penalty_rule text NOT NULL DEFAULT 'daily_interest' CHECK (penalty_rule IN ('daily_interest', 'remaining_days')),
  penalty_rate numeric(12, 8) NOT NULL CHECK (penalty_rate >= 0),
  sort integer NOT NULL DEFAULT 0,
  CHECK (sold >= 0 AND sold <= capacity)
);
INSERT INTO trust_products (id, name, currency_id, term_days, min_amount, daily_rate, state, capacity, penalty_rule, penalty_rate, sort) VALUES
  (1, '{"th":"ฝากประจำ USDT 15 วัน","en":"USDT 15-day hosting","ja":"USDT 15日間預け入れ","ko":"USDT 15일 예치","es":"Depósito USDT a 15 días","zh":"USDT 15天托管","hk":"USDT 15天託管"}',
      3, 15, 100, 0.004, 'ongoing', 1000000, 'daily_interest', 1.5, 1),
  (2, '{"th":"ฝากประจำ USDT 30 วัน","en":"USDT 30-day hosting","ja":"USDT 30日間預け入れ","ko":"USDT 30일 예치","es":"Depósito USDT a 30 días","zh":"USDT 30天托管","hk":"USDT 30天託管"}',
      3, 30, 1000, 0.005, 'ongoing', 2000000, 'remaining_days', 0.004, 2),
  (3, '{"th":"ฝากประจำ BTC 7 วัน","en":"BTC 7-day hosting","ja":"BTC 7日間預け入れ","ko":"BTC 7일 예치","es":"Depósito BTC a 7 días","zh":"BTC 7天托管","hk":"BTC 7天託管"}',
      1, 7, 0.01, 0.001, 'ongoing', 50, 'daily_interest', 1.5, 3),
  (4, '{"th":"ฝากประจำ ETH 60 วัน","en":"ETH 60-day hosting","ja":"ETH 60日間預け入れ","ko":"ETH 60일 예치","es":"Depósito ETH a 60 días","zh":"ETH 60天托管","hk":"ETH 60天託管"}',
      2, 60, 0.1, 0.002, 'soon', 500, 'remaining_days', 0.002, 4);

-- One row per purchase. The product's terms are copied on, so changing a product never changes an
-- order bought. While hosting, the principal is frozen in the user's trust account (the ledger
-- check proves the two agree). Interest is paid per whole day from started_at (payout times
-- started_at + k days); days_paid and interest_paid move only in the transaction that posts
-- the money, and only forward (UPDATE ... WHERE days_paid = <what was read>), so a day is paid
-- once however often the job runs.
CREATE TABLE trust_orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  product_id integer NOT NULL REFERENCES trust_products (id),
  currency_id integer NOT NULL REFERENCES currencies (id),
  amount numeric(36, 18) NOT NULL CHECK (amount > 0),
  term_days integer NOT NULL CHECK (term_days > 0),
  daily_rate numeric(12, 8) NOT NULL,
  -- amount × daily_rate truncated to the currency's decimals: what each day pays
  daily_interest numeric(36, 18) NOT NULL CHECK (daily_interest >= 0),
  penalty_rule text NOT NULL,
  penalty_rate numeric(12, 8) NOT NULL,
  started_at timestamptz NOT NULL,
  matures_at timestamptz NOT NULL,
  days_paid integer NOT NULL DEFAULT 0,
  interest_paid numeric(36, 18) NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'hosting' CHECK (status IN ('hosting', 'completed', 'redeemed')),
  -- early redemption only: what was kept from the principal
  penalty numeric(36, 18),
  ended_at timestamptz,
  CHECK (days_paid BETWEEN 0 AND term_days),
  CHECK (interest_paid = daily_interest * days_paid),
  CHECK ((status = 'hosting') = (ended_at IS NULL)),
  CHECK ((status = 'redeemed') = (penalty IS NOT NULL)),
  CHECK (status <> 'completed' OR days_paid = term_days)
);
CREATE INDEX trust_orders_hosting_idx ON trust_orders (started_at, id) WHERE status = 'hosting';
CREATE INDEX trust_orders_user_idx ON trust_orders (user_id, status, id DESC);

-- A launch adds a currency (and, when it lists, a market as data). Not depositable or withdrawable.
INSERT INTO currencies (id, symbol, name, decimals, chains, is_fiat, min_deposit, min_withdraw, withdraw_fee, can_deposit, can_withdraw, sort) VALUES
  (12, 'VDT', 'Verdant Token', 6, '{}', false, 0, 0, 0, false, false, 12);

-- New-coin projects as data. The subscription is paid in pay_currency_id at issue_price per coin;
-- total_supply coins are offered, so at most total_supply × issue_price is taken (subscribed
-- counts what is under review or passed). Per-user limits in the payment currency. Allotted coins
-- are locked until launch_at + lockup_days. intro and name per language code.
CREATE TABLE launchpad_projects (
  id integer PRIMARY KEY,
  name jsonb NOT NULL,
  intro jsonb NOT NULL,
  coin_currency_id integer NOT NULL UNIQUE REFERENCES currencies (id),
  pay_currency_id integer NOT NULL REFERENCES currencies (id),
  issue_price numeric(36, 18) NOT NULL CHECK (issue_price > 0),
  total_supply numeric(36, 18) NOT NULL CHECK (total_supply > 0),
  subscribed numeric(36, 18) NOT NULL DEFAULT 0 CHECK (subscribed >= 0),
  user_min numeric(36, 18) NOT NULL CHECK (user_min > 0),
  user_max numeric(36, 18) NOT NULL,
  starts_at timestamptz NOT NULL,
  ends_at timestamptz NOT NULL,
  launch_at timestamptz NOT NULL,
  lockup_days integer NOT NULL DEFAULT 0 CHECK (lockup_days >= 0),
  -- expected gross return as a fraction (0.3 = 30 %), as the project announces it
  expected_return numeric(12, 8) NOT NULL DEFAULT 0,
  recommend boolean NOT NULL DEFAULT false,
  sort integer NOT NULL DEFAULT 0,
  CHECK (user_max >= user_min),
  CHECK (ends_at > starts_at AND launch_at >= ends_at),
  CHECK (subscribed <= total_supply * issue_price)
);
INSERT INTO launchpad_projects (id, name, intro, coin_currency_id, pay_currency_id, issue_price, total_supply, user_min, user_max,
                                starts_at, ends_at, launch_at, lockup_days, expected_return, recommend, sort) VALUES
  (1, '{"th":"Verdant Token","en":"Verdant Token","ja":"Verdant Token","ko":"Verdant Token","es":"Verdant Token","zh":"Verdant Token","hk":"Verdant Token"}',
      '{"th":"VDT คือโทเคนของชุมชน Verdant ใช้ลดค่าธรรมเนียมและร่วมโหวต","en":"VDT is the Verdant community token: fee discounts and votes on listings.","ja":"VDTはVerdantコミュニティのトークンです。手数料割引と上場投票に使えます。","ko":"VDT는 Verdant 커뮤니티 토큰입니다: 수수료 할인과 상장 투표.","es":"VDT es el token de la comunidad Verdant: descuentos en comisiones y votos de listados.","zh":"VDT 是 Verdant 社区代币：手续费折扣与上币投票。","hk":"VDT 是 Verdant 社群代幣：手續費折扣與上幣投票。"}',
      12, 3, 0.5, 2000000, 10, 50000, now() - interval '1 day', now() + interval '30 days', now() + interval '31 days', 7, 0.3, true, 1);

-- One row per subscription. review: the payment is frozen in the user's spot account; passed: an
-- operator allotted part or all of it (cost kept by the launchpad house account, the rest refunded)
-- and the coins sit frozen in the user's spot account until unlock_at, when the user redeems them;
-- rejected: the payment went back. Every change is in the transaction that posts its money.
CREATE TABLE launchpad_orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  project_id integer NOT NULL REFERENCES launchpad_projects (id),
  amount numeric(36, 18) NOT NULL CHECK (amount > 0),
  status text NOT NULL DEFAULT 'review' CHECK (status IN ('review', 'passed', 'rejected')),
  quantity numeric(36, 18),
  cost numeric(36, 18),
  refund numeric(36, 18),
  unlock_at timestamptz,
  redeemed_at timestamptz,
  reviewed_by integer,
  reviewed_at timestamptz,
  reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'passed') = (quantity IS NOT NULL AND cost IS NOT NULL AND refund IS NOT NULL AND unlock_at IS NOT NULL)),
  CHECK (redeemed_at IS NULL OR status = 'passed')
);
CREATE INDEX launchpad_orders_user_idx ON launchpad_orders (user_id, id DESC);
CREATE INDEX launchpad_orders_review_idx ON launchpad_orders (project_id, id) WHERE status = 'review';
