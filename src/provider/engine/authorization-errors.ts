// An error of the authorization endpoint that the engine would send back to the application is held
// back, and shown as the service's page instead, when the service says the application may not receive
// it yet (the rule is src/provider/error-redirects.ts). The engine has no setting for this: it chooses
// between the redirect and the renderError hook by the error's `allow_redirect` flag alone.
//
// Relies on oidc-provider 9.13:
// - lib/shared/authorization_error_handler.js: for an error in the stack of the `authorization` and
//   `resume` routes, it loads the client, checks the redirect URI against it, emits 'authorization.error'
//   (ctx, error) synchronously for an exposed error, and only then reads `error.allow_redirect`: false
//   calls `renderError`, true sends the error to the redirect URI in the request's response mode. It
//   redirects only with a string `client_id` and `redirect_uri` and a client that allows that URI
//   (otherwise it renders an InvalidRedirectUri or the error itself);
// - lib/helpers/errors.js: `OIDCProviderError.allow_redirect`, a plain writable field, true by default.
import type Provider from 'oidc-provider';
import type { errors, KoaContextWithOIDC } from 'oidc-provider';

type AuthorizationError = Pick<errors.OIDCProviderError, 'allow_redirect' | 'error'>;

/**
 * Calls `mayRedirect` for each error the engine is about to send to a registered redirect URI; when it
 * answers false, the engine renders the error page instead and `onHeld` is told. Returns how to stop.
 */
export function holdErrorRedirects(
  provider: Provider,
  mayRedirect: (ctx: KoaContextWithOIDC) => boolean,
  onHeld: (ctx: KoaContextWithOIDC, error: AuthorizationError) => void = () => {},
): () => void {
  const hold = (ctx: KoaContextWithOIDC, error: AuthorizationError) => {
    if (!wouldRedirect(ctx, error) || mayRedirect(ctx)) return;
    error.allow_redirect = false;
    onHeld(ctx, error);
  };
  provider.on('authorization.error', hold);
  return () => provider.off('authorization.error', hold);
}

/** What the engine's handler checks before it redirects: a redirectable error, to a URI the client registered. */
function wouldRedirect(ctx: KoaContextWithOIDC, error: AuthorizationError): boolean {
  if (error.allow_redirect !== true) return false;
  const client = ctx.oidc?.client;
  // The handler's own fallback: the query, for an error thrown before the parameters were assembled.
  const params = (ctx.oidc?.params ?? ctx.query) as { client_id?: unknown; redirect_uri?: unknown } | undefined;
  const redirectUri = params?.redirect_uri;
  if (!client || typeof params?.client_id !== 'string' || typeof redirectUri !== 'string' || !redirectUri) return false;
  return client.redirectUriAllowed(redirectUri);
}
