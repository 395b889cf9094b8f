// The grant types an application is registered for, as the token endpoint enforces them:
// - a grant type the client is not registered for (a `web` application asking `client_credentials`, a
//   `server` application presenting a code) is `unauthorized_client`, as RFC 6749 §5.2 names it; the
//   engine answers `invalid_request` instead;
// - `client_credentials` (the `server` applications, RFC 6749 §4.4) gives a token that names no user, so
//   it carries no scope: the user scopes (openid, email, profile) describe a user, and the service offers
//   no other. A request that asks one is `invalid_scope`; the engine would accept any scope a client
//   registered without a `scope` list asks for.
//
// Relies on oidc-provider 9.13:
// - lib/actions/token.js: `allowedGrantTypeCheck` calls `ctx.oidc.client.grantTypeAllowed(grant_type)`
//   once the client has authenticated and before the grant's handler runs, with `ctx.oidc.route` 'token';
// - lib/models/client.js: `Client.prototype.grantTypeAllowed(type)`, a plain method;
// - lib/helpers/revoke.js, lib/helpers/defaults.js and lib/actions/authorization/scopes.js call it too,
//   for other grant types or other routes: they get the plain answer (nothing is thrown for them);
// - lib/provider.js: the static `Provider.ctx`, the Koa context of the request being handled.
import Provider, { errors } from 'oidc-provider';
import type { Client } from 'oidc-provider';

export const CLIENT_CREDENTIALS = 'client_credentials';

export function enforceClientGrants(provider: Provider): void {
  const prototype = provider.Client.prototype;
  const registered = prototype.grantTypeAllowed;
  if (typeof registered !== 'function')
    throw new Error('oidc-provider: Client.prototype.grantTypeAllowed is no longer a method (see engine/client-grants.ts)');
  prototype.grantTypeAllowed = function grantTypeAllowedOrRefused(this: Client, type: string): boolean {
    const allowed = registered.call(this, type);
    const request = tokenRequestFor(type);
    if (!request) return allowed;
    if (!allowed) throw new errors.UnauthorizedClient(`the grant type ${type} is not registered for this client`);
    const scope = request.scope?.trim();
    if (type === CLIENT_CREDENTIALS && scope) throw new errors.InvalidScope('a token of a server application carries no scope', scope);
    return allowed;
  };
}

/** The token request being handled, when it asks for the grant type `type`. */
function tokenRequestFor(type: string): { scope?: string } | undefined {
  const oidc = Provider.ctx?.oidc;
  const params = oidc?.params as { grant_type?: unknown; scope?: unknown } | undefined;
  if (oidc?.route !== 'token' || params?.grant_type !== type) return undefined;
  return { scope: typeof params.scope === 'string' ? params.scope : undefined };
}
