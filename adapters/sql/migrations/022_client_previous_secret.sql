-- A new client secret may leave the one it replaces valid for a while (an overlap the owner chooses: an
-- hour, a day), so that a deployment rolls over to the new secret without a moment where neither works.
-- The replaced secret's hash and the end of its overlap; both NULL when there is none (and for every
-- secret rotated before). The expiry is compared by the service's clock, not the database's.
ALTER TABLE clients ADD COLUMN previous_secret_hash text;
ALTER TABLE clients ADD COLUMN previous_secret_expires_at timestamptz;
