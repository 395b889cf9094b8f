// Refresh tokens: the spec issues one with every code exchange, without `offline_access` (which the
// engine would otherwise require, and silently drop without prompt=consent). Every use rotates it; the
// reuse grace for parallel refreshes and reuse detection live in the token families
// (adapters/refresh-family.ts, token-storage.ts).
//
// A family ends a fixed time after the sign-in that started it (`ttl.refreshTokenAbsolute`), however
// often it is used: every successor's lifetime stops there, so the engine finds it expired after.
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

/** What the lifetime hook reads of the token: `iiat`, when the first token of its family was issued. */
export interface NewRefreshToken {
  iiat?: number | undefined;
}

/**
 * Lifetime of a new refresh token: the configured one, never beyond its grant, nor beyond the end of its
 * family (`absoluteTtl` after its first token, issued at sign-in).
 */
export function makeRefreshTokenTtl(refreshTokenTtl: number, absoluteTtl: number) {
  // The engine may call this outside a request (no context), hence the optional chains.
  return function refreshTokenTtlFor(ctx: Partial<RefreshRequest> | undefined, token?: NewRefreshToken): number {
    const left = ctx?.oidc?.entities?.Grant?.remainingTTL;
    let ttl = typeof left === 'number' && left > 0 ? Math.min(refreshTokenTtl, left) : refreshTokenTtl;
    if (typeof token?.iiat === 'number') {
      // At least a second: a token is only rotated while its family is alive (its own expiry is earlier).
      ttl = Math.max(1, Math.min(ttl, token.iiat + absoluteTtl - Math.floor(Date.now() / 1000)));
    }
    return ttl;
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
