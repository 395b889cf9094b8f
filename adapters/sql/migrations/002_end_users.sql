-- End users' side: single-use e-mail links, rate-limit counters, and which sessions belong to whom.
-- Plain SQL that runs unchanged on Postgres and PGlite.

-- Links sent by e-mail (address verification, password reset). Only a SHA-256 of the token is kept,
-- so a dump of the table holds no usable link. `used_at` makes each link single-use.
CREATE TABLE email_tokens (
  token_hash text PRIMARY KEY,
  purpose    text NOT NULL CHECK (purpose IN ('verify-email', 'reset-password')),
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_tokens_account_idx ON email_tokens (account_id, purpose);
CREATE INDEX email_tokens_expires_idx ON email_tokens (expires_at);

-- Counters of rate-limiter-flexible when Redis is not configured (one row per limited key).
-- `expire` is in milliseconds since the epoch, as the library computes it.
CREATE TABLE rate_limits (
  key    text PRIMARY KEY,
  points integer NOT NULL,
  expire bigint
);
CREATE INDEX rate_limits_expire_idx ON rate_limits (expire);

-- The engine's sessions of each account, wherever sessions are stored (Redis or SQL), so that
-- "sign out of every session" can find them without scanning the session store.
CREATE TABLE account_sessions (
  session_uid text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX account_sessions_account_idx ON account_sessions (account_id);
