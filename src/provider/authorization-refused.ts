// The most common integration error, said where the developer and the operator look: an authorization
// request for an application that is not registered, or with a return address the application did not
// register. The security log gets an `authorization.refused` line with the client, the reason and, outside
// production, the return address received; the error page shows that address to the developer (as other
// providers' "callback URL mismatch" pages do). In production the address is attacker-chosen text shown
// to anyone: it is left out of both.
import type { KoaContextWithOIDC } from 'oidc-provider';
import { securityEvent } from '../log/security-log.ts';

const REASONS: Readonly<Record<string, 'unknown_client' | 'unregistered_redirect_uri'>> = {
  invalid_client: 'unknown_client',
  invalid_redirect_uri: 'unregistered_redirect_uri',
};

const param = (ctx: KoaContextWithOIDC, name: string): string | undefined => {
  // The engine may fail before it has parsed the parameters (an unknown client, for one).
  const value = (ctx.oidc?.params as Record<string, unknown> | undefined)?.[name] ?? ctx.query?.[name];
  return typeof value === 'string' && value ? value : undefined;
};

/**
 * Logs a refused authorization request and returns the note for the developer on the error page; does
 * nothing (undefined) for any other error.
 */
export function authorizationRefused(ctx: KoaContextWithOIDC, error: string, production: boolean): string | undefined {
  const reason = REASONS[error];
  if (!reason || ctx.oidc?.route !== 'authorization') return undefined;
  const clientId = param(ctx, 'client_id');
  const redirectUri = production ? undefined : param(ctx, 'redirect_uri');
  securityEvent('authorization.refused', { client_id: clientId, reason, redirect_uri: redirectUri });
  if (production) return undefined;
  if (reason === 'unknown_client') return `client_id ${clientId ?? '(none)'} is not registered on this service.`;
  return `redirect_uri ${redirectUri ?? '(none)'} is not registered for client_id ${clientId}: register it exactly (scheme, host, port, path), or send one that is.`;
}
