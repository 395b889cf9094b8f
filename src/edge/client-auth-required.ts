// The endpoints where an application authenticates (token, revocation, introspection, PAR) answer a
// request that carries no client authentication at all with `401 invalid_client` and a
// WWW-Authenticate challenge (RFC 6749 §5.2; RFC 7009 §2.1 and RFC 7662 §2.1 for revocation and
// introspection), where the engine answers `400 invalid_request`. A wrong or incomplete one is the
// engine's own 401 invalid_client.
//
// Introspection asks more: the caller must authenticate with a secret (RFC 7662 §2.1), so a public
// application (mobile, spa: `token_endpoint_auth_method` none) that sends its client_id alone gets the
// same 401 rather than the engine's `200 {"active": false}`, which would read as an answer about the token.
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import { requestParams } from './input-guard.ts';
import { isEnginePath, protocolEndpoint } from './protocol-endpoints.ts';

export function clientAuthRequired(config: Pick<SignInConfig, 'issuer'>): Koa.Middleware {
  const challenge = `Basic realm="${config.issuer}"`;
  return function requireClientAuth(ctx, next) {
    const endpoint = ctx.method === 'POST' && isEnginePath(ctx.path) ? protocolEndpoint(ctx.path) : undefined;
    if (!endpoint?.clientAuth) return next();
    const params = requestParams(ctx);
    if (ctx.get('Authorization')) return next();
    const identified = params.get('client_id') || params.get('client_assertion');
    // A client_id alone is a public client's `none`: enough at the token endpoint, not for introspection.
    if (identified && (!endpoint.secretOnly || params.get('client_secret'))) return next();
    ctx.status = 401;
    ctx.set({ 'WWW-Authenticate': challenge, 'Cache-Control': 'no-store' });
    ctx.body = {
      error: 'invalid_client',
      error_description: 'client authentication is required (client_secret_basic or client_secret_post)',
    };
  };
}
