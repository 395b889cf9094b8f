// Sign-in through the browser's account chooser (FedCM), for a web or single-page application: the
// service's script asks the browser, and falls back to the redirect with the same PKCE pair where the
// browser has no FedCM. The code comes bound to the first redirect URI, which the token request repeats
// (docs/guides/fedcm.md).
import { STATE_NOTE, type HelpSection } from './help-blocks.ts';
import { quoted, type HelpValues } from './help-values.ts';

export function fedcmSection(values: HelpValues): HelpSection {
  return {
    id: 'help-section-fedcm',
    title: 'help.fedcm.title',
    intro: 'help.fedcm.intro',
    blocks: [{ id: 'help-fedcm', note: STATE_NOTE, lang: 'javascript', code: fedcmSnippet(values) }],
  };
}

function fedcmSnippet(v: HelpValues): string {
  const exchange = v.publicClient
    ? `// Then, in the page: POST ${v.urls.token} with grant_type=authorization_code, code,
// redirect_uri=${v.redirectUri}, code_verifier and client_id (no secret).`
    : `// Your server then redeems it: POST ${v.urls.token} with grant_type=authorization_code, code,
// redirect_uri=${v.redirectUri}, code_verifier, client_id and client_secret.`;
  return `<script src="${v.issuer}/fedcm/client.js"></script>

// On the sign-in button's click (the browser opens its login pop-up only after a click):
const { codeChallenge, state } = await newPkceAndState(); // S256 challenge; keep the verifier and state
const result = await SignIn.start({
  issuer: ${quoted(v.issuer)},
  clientId: ${quoted(v.clientId)},
  redirectUri: ${quoted(v.redirectUri)},
  scope: ${quoted(v.scopes.join(' '))},
  codeChallenge,
  state,
});
// With FedCM, result.code is the authorization code. Without it (Safari, Firefox, WebViews) the page
// has gone to the authorization endpoint instead, and the code comes back to the redirect URI as usual.
${exchange}`;
}
