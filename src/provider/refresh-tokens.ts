// Refresh tokens: the spec issues one with every code exchange, without `offline_access` (which the
// engine would otherwise require, and silently drop without prompt=consent). Every use rotates it;
// the reuse grace for parallel refreshes lives in the adapter's consume.
//
// A refresh token is only as good as its grant, which the engine saves once, at consent. So the grant
// lives at least as long as a refresh token, a use of the application (a sign-in, a refresh) keeps it
// alive, and no refresh token is issued for longer than its grant has left.
import type { Client, Grant } from 'oidc-provider';

const DAY = 24 * 3600;

/** The parts of the engine's Grant that extending it uses. */
export type RenewableGrant = Pick<Grant, 'remainingTTL' | 'exp' | 'save'>;

/** What the rotation and lifetime hooks read of the request: the grant being used (`ctx.oidc.entities`). */
export interface RefreshRequest {
  oidc: { entities: { Grant?: RenewableGrant | undefined } };
}

export function issueRefreshToken(_ctx: unknown, client: Pick<Client, 'grantTypeAllowed'>): boolean {
  return client.grantTypeAllowed('refresh_token');
}

/** Always rotate; and keep the grant of an application in use alive (see keepGrantAlive). */
export function makeRotateRefreshToken(refreshTokenTtl: number) {
  return async function rotateRefreshToken(ctx: RefreshRequest): Promise<boolean> {
    const grant = ctx.oidc.entities.Grant;
    if (grant) await keepGrantAlive(grant, refreshTokenTtl);
    return true;
  };
}

/** Lifetime of a new refresh token: the configured one, never beyond its grant. */
export function makeRefreshTokenTtl(refreshTokenTtl: number) {
  // The engine may call this outside a request (no context), hence the optional chain.
  return function refreshTokenTtlFor(ctx: Partial<RefreshRequest> | undefined): number {
    const left = ctx?.oidc?.entities?.Grant?.remainingTTL;
    return typeof left === 'number' && left > 0 ? Math.min(refreshTokenTtl, left) : refreshTokenTtl;
  };
}

/**
 * Extends a grant to its full lifetime when less than a refresh token's lifetime is left (at most about
 * once a day, so a busy application does not rewrite its grant on every refresh).
 */
export async function keepGrantAlive(grant: RenewableGrant, refreshTokenTtl: number): Promise<void> {
  if (typeof grant.remainingTTL === 'number' && grant.remainingTTL > refreshTokenTtl - DAY) return;
  grant.exp = undefined;
  await grant.save();
}
