// Which browser origins may call the token, revocation and userinfo endpoints. A single-page
// application calls them from its own origin, which must be the origin of one of its registered
// redirect URIs; userinfo is open to every application's origins. Nothing else is, so a page of
// another origin cannot use a stolen code or token from a victim's browser.
import type { Client } from 'oidc-provider';

/** What the hook reads of the request: the engine route being called (`ctx.oidc.route`). */
export interface CorsRequest {
  oidc: { route: string };
}

export function clientBasedCORS(ctx: CorsRequest, origin: string, client: Pick<Client, 'redirectUris' | 'metadata'>): boolean {
  if (origin === 'null') return false;
  const registered = client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false;
  if (!registered) return false;
  return ctx.oidc.route === 'userinfo' || client.metadata().app_type === 'spa';
}
