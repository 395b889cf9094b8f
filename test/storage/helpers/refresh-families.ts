// Refresh-token families as the SQL store keeps them, for the tests of their rotations.
import type { Payload } from '../../../adapters/adapter.ts';
import type { Database } from '../../../adapters/sql/database.ts';
import { UPSERT, upsertParams } from '../../../adapters/sql/rows.ts';
import { familyTokenValue, newFamilyId } from '../../../adapters/refresh-family.ts';
import { storageKey } from '../../../adapters/token-key.ts';
import { tokenId } from '../../adapters/contract.ts';

const now = () => Math.floor(Date.now() / 1000);

/** A refresh token's payload as the engine gives it, for a minute; `parent` for a successor. */
export const refreshTokenPayload = (id: string, grantId: string, parent?: string): Payload => ({
  kind: 'RefreshToken', jti: id, grantId, clientId: 'client', accountId: 'acc', iat: now(), exp: now() + 60, iiat: now(), ...(parent ? { parent } : {}),
});

/** A family as the service stored it before migration 014: a family row without tokens, its first token a row. */
export async function familyOfRows(db: Database): Promise<{ family: string; grantId: string; first: string }> {
  const family = newFamilyId();
  const grantId = `g-${tokenId()}`;
  const first = familyTokenValue(family, tokenId());
  await db.query(
    `INSERT INTO refresh_families (id_hash, grant_id, client_id, account_id, absolute_exp, expires_at) VALUES ($1, $2, 'client', 'acc', $3, $3)`,
    [storageKey(family), grantId, now() + 86400],
  );
  await db.query(UPSERT, upsertParams('RefreshToken', first, refreshTokenPayload(first, grantId), 60));
  return { family, grantId, first };
}
