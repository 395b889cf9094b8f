// Signing out (RP-Initiated Logout: the end-session endpoint, back to a registered address) and which
// claims arrive where: the ID token names the user (a `sub` per application), userinfo answers the
// rest for the scopes the application asks for and the user granted.
import type { RegisteredClient } from '../../clients/registry.ts';
import { isScope, SCOPE_CLAIMS } from '../../policy/scopes.ts';
import type { HelpSection } from './help-blocks.ts';
import { urlWithQuery, type HelpValues } from './help-values.ts';

export function signOutSection(v: HelpValues): HelpSection {
  return {
    id: 'help-section-sign-out',
    title: 'help.signOut.title',
    intro: 'help.signOut.intro',
    blocks: [
      {
        id: 'help-sign-out',
        lang: 'url',
        code: urlWithQuery(v.urls.endSession, [
          ['id_token_hint', 'ID_TOKEN'],
          ['post_logout_redirect_uri', v.redirectUri],
          ['state', 'STATE'],
        ]),
      },
    ],
  };
}

/** Standard claims of every ID token besides `sub`, which says who signed in. */
const ID_TOKEN_CLAIMS = ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time'];

export function claimsSection(client: Pick<RegisteredClient, 'scopes'>): HelpSection {
  const userinfo = client.scopes.filter(isScope).map((scope) => ({ scope, claims: [...SCOPE_CLAIMS[scope]] }));
  return {
    id: 'help-section-claims',
    title: 'help.claims.title',
    intro: 'help.claims.intro',
    blocks: [],
    claims: { idToken: ID_TOKEN_CLAIMS, userinfo },
  };
}
