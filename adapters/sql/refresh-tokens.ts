// Refresh tokens on SQL: the engine's contract plus families (../refresh-family.ts has the rule). Each
// token row keeps its parent; each family one compact row in `refresh_families` with its head. The hot
// statements all go by primary key or by the parent index, whatever the table sizes.
import type { Database } from './database.ts';
import { familyOf } from '../refresh-family.ts';
import { storageKey } from '../token-key.ts';
import {
  DEFAULT_REFRESH_TOKEN_ABSOLUTE,
  type AdapterOptions,
  type ModelAdapter,
  type Payload,
  type RefreshLookup,
  type RefreshTokenAdapter,
  type Rotation,
} from '../adapter.ts';
import { loadRow, UPSERT, upsertParams } from './rows.ts';

interface LookupRow {
  payload: Payload | null;
  consumed: string | null;
  parent: string | null;
  grant_id: string | null;
  client_id: string | null;
  account_id: string | null;
  head_parent: string | null;
  head_rotated_at: string | null;
}

// The token's row (when stored and not expired) and its family's row (when known), in one round trip.
const LOOKUP = `SELECT m.payload, floor(extract(epoch FROM m.consumed_at))::text AS consumed, m.parent,
    f.grant_id, f.client_id, f.account_id, f.head_parent, f.head_rotated_at::text AS head_rotated_at
  FROM (SELECT 1) AS one
  LEFT JOIN oidc_models m ON m.model = 'RefreshToken' AND m.id_hash = $1 AND (m.expires_at IS NULL OR m.expires_at > now())
  LEFT JOIN refresh_families f ON f.id_hash = $2`;

// The first token of a family creates the family's row in the same statement ($9.. follow UPSERT's $1..$8).
const START_FAMILY = `WITH family AS (
    INSERT INTO refresh_families (id_hash, grant_id, client_id, account_id, absolute_exp, expires_at)
    VALUES ($9, $4, $10, $11, $12, $13) ON CONFLICT (id_hash) DO NOTHING
  ) ${UPSERT}`;

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
     WHERE id_hash = $1
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
const COMMIT_ROTATION = `${ROTATION}
  ${WON}`;

// The same rotation with the successor it issued written by the same statement, only if the rotation
// won ($7..$14 are `upsertParams` of the successor): one round trip and one commit per refresh, and a
// refresh that loses leaves no successor behind.
const COMMIT_ROTATION_WITH_SUCCESSOR = `${ROTATION}, successor AS (
    INSERT INTO oidc_models (model, id_hash, payload, grant_id, uid, user_code, parent, expires_at)
    SELECT $7::text, $8::text, $9::jsonb, $10::text, $11::text, $12::text, $13::text,
           CASE WHEN $14::int IS NULL THEN NULL ELSE now() + make_interval(secs => $14::int) END
     WHERE EXISTS (SELECT 1 FROM moved)
    ON CONFLICT (model, id_hash) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
      uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, parent = EXCLUDED.parent, expires_at = EXCLUDED.expires_at
  )
  ${WON}`;

const UNKNOWN: RefreshLookup = Object.freeze({ standing: 'unknown', payload: undefined, parent: null });

export function sqlRefreshTokenAdapter(db: Database, base: ModelAdapter, options: AdapterOptions): RefreshTokenAdapter {
  const grace = options.refreshTokenReuseGrace;

  const lookup = async (id: string, now: number): Promise<RefreshLookup> => {
    const family = familyOf(id);
    // Every refresh token names its family; a value that does not (an access token presented for
    // revocation or introspection, say) is none, and costs no round trip.
    if (family === undefined) return UNKNOWN;
    const key = storageKey(id);
    const res = await db.query<LookupRow>(LOOKUP, [key, storageKey(family)]);
    const row = res.rows[0];
    const stored = row?.payload ? loadRow('RefreshToken', { payload: row.payload, consumed: row.consumed }, id) : undefined;
    const parent = row?.parent ?? null;
    if (!row?.grant_id) return { standing: 'unknown', payload: undefined, parent };
    const known = { grantId: row.grant_id, clientId: row.client_id ?? '', accountId: row.account_id ?? '' };
    if (stored && parent === row.head_parent) return { standing: 'live', payload: withoutConsumed(stored), parent, family: known };
    if (stored && key === row.head_parent && now - Number(row.head_rotated_at) < grace) {
      return { standing: 'grace', payload: withoutConsumed(stored), parent, family: known };
    }
    return { standing: 'reuse', payload: stored && { ...stored, consumed: Number(row.head_rotated_at ?? now) }, parent, family: known };
  };

  return {
    ...base,

    async upsert(id, payload, expiresIn) {
      const family = familyOf(id);
      if (family === undefined || payload.parent) return base.upsert(id, payload, expiresIn);
      const iiat = typeof payload.iiat === 'number' ? payload.iiat : Math.floor(Date.now() / 1000);
      const exp = typeof payload.exp === 'number' ? payload.exp : iiat + (expiresIn ?? 0);
      await db.query(START_FAMILY, [
        ...upsertParams('RefreshToken', id, payload, expiresIn),
        storageKey(family),
        payload.clientId ?? '',
        payload.accountId ?? '',
        iiat + (options.refreshTokenAbsolute ?? DEFAULT_REFRESH_TOKEN_ABSOLUTE),
        exp,
      ]);
    },

    // What the engine sees: a live token (or the head within the grace) as unused; a reuse as consumed.
    find: async (id) => (await lookup(id, Math.floor(Date.now() / 1000))).payload,

    lookup,

    async commitRotation(rotation: Rotation) {
      const family = familyOf(rotation.id);
      if (family === undefined) return false;
      const params = [storageKey(family), storageKey(rotation.id), rotation.parent, rotation.now, grace, rotation.successorExpiresAt ?? 0];
      const { successor } = rotation;
      const res = successor
        ? await db.query<{ won: number }>(COMMIT_ROTATION_WITH_SUCCESSOR, [
            ...params,
            ...upsertParams('RefreshToken', successor.id, successor.payload, successor.expiresIn),
          ])
        : await db.query<{ won: number }>(COMMIT_ROTATION, params);
      return Number(res.rows[0]?.won ?? 0) === 1;
    },

    async revokeByGrantId(grantId) {
      // The families go with their tokens: a revoked grant leaves nothing of its refresh tokens behind.
      await db.query(
        `WITH families AS (DELETE FROM refresh_families WHERE grant_id = $1),
              granted AS MATERIALIZED (SELECT ctid, model FROM oidc_models WHERE grant_id = $1)
         DELETE FROM oidc_models WHERE ctid = ANY(ARRAY(SELECT ctid FROM granted WHERE model = 'RefreshToken'))`,
        [grantId],
      );
    },
  };
}

/** A token of a family is consumed or not by its family's head, never by the row's own flag. */
function withoutConsumed(payload: Payload): Payload {
  const { consumed: _consumed, ...rest } = payload;
  return rest;
}

/** Removes families whose newest token has expired (epoch seconds of the service's clock). */
export async function deleteExpiredFamilies(db: Database, now: number, batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const res = await db.query(
      `DELETE FROM refresh_families WHERE id_hash IN (SELECT id_hash FROM refresh_families WHERE expires_at < $1 LIMIT $2)`,
      [now, batch],
    );
    total += res.rowCount;
    if (res.rowCount < batch) return total;
  }
}
