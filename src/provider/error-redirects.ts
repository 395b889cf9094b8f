// No open redirector (RFC 9700 §4.11.2). Anyone signed in can register an application in the developer
// portal, with an https redirect URI of their choosing. If the authorization endpoint sent every error
// straight back to that URI (a bogus scope, `prompt=none` for a visitor who is not signed in), a link to
// the service's own address would bounce the browser to the owner's site with no page in between: a
// redirector on the service's domain, ready for phishing. So such an error is shown as the service's
// page instead, until either an operator has vouched for the application or the user has been seen:
// - operator-created applications (CLI, no owner; the service's own first-party ones, migration 004) and
//   applications an operator verified (`signin client verify`, migration 009) get RFC 6749's redirects;
// - any other application gets them once the user has been seen: a signed-in session with the service
//   (silent authentication for a signed-in user is legitimate), or the return from the sign-in pages
//   (the resume route: the user went through the service's own pages on the way).
// Each held error writes an `authorization.redirect_held` line to the security log.
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { ClientCache } from '../clients/client-cache.ts';
import type { RegisteredClient } from '../clients/registry.ts';
import { securityEvent } from '../log/security-log.ts';
import { holdErrorRedirects } from './engine.ts';
import { ROUTES } from './paths.ts';

/** Whether an operator stands behind the application: created by one, or verified by one. */
export const receivesErrorRedirects = (client: Pick<RegisteredClient, 'ownerId' | 'firstParty' | 'verifiedAt'>): boolean =>
  client.ownerId === null || client.firstParty || client.verifiedAt !== null;

/** Whether the engine's context belongs to a browser signed in to the service. */
const userSeen = (ctx: KoaContextWithOIDC): boolean => Boolean(ctx.oidc.session?.accountId);

export function holdUntrustedErrorRedirects(provider: Provider, clients: ClientCache): void {
  // Authorization requests for an application no operator stands behind. The engine decides on a
  // redirect synchronously, so the application is read (from the shared cache) before the engine runs.
  const unvouched = new WeakSet<IncomingMessage>();
  provider.use(function noteUnvouchedClient(ctx, next) {
    // A POST to the endpoint reaches the engine as a GET (src/edge/input-guard.ts).
    const clientId = ctx.path === ROUTES.authorization ? ctx.query.client_id : undefined;
    if (typeof clientId !== 'string' || !clientId) return next();
    return clients.get(clientId).then((client) => {
      if (client && !receivesErrorRedirects(client)) unvouched.add(ctx.req);
      return next();
    });
  });
  holdErrorRedirects(
    provider,
    (ctx) => !unvouched.has(ctx.req) || ctx.oidc.route !== 'authorization' || userSeen(ctx),
    (ctx, error) =>
      securityEvent('authorization.redirect_held', { client_id: ctx.oidc.client?.clientId, reason: error.error, endpoint: ctx.path }),
  );
}
