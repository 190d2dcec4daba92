-- Help centre (issue 22): common questions in seven languages, feedback, and the live chat
-- between a user and support. Lists of states match packages/api/src/schemas/support.ts.

CREATE TABLE help_articles (
  id serial PRIMARY KEY,
  -- the stable name links use (the side menu's "pricing" opens help/article?id=pricing)
  slug text UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,39}$'),
  category text NOT NULL CHECK (category IN ('account', 'deposit', 'trading', 'fees', 'contact')),
  sort integer NOT NULL DEFAULT 0,
  published boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- one row per language; English is always present (the fallback)
CREATE TABLE help_article_texts (
  article_id integer NOT NULL REFERENCES help_articles (id) ON DELETE CASCADE,
  lang text NOT NULL CHECK (lang IN ('th', 'en', 'ja', 'ko', 'es', 'zh', 'hk')),
  title text NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
  body text NOT NULL CHECK (length(body) BETWEEN 1 AND 20000),
  PRIMARY KEY (article_id, lang)
);

CREATE TABLE support_feedback (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id),
  content text NOT NULL CHECK (length(content) BETWEEN 1 AND 2000),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX support_feedback_created ON support_feedback (created_at DESC);

CREATE TABLE support_feedback_pictures (
  feedback_id integer NOT NULL REFERENCES support_feedback (id) ON DELETE CASCADE,
  position smallint NOT NULL CHECK (position BETWEEN 0 AND 2),
  picture text NOT NULL REFERENCES uploads (name),
  PRIMARY KEY (feedback_id, position)
);

-- one conversation per user; read marks are the newest message id each side has read
CREATE TABLE support_conversations (
  id serial PRIMARY KEY,
  user_id integer NOT NULL UNIQUE REFERENCES users (id),
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
  assigned_to integer REFERENCES operators (id),
  user_read_id bigint NOT NULL DEFAULT 0,
  support_read_id bigint NOT NULL DEFAULT 0,
  last_message_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX support_conversations_last ON support_conversations (status, last_message_at DESC);

CREATE TABLE support_messages (
  id bigserial PRIMARY KEY,
  conversation_id integer NOT NULL REFERENCES support_conversations (id),
  sender text NOT NULL CHECK (sender IN ('user', 'support')),
  operator_id integer REFERENCES operators (id),
  text text NOT NULL DEFAULT '' CHECK (length(text) <= 2000),
  picture text REFERENCES uploads (name),
  client_id text CHECK (length(client_id) <= 64),
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (text <> '' OR picture IS NOT NULL),
  CHECK ((sender = 'support') = (operator_id IS NOT NULL))
);
CREATE INDEX support_messages_history ON support_messages (conversation_id, id DESC);
-- a client's retry of the same message stores it once
CREATE UNIQUE INDEX support_messages_client ON support_messages (conversation_id, sender, client_id)
  WHERE client_id IS NOT NULL;

-- an operator's external customer-service address (none: the built-in chat); one row at most
CREATE TABLE support_settings (
  key text PRIMARY KEY CHECK (key IN ('customer_url', 'articles_seeded')),
  value text NOT NULL,
  updated_by integer REFERENCES operators (id),
  updated_at timestamptz NOT NULL DEFAULT now()
);
