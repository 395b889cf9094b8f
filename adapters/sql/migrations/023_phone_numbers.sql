-- Sign-in with a phone number and a one-time code (src/phone/). An account may hold one verified number,
-- in E.164 (`+22507...`), unique across accounts. `phone_verified_at` is when its code was entered: for a
-- cooling-off period after it (phone.coolingOffHours) the number alone does not sign in, so that a SIM
-- taken over the day a number is added cannot stand for the account at once.
ALTER TABLE accounts ADD COLUMN phone_number text;
ALTER TABLE accounts ADD COLUMN phone_verified_at timestamptz;
CREATE UNIQUE INDEX accounts_phone_number_key ON accounts (phone_number);

-- One code in flight per purpose and holder: `sign_in:<interaction uid>` or `add:<account id>`. Only an
-- HMAC of the code is kept, never the code. `account_id` is NULL for a number no account holds: the page
-- answers alike, nothing is sent, and no code can match. A used or exhausted code stays until it
-- expires, so that it cannot be tried again.
CREATE TABLE phone_codes (
  id           text PRIMARY KEY,
  phone_number text NOT NULL,
  account_id   text REFERENCES accounts (id) ON DELETE CASCADE,
  code_hash    text,
  channel      text NOT NULL,
  tries        integer NOT NULL DEFAULT 0,
  used_at      timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX phone_codes_expires_at ON phone_codes (expires_at);

-- Messages sent per day (UTC), for the daily budget (phone.dailyBudget): one row per day, counted up
-- front in one atomic statement, so that instances sharing the database share the budget.
CREATE TABLE phone_message_budget (
  day  date PRIMARY KEY,
  sent integer NOT NULL DEFAULT 0
);
