-- The account page lists the signed-in devices of an account (src/accounts/sessions.ts): each session's
-- record says which device it is, in plain words ("Chrome/Android": the browser and the system read from
-- the User-Agent header, nothing else of it), when it signed in and when it was last used (updated at
-- most once every few minutes, never on every request). `device` stays NULL until the session's first
-- request has been seen: the one that signed it in.
ALTER TABLE account_sessions ADD COLUMN device text;
ALTER TABLE account_sessions ADD COLUMN signed_in_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE account_sessions ADD COLUMN last_used_at timestamptz NOT NULL DEFAULT now();

-- The devices an account has signed in from, kept after their sessions end, so that a sign-in from a
-- device never seen before can be told to the owner (notices.newDeviceSignIn). Only the same plain
-- words; the rows go with the account.
CREATE TABLE account_devices (
  account_id   text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  device       text NOT NULL,
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, device)
);

-- Sessions signed in before this migration: their device is noted on their next request, learnt as
-- known without a notice ('' rather than NULL: their sign-in was not seen).
UPDATE account_sessions SET device = '';
