// Security events the engine raises itself: an authorization code or a refresh token presented again
// (the engine revokes the grant when it sees one already consumed), a grant revoked, and any error it
// did not expect (its `server_error`, logged with the stack; the client gets a bare server_error).
// Reuse caught outside the engine (the token-commit path) is logged by logTokenReuse below.
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { isStorageUnavailable } from '../../adapters/unavailable.ts';
import { securityEvent, unexpectedError } from '../log/security-log.ts';

// The engine's error details for a grant source presented twice (lib/helpers/grant_source.js and
// lib/actions/grants/refresh_token.js).
const CODE_REUSE = 'authorization code already consumed';
const REFRESH_REUSE = 'refresh token already used';

/** A replayed code or refresh token detected outside the engine, and the grant it revoked. */
export interface TokenReuseReport {
  kind: 'authorization code' | 'refresh token';
  grantId: string;
  clientId?: string;
  accountId?: string;
}

export function logTokenReuse(reuse: TokenReuseReport): void {
  const fields = { grant_id: reuse.grantId, client_id: reuse.clientId, account_id: reuse.accountId };
  securityEvent(reuse.kind === 'refresh token' ? 'refresh_token.reuse' : 'authorization_code.reuse', fields);
  securityEvent('grant.revoked', {
    ...fields,
    reason: reuse.kind === 'refresh token' ? 'refresh_token_reuse' : 'authorization_code_reuse',
  });
}

export function logEngineEvents(provider: Provider): void {
  // The grant the engine revoked in this request, for the reuse line that follows it.
  const revoked = new WeakMap<IncomingMessage, string>();

  provider.on('grant.revoked', (ctx: KoaContextWithOIDC, grantId: string) => {
    revoked.set(ctx.req, grantId);
    securityEvent('grant.revoked', {
      grant_id: grantId,
      client_id: ctx.oidc?.client?.clientId,
      account_id: ctx.oidc?.entities?.Account?.accountId ?? ctx.oidc?.entities?.RefreshToken?.accountId,
      reason: revocationReason(ctx),
    });
  });

  provider.on('grant.error', (ctx: KoaContextWithOIDC, error: { error_detail?: string }) => {
    const event =
      error.error_detail === CODE_REUSE
        ? 'authorization_code.reuse'
        : error.error_detail === REFRESH_REUSE
          ? 'refresh_token.reuse'
          : undefined;
    if (!event) return;
    securityEvent(event, {
      client_id: ctx.oidc?.client?.clientId,
      account_id: ctx.oidc?.entities?.RefreshToken?.accountId,
      grant_id: revoked.get(ctx.req),
    });
  });

  provider.on('server_error', (ctx: KoaContextWithOIDC, error: unknown) => {
    // An outage is answered 503 and logged as such (storage-outage.ts); anything else is a bug.
    if (isStorageUnavailable(error)) return;
    unexpectedError(error, { client_id: ctx.oidc?.client?.clientId, endpoint: ctx.path, source: 'engine' });
  });
}

function revocationReason(ctx: KoaContextWithOIDC): string {
  const route = ctx.oidc?.route;
  if (route === 'token') return ctx.oidc?.params?.grant_type === 'refresh_token' ? 'refresh_token_reuse' : 'authorization_code_reuse';
  if (route === 'revocation') return 'revocation_request';
  if (route === 'end_session') return 'logout';
  return route ?? 'unknown';
}
