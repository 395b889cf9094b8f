-- Every change to a registered application (secret rotated, redirect URIs edited, deleted) is announced
-- on the channel `signin_clients` with its client_id, whoever makes it: this instance, another one, or
-- the CLI. Listening instances drop that client from their in-memory cache at once. A trigger rather
-- than a NOTIFY sent by the application: no writer can forget it, and Postgres sends it on commit only.
-- (The function body stays on one line: migrate.ts splits statements at a semicolon ending a line.)
CREATE FUNCTION signin_clients_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('signin_clients', CASE WHEN TG_OP = 'DELETE' THEN OLD.client_id ELSE NEW.client_id END); RETURN NULL; END
$$;
CREATE TRIGGER clients_changed AFTER UPDATE OR DELETE ON clients FOR EACH ROW EXECUTE FUNCTION signin_clients_changed();
