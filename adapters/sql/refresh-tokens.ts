// Refresh tokens on SQL: the engine's contract plus families (../refresh-family.ts has the rule). A
// family's row in `refresh_families` holds everything of it: its head (the storage key and payload of
// the token rotated last), its live tokens (storage key → payload) and its lifetimes. A rotation is one
// update of that row, by primary key, whatever the table sizes; a retired token is simply no longer in
// it. (Families kept as rows of oidc_models, before migration 014, were moved into their rows by 015.)
import type { Database } from './database.ts';
import { familyOf } from '../refresh-family.ts';
import { storageKey } from '../token-key.ts';
import {
  DEFAULT_REFRESH_TOKEN_ABSOLUTE,
  restoreId,
  type AdapterOptions,
  type ModelAdapter,
  type Payload,
  type RefreshLookup,
  type RefreshTokenAdapter,
  type Rotation,
} from '../adapter.ts';
import { rotationBatches } from './rotation-batches.ts';
import { rotationRule } from './rotation-rule.ts';
import { storedPayload } from './rows.ts';

interface LookupRow {
  grant_id: string | null;
  client_id: string | null;
  account_id: string | null;
  head_parent: string | null;
  head_rotated_at: string | null;
  /** The presented token's payload, when it is one of the family's live tokens. */
  live: Payload | null;
  /** The presented token's payload, when it is the family's head. */
  head: Payload | null;
}

// The family's row, with the presented token's payload out of it ($1 its storage key): one round trip.
const LOOKUP = `SELECT f.grant_id, f.client_id, f.account_id, f.head_parent, f.head_rotated_at::text AS head_rotated_at,
    f.live -> $1::text AS live, CASE WHEN f.head_parent = $1::text THEN f.head END AS head
  FROM refresh_families f WHERE f.id_hash = $2`;

// The first token of a family starts its row, as its one live token.
const START_FAMILY = `INSERT INTO refresh_families (id_hash, grant_id, client_id, account_id, absolute_exp, expires_at, live)
  VALUES ($1, $2, $3, $4, $5, $6, jsonb_build_object($7::text, $8::jsonb))
  ON CONFLICT (id_hash) DO UPDATE SET live = refresh_families.live || EXCLUDED.live`;

// One statement, one row: of concurrent uses of a family at most one moves its head, by the rule of
// rotation-rule.ts. $1 the family's key, $2 the presented token's, $3 now, $4 the grace, $5..$7 the
// successor's expiry, storage key and payload (none when the rotation issues none). Rotations that finish
// in the same turn go as one statement with the same rule per row (rotation-batches.ts).
const RULE = rotationRule({
  presented: '$2::text',
  now: '$3::bigint',
  grace: '$4::int',
  expiresAt: '$5::bigint',
  successorKey: '$6::text',
  successor: '$7::jsonb',
});
const ROTATION = `WITH moved AS (
    UPDATE refresh_families f
       SET ${RULE.set}
     WHERE f.id_hash = $1 AND (${RULE.moves})
    RETURNING 1
  )
  SELECT count(*)::int AS won FROM moved`;

// A token destroyed (revoked): out of its family, live or head.
const DESTROY = `UPDATE refresh_families SET live = live - $2::text, head = CASE WHEN head_parent = $2::text THEN NULL ELSE head END
  WHERE id_hash = $1`;

// The rotations of one database share its statements, whichever adapter commits them (rotation-batches.ts).
const rotations = new WeakMap<Database, ReturnType<typeof rotationBatches>>();
function rotationsOf(db: Database): ReturnType<typeof rotationBatches> {
  let rotate = rotations.get(db);
  if (!rotate) rotations.set(db, (rotate = rotationBatches(db, ROTATION)));
  return rotate;
}

const UNKNOWN: RefreshLookup = Object.freeze({ standing: 'unknown', payload: undefined, parent: null });

