// CORS preflights (OPTIONS with Access-Control-Request-Method) carry no client_id, so the engine answers
// every one with the caller's origin allowed, even `null`, and refuses only the real request. Here a
// preflight is let through to the engine only from an origin a registered application runs on: a
// single-page application's for the token, revocation, introspection and PAR endpoints, any
// application's for userinfo (the same split as src/provider/cors.ts applies to the requests). Every
// other preflight gets a 403 without any Access-Control-Allow-* header, which the browser refuses.
// The open endpoints (discovery, JWKS) stay open to every origin.
import type Koa from 'koa';
import type { OriginUse } from '../clients/origins.ts';
import { isEnginePath, protocolEndpoint, type ProtocolEndpoint } from './protocol-endpoints.ts';

const OPEN = new Set(['discovery', 'jwks']);

export function corsPreflights(isKnownOrigin: (origin: string, use: OriginUse) => Promise<boolean>): Koa.Middleware {
  const preflight = async (ctx: Koa.Context, next: Koa.Next, endpoint: ProtocolEndpoint) => {
    const origin = ctx.get('Origin');
    ctx.vary('Origin');
    const allowed = origin !== '' && origin !== 'null' && (await isKnownOrigin(origin, endpoint.name === 'userinfo' ? 'any' : 'spa'));
    if (allowed) return next();
    ctx.status = 403;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { error: 'invalid_request', error_description: 'this origin is not allowed to call this endpoint' };
  };
  return function checkPreflight(ctx, next) {
    if (ctx.method !== 'OPTIONS' || !ctx.get('Access-Control-Request-Method') || !isEnginePath(ctx.path)) return next();
    const endpoint = protocolEndpoint(ctx.path);
    if (!endpoint || OPEN.has(endpoint.name)) return next();
    return preflight(ctx, next, endpoint);
  };
}
