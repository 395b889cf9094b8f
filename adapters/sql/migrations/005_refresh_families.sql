-- Refresh-token families, and storage bounded by what is live.
-- (Statements end with a semicolon at the end of a line: migrate.ts splits them there.)

-- One row per refresh-token family: the chain of rotations that started with one code exchange. A
-- refresh token's value names its family (`<family id>.<random>`), and the row says which tokens of the
-- family are live: those whose parent is `head_parent` (NULL before the first rotation). `id_hash` is a
-- SHA-256 of the family id, so a dump holds nothing a request could present. Times are epoch seconds
-- of the service's clock, which the rotation compares them with.
CREATE TABLE refresh_families (
  id_hash         text PRIMARY KEY,
  grant_id        text NOT NULL,
  client_id       text NOT NULL,
  account_id      text NOT NULL,
  head_parent     text,
  head_rotated_at bigint,
  absolute_exp    bigint NOT NULL,
  expires_at      bigint NOT NULL
);
CREATE INDEX refresh_families_grant_idx ON refresh_families (grant_id);
CREATE INDEX refresh_families_expires_idx ON refresh_families (expires_at);

-- The lineage of a refresh token (the storage key of the token it replaced), as a column, so that the
-- siblings of a used token are found on an index and removed when their family moves on.
ALTER TABLE oidc_models ADD COLUMN parent text;
CREATE INDEX oidc_models_parent_idx ON oidc_models (parent) WHERE parent IS NOT NULL;

-- A consent lives as long as its grant, and is swept after it.
ALTER TABLE consents ADD COLUMN expires_at timestamptz;
CREATE INDEX consents_grant_idx ON consents (grant_id);
CREATE INDEX consents_expires_idx ON consents (expires_at);
UPDATE consents SET expires_at = COALESCE(
  (SELECT m.expires_at FROM oidc_models m
    WHERE m.model = 'Grant' AND m.id_hash = rtrim(translate(encode(sha256(convert_to(consents.grant_id, 'UTF8')), 'base64'), '+/', '-_'), '=')),
  now());
