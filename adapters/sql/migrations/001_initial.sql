-- Accounts of end users. Passwords are stored only as argon2id hashes.
CREATE TABLE accounts (
  id             text PRIMARY KEY,
  email          text NOT NULL,
  email_verified boolean NOT NULL DEFAULT false,
  username       text NOT NULL,
  first_name     text NOT NULL,
  password_hash  text NOT NULL,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_email_key ON accounts (lower(email));
CREATE UNIQUE INDEX accounts_username_key ON accounts (lower(username));

-- Registered applications. The client secret is stored only as a hash.
CREATE TABLE clients (
  client_id     text PRIMARY KEY,
  secret_hash   text NOT NULL,
  name          text NOT NULL,
  description   text NOT NULL,
  app_type      text NOT NULL CHECK (app_type IN ('web', 'spa', 'mobile', 'server')),
  redirect_uris jsonb NOT NULL,
  scopes        jsonb NOT NULL,
  owner_id      text REFERENCES accounts (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX clients_owner_idx ON clients (owner_id);

-- Every model of the engine (sessions, codes, tokens, grants...). `id_hash` is a SHA-256 of the
-- engine's id, which for codes and tokens is the bearer value itself: a dump holds no usable token.
CREATE TABLE oidc_models (
  model       text NOT NULL,
  id_hash     text NOT NULL,
  payload     jsonb NOT NULL,
  grant_id    text,
  uid         text,
  user_code   text,
  expires_at  timestamptz,
  consumed_at timestamptz,
  PRIMARY KEY (model, id_hash)
);
CREATE INDEX oidc_models_grant_idx ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_models_uid_idx ON oidc_models (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_models_user_code_idx ON oidc_models (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_models_expires_idx ON oidc_models (expires_at) WHERE expires_at IS NOT NULL;

-- Consents remembered per user and application, beyond the browser session.
CREATE TABLE consents (
  account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  client_id  text NOT NULL, -- no foreign key: the rows outlive a deleted client until its grants are revoked
  grant_id   text NOT NULL,
  scopes     jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, client_id, grant_id)
);

-- Signing keys (private JWKs), generated once and shared by every instance.
CREATE TABLE signing_keys (
  kid        text PRIMARY KEY,
  jwk        jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