export function sqlRefreshTokenAdapter(db: Database, base: ModelAdapter, options: AdapterOptions): RefreshTokenAdapter {
  const grace = options.refreshTokenReuseGrace;
  const rotate = rotationsOf(db);

  const lookup = async (id: string, now: number): Promise<RefreshLookup> => {
    const family = familyOf(id);
    // Every refresh token names its family; a value that does not (an access token presented for
    // revocation or introspection, say) is none, and costs no round trip.
    if (family === undefined) return UNKNOWN;
    const key = storageKey(id);
    const row = (await db.query<LookupRow>(LOOKUP, [key, storageKey(family)])).rows[0];
    if (!row?.grant_id) return UNKNOWN;
    const known = { grantId: row.grant_id, clientId: row.client_id ?? '', accountId: row.account_id ?? '' };
    const rotatedAt = Number(row.head_rotated_at ?? now);
    // An expired token counts as gone, as an expired row is never found.
    const live = unexpired(row.live, now);
    const head = unexpired(row.head, now);
    const stored = live ?? head;
    // The grace counts from the rotation; a clock set back since (a negative elapsed time) is outside it,
    // or a token rotated while the clock was ahead would stay usable until the clock caught up.
    const elapsed = now - rotatedAt;
    const standing = live ? 'live' : head && elapsed >= 0 && elapsed < grace ? 'grace' : 'reuse';
    return judged(standing, stored && restoreId('RefreshToken', id, stored), live ? row.head_parent : null, rotatedAt, known);
  };

  return {
    ...base,

    async upsert(id, payload, expiresIn) {
      const family = familyOf(id);
      if (family === undefined) return base.upsert(id, payload, expiresIn);
      // A successor is written by the rotation that issues it (commitRotation): saved apart, it would
      // be stored where no lookup reads it, and judged a reuse when presented.
      if (payload.parent) throw new Error('a refresh token is saved by the rotation that issues it');
      const iiat = typeof payload.iiat === 'number' ? payload.iiat : Math.floor(Date.now() / 1000);
      const exp = typeof payload.exp === 'number' ? payload.exp : iiat + (expiresIn ?? 0);
      await db.query(START_FAMILY, [
        storageKey(family),
        payload.grantId ?? null,
        payload.clientId ?? '',
        payload.accountId ?? '',
        iiat + (options.refreshTokenAbsolute ?? DEFAULT_REFRESH_TOKEN_ABSOLUTE),
        exp,
        storageKey(id),
        storedPayload('RefreshToken', { exp, ...payload }),
      ]);
    },

    // What the engine sees: a live token (or the head within the grace) as unused; a reuse as consumed.
    find: async (id) => (await lookup(id, Math.floor(Date.now() / 1000))).payload,

    lookup,

    async commitRotation(rotation: Rotation) {
      const family = familyOf(rotation.id);
      if (family === undefined) return false;
      const { successor } = rotation;
      const outcome = await rotate([
        storageKey(family),
        storageKey(rotation.id),
        rotation.now,
        grace,
        rotation.successorExpiresAt ?? 0,
        successor ? storageKey(successor.id) : null,
        successor ? storedPayload('RefreshToken', successor.payload) : null,
      ]);
      return Number(outcome?.won ?? 0) === 1;
    },

    async destroy(id) {
      const family = familyOf(id);
      if (family === undefined) return base.destroy(id);
      await db.query(DESTROY, [storageKey(family), storageKey(id)]);
    },

    async revokeByGrantId(grantId) {
      // The families go with their tokens: a revoked grant leaves nothing of its refresh tokens behind.
      await db.query(`DELETE FROM refresh_families WHERE grant_id = $1`, [grantId]);
    },
  };
}

/** The lookup's answer: a token that may be used is shown unused, a reuse consumed at the head's rotation. */
function judged(
  standing: RefreshLookup['standing'],
  stored: Payload | undefined,
  parent: string | null,
  rotatedAt: number,
  family: NonNullable<RefreshLookup['family']>,
): RefreshLookup {
  if (standing === 'reuse') return { standing, payload: stored && { ...stored, consumed: rotatedAt }, parent, family };
  return { standing, payload: stored && withoutConsumed(stored), parent, family };
}

/** A token of a family is consumed or not by its family's head, never by the row's own flag. */
function withoutConsumed(payload: Payload): Payload {
  const { consumed: _consumed, ...rest } = payload;
  return rest;
}

function unexpired(payload: Payload | null, now: number): Payload | undefined {
  if (!payload) return undefined;
  return typeof payload.exp === 'number' && payload.exp <= now ? undefined : payload;
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
