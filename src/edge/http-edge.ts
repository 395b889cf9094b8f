// The HTTP edge of the service, in the order requests meet it (service.ts wires it):
//  1. response-headers.ts: nosniff, HSTS, no-store, the form_post page's policy, on every response;
//  2. requestEdge: pages, stylesheets and scripts compressed on the way out, never a page carrying a form
//     secret (compression.ts); the request's storage deadline (storage-deadline.ts); plain http on an https issuer
//     (https-only.ts), a method an endpoint does not answer (method-not-allowed.ts), malformed input
//     (input-guard.ts): refused before any route reads them;
//  3. protocolEdge, just in front of the engine: CORS preflights (cors-preflight.ts), requests without
//     client authentication (client-auth-required.ts), applications with a redirect URI that breaks the
//     rules (misconfigured-clients.ts), and answers in the query only (authorization-response.ts);
//  4. pageNotFound, behind the pages: what no page answered is the localized 404 page.
// A check with nothing to do once the answer is known hands the request on with `return next()` rather than
// awaiting it: no promise of its own, and no suspended frame for an error built further in to walk (the
// engine builds three on every userinfo call, each capturing a stack trace).
import type Koa from 'koa';
import compose from 'koa-compose';
import type { ClientRegistry } from '../clients/registry.ts';
import { clientCache } from '../clients/client-cache.ts';
import { clientOrigins } from '../clients/origins.ts';
import type { SignInConfig } from '../config/schema.ts';
import { renderErrorPage } from '../pages/error-page.ts';
import { localeFor } from '../pages/language.ts';
import { authorizationResponses } from './authorization-response.ts';
import { clientAuthRequired } from './client-auth-required.ts';
import { compression } from './compression.ts';
import { corsPreflights } from './cors-preflight.ts';
import { httpsOnly } from './https-only.ts';
import { inputGuard } from './input-guard.ts';
import { methodNotAllowed } from './method-not-allowed.ts';
import { refuseMisconfiguredClients } from './misconfigured-clients.ts';
import { storageDeadline } from './storage-deadline.ts';

export { responseHeaders } from './response-headers.ts';

type EdgeConfig = Pick<SignInConfig, 'issuer' | 'languages'>;

/** In front of the engine and the pages alike. */
export function requestEdge(config: EdgeConfig & Pick<SignInConfig, 'storage'>): Koa.Middleware {
  return compose([compression(), storageDeadline(config), httpsOnly(config), methodNotAllowed(config), inputGuard(config)]);
}

/** In front of the engine only. */
export function protocolEdge(config: EdgeConfig, clients: Pick<ClientRegistry, 'get' | 'list' | 'onChange'>): Koa.Middleware {
  return compose([
    corsPreflights(clientOrigins(clients)),
    clientAuthRequired(config),
    refuseMisconfiguredClients(config, clientCache(clients)),
    authorizationResponses(),
  ]);
}

/**
 * Behind the pages: a path no page answered goes on to whatever follows the service (an embedding
 * app), and if nothing answered it there either, it is the localized 404 page rather than a bare "Not Found".
 */
export function pageNotFound(config: Pick<SignInConfig, 'languages'>): Koa.Middleware {
  return async function notFoundPage(ctx, next) {
    await next();
    if (ctx.status !== 404 || ctx.body != null || ctx.headerSent) return;
    await renderErrorPage(ctx, { reason: 'notFound', status: 404, locale: localeFor(ctx, config) });
  };
}
