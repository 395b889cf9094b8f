-- Passkeys (WebAuthn credentials) of an account (src/passkeys/store.ts). The credential id is the one the
-- authenticator chose (base64url); the public key is the COSE key the authenticator gave at creation, the
-- only key material kept. `sign_count` is the authenticator's counter at its last use: one that goes back
-- means a cloned authenticator, and the sign-in is refused. `backup_eligible` / `backed_up`: a synced
-- passkey (a password manager, a phone's cloud keychain) rather than one bound to a single device;
-- `device_type` is simplewebauthn's reading of the same flags ('singleDevice' or 'multiDevice').
-- The rows go with the account.
CREATE TABLE passkeys (
  id              text PRIMARY KEY,
  account_id      text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  public_key      text NOT NULL,
  sign_count      bigint NOT NULL DEFAULT 0,
  transports      jsonb NOT NULL DEFAULT '[]',
  backup_eligible boolean NOT NULL DEFAULT false,
  backed_up       boolean NOT NULL DEFAULT false,
  device_type     text NOT NULL DEFAULT 'singleDevice',
  name            text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_used_at    timestamptz
);
CREATE INDEX passkeys_account ON passkeys (account_id);

-- The offer to create a passkey after a password sign-in is made once: declined, it is not made again.
ALTER TABLE accounts ADD COLUMN passkey_offer_declined_at timestamptz;
