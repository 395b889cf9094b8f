-- A family's tokens in the family's own row. A rotation used to insert its successor into oidc_models
-- (the row and four index entries) and delete the tokens it retired: most of the database's work per
-- refresh, and a dead row per refresh until a vacuum. Now a family keeps, beside its head:
-- - `live`: its current tokens, by storage key (the SHA-256 of the value, as everywhere), each with the
--   engine's payload: one after a rotation, a few siblings while the grace lasts;
-- - `head`: the payload of the token rotated last, the one a parallel refresh presents again within the grace.
-- A rotation rewrites this one row; retired tokens are simply no longer in it. A family started before
-- this migration has `live` NULL: its tokens stay rows of oidc_models, with the rule as before, until it
-- ends (at the latest its absolute lifetime after it started).
ALTER TABLE refresh_families ADD COLUMN live jsonb;
ALTER TABLE refresh_families ADD COLUMN head jsonb;
-- Room on each page for the new version of a row, so that an update that changes no indexed column
-- stays on its page (a HOT update, no index entry written).
ALTER TABLE refresh_families SET (fillfactor = 70);
