-- With Redis configured, authorization codes and access tokens live there, and Redis can come back with an
-- older state: a failover to a replica that lagged behind, a restore from a backup or a snapshot. That state
-- brings back what ended after it: a code redeemed since is unused again, an access token revoked since is
-- stored again. These two tables keep those ends durably, for as long as what they end could be presented
-- (each row expires with it, and the housekeeping sweep deletes it then). Ids are kept as their SHA-256
-- (adapters/token-key.ts), as everywhere: a dump of these tables holds nothing a client could send.
-- Tokens ended with their grant need no row: the grant is gone from SQL, and the engine refuses a token
-- or code whose grant it cannot find. Without Redis nothing is written here: the codes' and tokens' own
-- rows are as durable as these would be.

-- One row per authorization code redeemed: inserting it is the redemption's commit, and an insert that finds
-- the row already there is a second redemption (src/provider/tokens/durable-revocations.ts). No index but the
-- key: the rows live one code lifetime (60 s by default), and every code exchange writes one.
CREATE TABLE redeemed_codes (
  id_hash    text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);

-- Revocations that keep a grant. `token`: one access token (of a user or of a server application), by the
-- hash of its id. `grant`: every token of a grant issued up to `revoked_at` (epoch seconds, the service's
-- clock, as a token's `iat`), by the hash of the grant's id: revoking an access token ends all the codes and
-- tokens of its grant but keeps the grant itself. Each instance holds them all in memory (revocations are
-- rare), so accepting a token costs no read.
CREATE TABLE revoked_tokens (
  kind       text NOT NULL CHECK (kind IN ('token', 'grant')),
  id_hash    text NOT NULL,
  revoked_at bigint NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (kind, id_hash)
);

-- Every revocation recorded is announced on the channel `signin_revocations`, whoever records it, so that
-- every instance adds it to its memory at once. As for clients (migration 003), a trigger: no writer can
-- forget it, and Postgres sends it on commit only. The payload is `kind:id_hash:revoked_at:expires_at`.
-- (The function body stays on one line: migrate.ts splits statements at a semicolon ending a line.)
CREATE FUNCTION signin_tokens_revoked() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('signin_revocations', NEW.kind || ':' || NEW.id_hash || ':' || NEW.revoked_at || ':' || floor(extract(epoch FROM NEW.expires_at))::bigint); RETURN NULL; END
$$;
CREATE TRIGGER tokens_revoked AFTER INSERT OR UPDATE ON revoked_tokens FOR EACH ROW EXECUTE FUNCTION signin_tokens_revoked();
