// Refresh tokens: the spec issues one with every code exchange, without `offline_access` (which the
// engine would otherwise require, and silently drop without prompt=consent). Every use rotates it;
// the reuse grace for parallel refreshes lives in the adapter's consume.
import type { Client, KoaContextWithOIDC } from 'oidc-provider';

export function issueRefreshToken(_ctx: KoaContextWithOIDC, client: Client): boolean {
  return client.grantTypeAllowed('refresh_token');
}

export const rotateRefreshToken = (): boolean => true;
