// oidc-provider's storage contract on SQL (Postgres or PGlite), in one table keyed by (model, hash of id).
// Refresh tokens add families on top of it (refresh-tokens.ts).
import type { Database } from './database.ts';
import { storageKey } from '../token-key.ts';
import { alreadyConsumed, type AdapterOptions, type ModelAdapter } from '../adapter.ts';
import { sqlRefreshTokenAdapter } from './refresh-tokens.ts';
import { LIVE, loadRow, SELECT, UPSERT, upsertParams, type Row } from './rows.ts';

export function sqlAdapter(db: Database, model: string, options: AdapterOptions): ModelAdapter {
  const adapter: ModelAdapter = {
    async upsert(id, payload, expiresIn) {
      await db.query(UPSERT, upsertParams(model, id, payload, expiresIn));
    },

    async find(id) {
      const res = await db.query<Row>(`${SELECT} WHERE model = $1 AND id_hash = $2 AND ${LIVE}`, [model, storageKey(id)]);
      return loadRow(model, res.rows[0], id);
    },

    async findByUid(uid) {
      const res = await db.query<Row>(`${SELECT} WHERE model = $1 AND uid = $2 AND ${LIVE}`, [model, uid]);
      return loadRow(model, res.rows[0]);
    },

    async findByUserCode(userCode) {
      const res = await db.query<Row>(`${SELECT} WHERE model = $1 AND user_code = $2 AND ${LIVE}`, [model, userCode]);
      return loadRow(model, res.rows[0]);
    },

    async consume(id) {
      // Only one request can flip consumed_at from NULL: that one wins the redemption.
      const won = await db.query(`UPDATE oidc_models SET consumed_at = now() WHERE model = $1 AND id_hash = $2 AND consumed_at IS NULL`, [
        model,
        storageKey(id),
      ]);
      if (won.rowCount !== 1) throw alreadyConsumed(model);
    },

    async destroy(id) {
      await db.query('DELETE FROM oidc_models WHERE model = $1 AND id_hash = $2', [model, storageKey(id)]);
    },

    async revokeByGrantId(grantId) {
      // By the grant index, then by row id: `model = $1 AND grant_id = $2` let a planner with stale
      // statistics walk the primary key's whole `model` range instead (see refresh-tokens.ts).
      await db.query(
        `WITH granted AS MATERIALIZED (SELECT ctid, model FROM oidc_models WHERE grant_id = $2)
         DELETE FROM oidc_models WHERE ctid = ANY(ARRAY(SELECT ctid FROM granted WHERE model = $1))`,
        [model, grantId],
      );
    },
  };
  return model === 'RefreshToken' ? sqlRefreshTokenAdapter(db, adapter, options) : adapter;
}

/** Removes expired rows in small batches so that requests never wait behind a long delete. */
export async function deleteExpired(db: Database, batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const res = await db.query(`DELETE FROM oidc_models WHERE ctid IN (SELECT ctid FROM oidc_models WHERE expires_at < now() LIMIT $1)`, [
      batch,
    ]);
    total += res.rowCount;
    if (res.rowCount < batch) return total;
  }
}
