// Refresh tokens: the spec issues one with every code exchange, without `offline_access` (which the
// engine would otherwise require, and silently drop without prompt=consent). Every use rotates it;
// the reuse grace for parallel refreshes lives in the adapter's consume.
//
// A refresh token is only as good as its grant, which the engine saves once, at consent. So the grant
// lives at least as long as a refresh token, a use of the application (a sign-in, a refresh) keeps it
// alive, and no refresh token is issued for longer than its grant has left.
import type { Client, Grant, KoaContextWithOIDC } from 'oidc-provider';

const DAY = 24 * 3600;

export function issueRefreshToken(_ctx: KoaContextWithOIDC, client: Client): boolean {
  return client.grantTypeAllowed('refresh_token');
}

/** Always rotate; and keep the grant of an application in use alive (see keepGrantAlive). */
export function makeRotateRefreshToken(refreshTokenTtl: number) {
  return async function rotateRefreshToken(ctx: KoaContextWithOIDC): Promise<boolean> {
    const grant = ctx.oidc.entities.Grant;
    if (grant) await keepGrantAlive(grant, refreshTokenTtl);
    return true;
  };
}

/** Lifetime of a new refresh token: the configured one, never beyond its grant. */
export function makeRefreshTokenTtl(refreshTokenTtl: number) {
  return function refreshTokenTtlFor(ctx: KoaContextWithOIDC | undefined): number {
    const left = ctx?.oidc?.entities?.Grant?.remainingTTL;
    return typeof left === 'number' && left > 0 ? Math.min(refreshTokenTtl, left) : refreshTokenTtl;
  };
}

/**
 * Extends a grant to its full lifetime when less than a refresh token's lifetime is left (at most about
 * once a day, so a busy application does not rewrite its grant on every refresh).
 */
export async function keepGrantAlive(grant: Grant, refreshTokenTtl: number): Promise<void> {
  if (typeof grant.remainingTTL === 'number' && grant.remainingTTL > refreshTokenTtl - DAY) return;
  grant.exp = undefined;
  await grant.save();
}
