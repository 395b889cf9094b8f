// The row layout of `oidc_models`, shared by the statements of the SQL adapters.
import { storageKey } from '../token-key.ts';
import { restoreId, stripId, type Payload } from '../adapter.ts';

export interface Row {
  payload: Payload;
  consumed: string | null;
}

export const SELECT = `SELECT payload, floor(extract(epoch FROM consumed_at))::text AS consumed FROM oidc_models`;
export const LIVE = `(expires_at IS NULL OR expires_at > now())`;

/**
 * The upsert of one record, its eight values (`upsertParams`) from parameter `$first` on; with `onlyIf`, only
 * when that condition holds (a statement that writes a record only if its other part succeeded).
 */
export function upsertStatement(first: number, onlyIf?: string): string {
  const $ = (i: number) => `$${first + i}`;
  return `INSERT INTO oidc_models (model, id_hash, payload, grant_id, uid, user_code, parent, expires_at)
  SELECT ${$(0)}::text, ${$(1)}::text, ${$(2)}::jsonb, ${$(3)}::text, ${$(4)}::text, ${$(5)}::text, ${$(6)}::text,
         CASE WHEN ${$(7)}::int IS NULL THEN NULL ELSE now() + make_interval(secs => ${$(7)}::int) END${onlyIf ? `
   WHERE ${onlyIf}` : ''}
  ON CONFLICT (model, id_hash) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
    uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, parent = EXCLUDED.parent, expires_at = EXCLUDED.expires_at`;
}

/** The upsert of one record; $1..$8 are `upsertParams` (a statement that writes one as its part uses upsertStatement). */
export const UPSERT = upsertStatement(1);

export function upsertParams(model: string, id: string, payload: Payload, expiresIn: number | undefined): unknown[] {
  return [model, storageKey(id), storedPayload(model, payload), payload.grantId ?? null, payload.uid ?? null, payload.userCode ?? null, payload.parent ?? null, expiresIn ?? null];
}

/**
 * A payload as stored, in JSON: without its id (the key is its hash) nor its parent (a refresh token's
 * lineage has a column of its own, indexed for retiring siblings, or is its family's head).
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
