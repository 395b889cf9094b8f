// A grant changed with SQL, behind the service's back, as another instance or the CLI would change it.
import type Provider from 'oidc-provider';
import { vi } from 'vitest';
import type { Queryable } from '../../adapters/sql/database.ts';
import { storageKey } from '../../adapters/token-key.ts';

/**
 * Makes a grant look consented long ago, with one day left, and resolves once the service reads the
 * change: its grant cache hears of it by a Postgres NOTIFY (src/grants/grant-cache.ts), which may arrive
 * after the next request. Returns the grant's new expiry (epoch seconds).
 */
export async function ageGrant(db: Queryable, provider: Provider, grantId: string): Promise<number> {
  const dayLeft = Math.floor(Date.now() / 1000) + 86400;
  await db.query(
    `UPDATE oidc_models SET expires_at = to_timestamp($2), payload = jsonb_set(payload, '{exp}', to_jsonb($2::int)) WHERE model = 'Grant' AND id_hash = $1`,
    [storageKey(grantId), dayLeft],
  );
  await vi.waitFor(
    async () => {
      if ((await provider.Grant.find(grantId))?.exp !== dayLeft) throw new Error('the service still reads the grant as it was');
    },
    { timeout: 5000 },
  );
  return dayLeft;
}
