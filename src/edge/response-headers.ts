// Headers on every response, set before any route answers (a route may add to them, none removes them):
//  - `X-Content-Type-Options: nosniff` everywhere: JSON, redirects and 404s included;
//  - `Strict-Transport-Security` when the issuer is https (browsers ignore it on plain http anyway), with
//    `includeSubDomains` only when the operator says every subdomain is https (`https.hstsIncludeSubDomains`);
//  - `Cache-Control: no-store` and `Pragma: no-cache` on the token, userinfo and introspection answers
//    (RFC 6749 §5.1), for HTTP/1.0 caches too;
//  - on the authorization endpoint, the policy of the engine's form_post page: that page submits itself
//    with an inline script, whose hash the engine adds to `script-src` when the response already has a
//    policy naming that directive (lib/helpers/script_src_sha.js). Nothing else may run, and no page may
//    frame it. Our own pages (the engine's error pages included) replace it with theirs.
import type Koa from 'koa';
import type { SignInConfig } from '../config/schema.ts';
import { isEnginePath, protocolEndpoint } from './protocol-endpoints.ts';

/** One year, the usual minimum for a site that is https for good; subdomains are the operator's call. */
export const HSTS = 'max-age=31536000';

/** The HSTS header of this configuration: subdomains only when the operator has said so. */
export function hstsHeader(config: Pick<SignInConfig, 'https'>): string {
  return config.https.hstsIncludeSubDomains ? `${HSTS}; includeSubDomains` : HSTS;
}

/** The empty `script-src` is what the engine appends the form_post script's hash to. */
export const FORM_POST_POLICY = ["default-src 'none'", 'script-src', "frame-ancestors 'none'", "base-uri 'none'"].join('; ');

export function responseHeaders(config: Pick<SignInConfig, 'issuer' | 'https'>): Koa.Middleware {
  const hsts = config.issuer.startsWith('https://') ? hstsHeader(config) : undefined;
  return function setResponseHeaders(ctx, next) {
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (hsts) ctx.set('Strict-Transport-Security', hsts);
    const endpoint = isEnginePath(ctx.path) ? protocolEndpoint(ctx.path) : undefined;
    if (endpoint?.noStore) ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    if (endpoint?.name === 'authorization' || endpoint?.name === 'resume') {
      ctx.set({ 'Content-Security-Policy': FORM_POST_POLICY, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' });
    }
    return next();
  };
}
