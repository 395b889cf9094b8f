// oidc-provider's storage contract on SQL (Postgres or PGlite), in one table keyed by (model, hash of id).
import type { Database } from './database.ts';
import { storageKey } from '../token-key.ts';
import { alreadyConsumed, restoreId, stripId, type AdapterOptions, type ModelAdapter, type Payload } from '../adapter.ts';

interface Row {
  payload: Payload;
  consumed: string | null;
}

const SELECT = `SELECT payload, floor(extract(epoch FROM consumed_at))::text AS consumed FROM oidc_models`;
const LIVE = `(expires_at IS NULL OR expires_at > now())`;

export function sqlAdapter(db: Database, model: string, options: AdapterOptions): ModelAdapter {
  const grace = model === 'RefreshToken' ? options.refreshTokenReuseGrace : 0;

  const load = (row: Row | undefined, id?: string): Payload | undefined => {
    if (!row) return undefined;
    const payload = id === undefined ? row.payload : restoreId(model, id, row.payload);
    if (row.consumed === null) return payload;
    const consumed = Number(row.consumed);
    // Within the reuse grace a rotated refresh token looks unused to the engine, which then issues a
    // sibling successor; siblings die when one of them is used (see consume).
    if (grace > 0 && Date.now() / 1000 - consumed < grace) return payload;
    return { ...payload, consumed };
  };

  return {
    async upsert(id, payload, expiresIn) {
      const stored = stripId(model, payload);
      await db.query(
        `INSERT INTO oidc_models (model, id_hash, payload, grant_id, uid, user_code, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
         ON CONFLICT (model, id_hash) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
        [model, storageKey(id), JSON.stringify(stored), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, expiresIn ?? null],
      );
    },

    async find(id) {
      const res = await db.query<Row>(`${SELECT} WHERE model = $1 AND id_hash = $2 AND ${LIVE}`, [model, storageKey(id)]);
      return load(res.rows[0], id);
    },

    async findByUid(uid) {
      const res = await db.query<Row>(`${SELECT} WHERE model = $1 AND uid = $2 AND ${LIVE}`, [model, uid]);
      return load(res.rows[0]);
    },

    async findByUserCode(userCode) {
      const res = await db.query<Row>(`${SELECT} WHERE model = $1 AND user_code = $2 AND ${LIVE}`, [model, userCode]);
      return load(res.rows[0]);
    },

    async consume(id) {
      const key = storageKey(id);
      // Only one request can flip consumed_at from NULL: that one wins the redemption.
      const won = await db.query<{ grant_id: string | null; parent: string | null }>(
        `UPDATE oidc_models SET consumed_at = now() WHERE model = $1 AND id_hash = $2 AND consumed_at IS NULL
         RETURNING grant_id, payload->>'parent' AS parent`,
        [model, key],
      );
      if (won.rowCount === 1) {
        const { grant_id: grantId, parent } = won.rows[0];
        if (model === 'RefreshToken' && grantId && parent) {
          // Parallel refreshes within the grace left siblings of this token (successors of the same
          // parent). Using one retires the others as consumed before the grace began: an app never
          // presents the sibling it dropped, so presenting one is a stolen token's replay, and the
          // engine then revokes the whole grant.
          await db.query(
            `UPDATE oidc_models SET consumed_at = now() - make_interval(secs => $4::int + 1)
             WHERE model = 'RefreshToken' AND grant_id = $1 AND id_hash <> $2
               AND consumed_at IS NULL AND payload->>'parent' = $3`,
            [grantId, key, parent, grace],
          );
        }
        return;
      }
      if (grace > 0) {
        const within = await db.query(
          `SELECT 1 FROM oidc_models WHERE model = $1 AND id_hash = $2 AND consumed_at > now() - make_interval(secs => $3::int)`,
          [model, key, grace],
        );
        if (within.rowCount === 1) return;
      }
      throw alreadyConsumed(model);
    },

    async destroy(id) {
      await db.query('DELETE FROM oidc_models WHERE model = $1 AND id_hash = $2', [model, storageKey(id)]);
    },

    async revokeByGrantId(grantId) {
      await db.query('DELETE FROM oidc_models WHERE model = $1 AND grant_id = $2', [model, grantId]);
    },
  };
}

/** Removes expired rows in small batches so that requests never wait behind a long delete. */
export async function deleteExpired(db: Database, batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const res = await db.query(
      `DELETE FROM oidc_models WHERE ctid IN (SELECT ctid FROM oidc_models WHERE expires_at < now() LIMIT $1)`,
      [batch],
    );
    total += res.rowCount;
    if (res.rowCount < batch) return total;
  }
}
