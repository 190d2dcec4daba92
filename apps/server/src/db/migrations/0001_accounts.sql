-- Accounts, sessions, verification codes and private uploads.

CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  nickname text NOT NULL,
  -- the contact the user registered with: 'mobile' or 'email'
  account_type text NOT NULL CHECK (account_type IN ('mobile', 'email')),
  area_code text,
  mobile text,
  email text,
  password_hash text NOT NULL,
  fund_password_hash text,
  fund_password_failures integer NOT NULL DEFAULT 0,
  fund_password_locked_until timestamptz,
  lang text NOT NULL DEFAULT 'th',
  invite_code text NOT NULL UNIQUE,
  invited_by integer REFERENCES users (id),
  verification text NOT NULL DEFAULT 'none' CHECK (verification IN ('none', 'pending', 'verified', 'rejected')),
  advanced_verification text NOT NULL DEFAULT 'none'
    CHECK (advanced_verification IN ('none', 'pending', 'verified', 'rejected')),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  last_login_at timestamptz,
  last_login_ip text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (mobile IS NOT NULL OR email IS NOT NULL),
  CHECK ((mobile IS NULL) = (area_code IS NULL))
);
CREATE UNIQUE INDEX users_mobile_key ON users (area_code, mobile) WHERE mobile IS NOT NULL;
-- e-mail addresses are stored lower-cased
CREATE UNIQUE INDEX users_email_key ON users (email) WHERE email IS NOT NULL;

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ip text,
  user_agent text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE verification_codes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel text NOT NULL CHECK (channel IN ('mobile', 'email')),
  -- '+66 812345678' or a lower-cased e-mail address
  target text NOT NULL,
  purpose text NOT NULL,
  code_hash text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX verification_codes_lookup_idx ON verification_codes (channel, target, purpose, created_at DESC);

CREATE TABLE uploads (
  name text PRIMARY KEY,
  owner_user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  mime text NOT NULL,
  size integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
