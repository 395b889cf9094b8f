// Two parameters of the authorization endpoint that the engine accepts and we do not. It has no
// setting for either, but runs `extraParams` validators once the client and the redirect URI are known
// good (lib/actions/authorization/index.js, checkExtraParams): a request refused here is sent back to
// the application as `invalid_request` (with `iss`), never to an unchecked address. Before that point,
// an unknown client or redirect URI is the engine's error page, as always.
import { errors, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * What a developer reads when `state` is missing: the rule, why, and the fix for the library that leaves it
 * out (openid-client 6 sends no `state` once PKCE is supported; oidc-client-ts, authlib and AppAuth send
 * one on their own). RFC 6749 §4.1.2.1 allows no `"` or `\` in an error description.
 */
export const STATE_REQUIRED =
  'state is required: send a random value in state and check that the callback returns it (it protects the application against forged callbacks); ' +
  'openid-client: pass `state: client.randomState()` to buildAuthorizationUrl and `expectedState` to authorizationCodeGrant';

/** `state` is required: it is the application's defence against forged callbacks (the spec marks it required). */
export function requireState(_ctx: KoaContextWithOIDC, value: string | undefined): void {
  if (!value) throw new errors.InvalidRequest(STATE_REQUIRED);
}

/**
 * The code flow answers in the query or by form_post: never in a URL fragment. The refusal itself goes
 * to the query (src/edge/authorization-response.ts moves any answer the engine put in a fragment).
 */
export function queryOrFormPost(ctx: KoaContextWithOIDC, value: string | undefined): void {
  if (value === undefined || value === 'query' || value === 'form_post') return;
  ctx.oidc.params!.response_mode = undefined;
  throw new errors.InvalidRequest('response_mode must be query or form_post');
}

/**
 * `screen_hint=signup` (Auth0's name for it): the first page is the sign-up form rather than the sign-in
 * form, for an application's "Créer un compte" button. Any other value is dropped: it is a hint.
 */
export function screenHint(ctx: KoaContextWithOIDC, value: string | undefined): void {
  if (value !== undefined && value !== 'signup') ctx.oidc.params!.screen_hint = undefined;
}

/** The engine's `extraParams`: each checked parameter with its validator, in this order. */
export const AUTHORIZATION_PARAM_CHECKS = { state: requireState, response_mode: queryOrFormPost, screen_hint: screenHint };
