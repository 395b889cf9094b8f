// The authorization endpoint answers in the query or by form_post only (the code flow; RFC 6749
// §4.1.2). The engine refuses `response_mode=fragment` (src/provider/authorization-params.ts), but an
// error found before that check, like the refusal of an unsupported `response_type=token`, goes to the
// URL fragment the engine would have used. This moves any answer the engine put in a fragment to the
// query of the same redirect URI, and the discovery document lists the two modes.
import type Koa from 'koa';
import { isEnginePath, protocolEndpoint } from './protocol-endpoints.ts';

export const RESPONSE_MODES = ['query', 'form_post'] as const;

export function authorizationResponses(): Koa.Middleware {
  const rewrite = async (ctx: Koa.Context, next: Koa.Next, name: string) => {
    await next();
    if (name === 'discovery') return listResponseModes(ctx);
    const location = ctx.response.get('Location');
    if (ctx.status < 300 || ctx.status >= 400 || !location.includes('#')) return;
    // redirect() again: the "Redirecting to …" body names the new address too. The status stays 303.
    ctx.redirect(fragmentToQuery(location));
  };
  return function answerInQuery(ctx, next) {
    const name = isEnginePath(ctx.path) ? protocolEndpoint(ctx.path)?.name : undefined;
    return name === 'discovery' || name === 'authorization' || name === 'resume' ? rewrite(ctx, next, name) : next();
  };
}

/** `https://rp/cb?a=1#error=x&state=s` → `https://rp/cb?a=1&error=x&state=s`. */
export function fragmentToQuery(location: string): string {
  const url = new URL(location);
  const answer = new URLSearchParams(url.hash.slice(1));
  url.hash = '';
  for (const [name, value] of answer) url.searchParams.append(name, value);
  return url.href;
}

function listResponseModes(ctx: Koa.Context): void {
  const body: unknown = ctx.body;
  if (body && typeof body === 'object' && 'response_modes_supported' in body) {
    Object.assign(body, { response_modes_supported: [...RESPONSE_MODES] });
  }
}
