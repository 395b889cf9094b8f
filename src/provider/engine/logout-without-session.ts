// A sign-out request (GET or POST /oauth/logout) from a browser with no session: the engine has no hook
// for it. It skips `logoutSource` and answers with its own self-submitting page, raw English HTML whose
// inline script the pages' policy forbids. What that page would post is read here, so that the service
// can show the same form as its own page, sent by a button.
//
// Relies on oidc-provider 9.13:
// - lib/actions/end_session.js, `renderLogout` (route `end_session`): without `session.accountId` it
//   calls lib/response_modes/form_post.js, a 200 HTML page posting `xsrf` and `logout=yes` to the
//   `end_session_confirm` route, after lib/shared/xsrf.js `generateXsrf` stored the `xsrf` value as
//   `session.state.secret`;
// - lib/shared/xsrf.js, `checkXsrf`: the confirm route compares the posted `xsrf` with that secret.
import type { KoaContextWithOIDC } from 'oidc-provider';

export interface LogoutForm {
  action: string;
  fields: readonly (readonly [string, string])[];
}

/** The form the engine has just answered a sign-out without a session with, if that is what it did. */
export function logoutFormWithoutSession(ctx: KoaContextWithOIDC): LogoutForm | undefined {
  const oidc = ctx.oidc;
  if (oidc?.route !== 'end_session' || ctx.status !== 200 || !ctx.response.is('html')) return undefined;
  if (!oidc.session || oidc.session.accountId) return undefined;
  const secret = (oidc.session.state as { secret?: unknown } | undefined)?.secret;
  if (typeof secret !== 'string' || !secret) return undefined;
  return {
    action: oidc.urlFor('end_session_confirm'),
    fields: [
      ['xsrf', secret],
      ['logout', 'yes'],
    ],
  };
}
