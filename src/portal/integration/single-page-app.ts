// A single-page application with oidc-client-ts: a public client in the browser, PKCE and a random
// `state` added by the library, the tokens kept in session storage, userinfo read by the library
// (the service answers CORS for the origins of the application's redirect URIs).
import { STATE_NOTE, type HelpSection } from './help-blocks.ts';
import { quoted, type HelpValues } from './help-values.ts';

export function singlePageAppSection(values: HelpValues): HelpSection {
  return {
    id: 'help-section-spa',
    title: 'help.spa.title',
    intro: 'help.spa.intro',
    blocks: [{ id: 'help-spa', note: STATE_NOTE, lang: 'javascript', code: singlePageApp(values) }],
  };
}

function singlePageApp(v: HelpValues): string {
  return `// npm install oidc-client-ts
import { UserManager } from 'oidc-client-ts';

const auth = new UserManager({
  authority: ${quoted(v.issuer)},
  client_id: ${quoted(v.clientId)},
  redirect_uri: ${quoted(v.redirectUri)},
  post_logout_redirect_uri: ${quoted(v.redirectUri)},
  response_type: 'code', // PKCE (S256) and a random state: added and checked by the library
  scope: ${quoted(v.scopes.join(' '))},
  loadUserInfo: true, // the ID token names the user (sub); the rest comes from userinfo
});

// The sign-in button:
document.querySelector('#sign-in').addEventListener('click', () => auth.signinRedirect());

// The page at the redirect URI:
if (new URLSearchParams(location.search).has('code')) {
  const user = await auth.signinRedirectCallback();
  console.log(user.profile.sub, user.profile.email);
  // Calls to your API: Authorization: Bearer \${user.access_token}
}

// The sign-out button (ends the session with the service too):
document.querySelector('#sign-out').addEventListener('click', () => auth.signoutRedirect());`;
}
