-- Signing-key rotation. A key is published in the JWKS from its creation, but signs only from
-- `activates_at` on (until a newer key of its algorithm activates), so that relying parties that cache
-- the JWKS know it before the first token it signs. A retired key leaves the JWKS: its row keeps only
-- the public part, for the record. Keys stored before this migration have signed since their creation.
ALTER TABLE signing_keys ADD COLUMN activates_at timestamptz;
UPDATE signing_keys SET activates_at = created_at;
ALTER TABLE signing_keys ALTER COLUMN activates_at SET NOT NULL;
ALTER TABLE signing_keys ALTER COLUMN activates_at SET DEFAULT now();
ALTER TABLE signing_keys ADD COLUMN retired_at timestamptz;

-- Every change to the keys (a rotation, a retirement, a key generated at start) is announced on the
-- channel `signin_keys`, so that every instance reloads its keys at once instead of at its next
-- periodic check. Postgres sends the notice on commit only. (One line: see 003.)
CREATE FUNCTION signin_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('signin_keys', CASE WHEN TG_OP = 'DELETE' THEN OLD.kid ELSE NEW.kid END); RETURN NULL; END
$$;
CREATE TRIGGER signing_keys_changed AFTER INSERT OR UPDATE OR DELETE ON signing_keys FOR EACH ROW EXECUTE FUNCTION signin_keys_changed();
