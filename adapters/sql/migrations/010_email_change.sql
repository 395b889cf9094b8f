-- A change of e-mail address waits for a link sent to the new address: the link's row keeps the address
-- it will set, so the account keeps its current one (and signs in with it) until the link is used. Only
-- the 'change-email' links carry one. Plain SQL that runs unchanged on Postgres and PGlite.
ALTER TABLE email_tokens ADD COLUMN new_email text;
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens ADD CONSTRAINT email_tokens_purpose_check CHECK (purpose IN ('verify-email', 'reset-password', 'change-email'));
