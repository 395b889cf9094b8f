-- The last refresh-token families kept as rows of oidc_models (started before migration 014) move into
-- their family's own row, so that one layout is left and the code of the other goes. What a family of
-- rows holds maps onto its row as follows:
-- - its head: the payload of the row whose key is `head_parent` (the token rotated last), when still there;
-- - its live tokens: the unexpired rows whose parent is the head. A family never rotated (no head yet)
--   has one live token, a row with no parent under its grant; it is found only where its grant has no
--   other such family, the one case where the row names its family unambiguously.
-- A payload stored as a row may lack `exp` (the row's column kept it): it is added, since the family's
-- row reads a token's expiry from its payload.
-- A family whose tokens cannot be placed ends here: its application gets invalid_grant at its next
-- refresh and signs the user in again (a family of rows is at least as old as migration 014).
UPDATE refresh_families f
   SET head = m.payload || CASE WHEN m.payload ? 'exp' OR m.expires_at IS NULL THEN '{}'::jsonb
                                ELSE jsonb_build_object('exp', floor(extract(epoch FROM m.expires_at))::bigint) END
  FROM oidc_models m
 WHERE f.live IS NULL AND f.head_parent IS NOT NULL
   AND m.model = 'RefreshToken' AND m.id_hash = f.head_parent
   AND (m.expires_at IS NULL OR m.expires_at > now());

UPDATE refresh_families f
   SET live = placed.live
  FROM (
    SELECT fam.id_hash,
           jsonb_object_agg(m.id_hash, m.payload || CASE WHEN m.payload ? 'exp' OR m.expires_at IS NULL THEN '{}'::jsonb
                                                         ELSE jsonb_build_object('exp', floor(extract(epoch FROM m.expires_at))::bigint) END) AS live
      FROM refresh_families fam
      JOIN oidc_models m ON m.model = 'RefreshToken' AND m.grant_id = fam.grant_id
                        AND m.parent IS NOT DISTINCT FROM fam.head_parent
                        AND (m.expires_at IS NULL OR m.expires_at > now())
     WHERE fam.live IS NULL
       AND (fam.head_parent IS NOT NULL
            OR (SELECT count(*) FROM refresh_families other
                 WHERE other.grant_id = fam.grant_id AND other.live IS NULL AND other.head_parent IS NULL) = 1)
     GROUP BY fam.id_hash
  ) AS placed
 WHERE f.id_hash = placed.id_hash;

DELETE FROM refresh_families WHERE live IS NULL;

DELETE FROM oidc_models WHERE model = 'RefreshToken';

-- Only a refresh token of a family of rows had a parent.
DROP INDEX IF EXISTS oidc_models_parent_idx;

ALTER TABLE oidc_models DROP COLUMN parent;

ALTER TABLE refresh_families ALTER COLUMN live SET NOT NULL;
