-- Every change to a stored Grant (given again, extended, destroyed, swept) is announced on the channel
-- `signin_grants` with its id_hash, whoever makes it. Instances keep grants in memory for a few seconds
-- (src/grants/grant-cache.ts) and drop the one named at once. As for clients (migration 003), a trigger:
-- no writer can forget it, and Postgres sends it on commit only. The WHEN clause keeps every other row
-- of oidc_models (refresh tokens, sessions) free of it.
-- (The function body stays on one line: migrate.ts splits statements at a semicolon ending a line.)
CREATE FUNCTION signin_grants_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('signin_grants', OLD.id_hash); RETURN NULL; END
$$;
CREATE TRIGGER grants_changed AFTER UPDATE OR DELETE ON oidc_models FOR EACH ROW WHEN (OLD.model = 'Grant') EXECUTE FUNCTION signin_grants_changed();
