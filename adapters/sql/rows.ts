// The row layout of `oidc_models`, shared by the statements of the SQL adapters.
import { storageKey } from '../token-key.ts';
import { restoreId, stripId, type Payload } from '../adapter.ts';

export interface Row {
  payload: Payload;
  consumed: string | null;
}

export const SELECT = `SELECT payload, floor(extract(epoch FROM consumed_at))::text AS consumed FROM oidc_models`;
export const LIVE = `(expires_at IS NULL OR expires_at > now())`;

/** The upsert of one record; $1..$7 are `upsertParams`. */
export const UPSERT = `INSERT INTO oidc_models (model, id_hash, payload, grant_id, uid, user_code, expires_at)
  VALUES ($1, $2, $3::jsonb, $4, $5, $6, CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
  ON CONFLICT (model, id_hash) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
    uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`;

export function upsertParams(model: string, id: string, payload: Payload, expiresIn: number | undefined): unknown[] {
  return [
    model,
    storageKey(id),
    storedPayload(model, payload),
    payload.grantId ?? null,
    payload.uid ?? null,
    payload.userCode ?? null,
    expiresIn ?? null,
  ];
}

/**
 * A payload as stored, in JSON: without its id (the key is its hash) nor its parent (a refresh token's
 * lineage is its family's row: its head and its live tokens).
 */
export function storedPayload(model: string, payload: Payload): string {
  const { parent: _parent, ...stored } = stripId(model, payload);
  return JSON.stringify(stored);
}

/** A stored row as the engine expects it back: its id restored, `consumed` in epoch seconds when set. */
export function loadRow(model: string, row: Row | undefined, id?: string): Payload | undefined {
  if (!row) return undefined;
  const payload = id === undefined ? row.payload : restoreId(model, id, row.payload);
  return row.consumed === null ? payload : { ...payload, consumed: Number(row.consumed) };
}
