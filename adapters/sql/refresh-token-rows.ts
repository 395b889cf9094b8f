// Refresh-token families started before migration 014, whose tokens are rows of oidc_models: each row
// keeps its parent, and the family's row its head. Their rule and their rotation, as before that
// migration; such a family stays so until it ends (its absolute lifetime at the latest), and every
// family started since keeps its tokens in its own row (refresh-tokens.ts).
import type { Database } from './database.ts';
import { storageKey } from '../token-key.ts';
import type { Payload, RefreshStanding, Rotation } from '../adapter.ts';
import { upsertParams, upsertStatement } from './rows.ts';

/** How a presented token of such a family stands: its row (when stored and not expired) against the head. */
export function standingInRows(
  key: string,
  stored: Payload | undefined,
  parent: string | null,
  head: { parent: string | null; rotatedAt: number },
  now: number,
  grace: number,
): RefreshStanding {
  if (stored && parent === head.parent) return 'live';
  if (stored && key === head.parent && now - head.rotatedAt < grace) return 'grace';
  return 'reuse';
}

// One statement, one row: of concurrent uses of a family at most one moves its head. A live token ($2,
// whose parent $3 is the head) becomes the head; the head itself within the grace leaves it where it is
// (its rotation time too, so a grace never extends itself). When the head moved, the rows it made useless
// go: the previous head and the siblings of the token used; presenting one of them later is a reuse,
// recognised by the family alone.
// The retired rows are found by the full primary key and by the parent index, then deleted by their
// row ids: written as one condition (`model = ... AND (id_hash = ... OR parent = ...)`), a planner with
// stale statistics (autovacuum off, a young table) took `model` alone as selective and walked every
// refresh token's index entry, dead ones included, on each refresh. Only refresh tokens have a parent.
const ROTATION = `WITH moved AS (
    UPDATE refresh_families
       SET head_rotated_at = CASE WHEN head_parent = $2 THEN head_rotated_at ELSE $4::bigint END,
           head_parent = $2,
           expires_at = LEAST(GREATEST(expires_at, $6::bigint), absolute_exp)
     WHERE id_hash = $1 AND live IS NULL
       AND (head_parent IS NOT DISTINCT FROM $3::text OR (head_parent = $2 AND head_rotated_at > $4::bigint - $5::int))
    RETURNING head_rotated_at = $4::bigint AS moved
  ), retired AS (
    DELETE FROM oidc_models
     WHERE ctid = ANY(ARRAY(
             SELECT ctid FROM oidc_models WHERE model = 'RefreshToken' AND id_hash = $3::text
             UNION ALL SELECT ctid FROM oidc_models WHERE parent = $3::text AND id_hash <> $2))
       AND EXISTS (SELECT 1 FROM moved WHERE moved.moved)
  )`;
const WON = `SELECT count(*)::int AS won FROM moved`;

// The same rotation with the successor it issued written by the same statement, only if the rotation
// won ($7..$14 are `upsertParams` of the successor): one round trip and one commit per refresh, and a
// refresh that loses leaves no successor behind.
const ROTATION_WITH_SUCCESSOR = `${ROTATION}, successor AS (
    ${upsertStatement(7, 'EXISTS (SELECT 1 FROM moved)')}
  )
  ${WON}`;

/** Moves the head of a family of rows; true when this rotation won. */
export async function rotateInRows(db: Database, family: string, rotation: Rotation, grace: number): Promise<boolean> {
  const params = [storageKey(family), storageKey(rotation.id), rotation.parent, rotation.now, grace, rotation.successorExpiresAt ?? 0];
  const { successor } = rotation;
  const res = successor
    ? await db.query<{ won: number }>(ROTATION_WITH_SUCCESSOR, [...params, ...upsertParams('RefreshToken', successor.id, successor.payload, successor.expiresIn)])
    : await db.query<{ won: number }>(`${ROTATION} ${WON}`, params);
  return Number(res.rows[0]?.won ?? 0) === 1;
}
