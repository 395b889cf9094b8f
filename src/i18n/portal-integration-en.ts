// English messages of the portal's integration help and secret overlap, spread into portal-en.ts.
import type { portalIntegrationFr } from './portal-integration-fr.ts';

export const portalIntegrationEn: { readonly [K in keyof typeof portalIntegrationFr]: string } = {
  'app.secretNotNeeded': 'client_secret: not needed for this type of application',
  'app.previousSecretUntil': 'The previous secret keeps working until {until}; after that it is refused.',
  'app.rotatedOverlap': 'New secret generated. The old one keeps working until {until}.',
  'rotate.overlap': 'How long should the old secret keep working?',
  'rotate.overlapHint': 'An overlap lets you move each server of the application to the new secret one after the other, without an outage.',
  'rotate.overlap.none': 'It stops working now',
  'rotate.overlap.1h': 'One more hour',
  'rotate.overlap.24h': 'One more day (24 hours)',
  'help.stateRule':
    'state is required: send a new random value with every sign-in and check that it comes back unchanged (it protects the application against forged callbacks). Without it the service answers invalid_request. With openid-client, pass state: client.randomState(); the other libraries below add it on their own.',
  'help.node.title': 'Node.js web application (openid-client)',
  'help.node.intro':
    'A complete program with no dependency but openid-client: /login sends the user to sign in, the redirect URI receives the code, exchanges it and shows the userinfo answer, /logout signs the user out. Put it behind your https server at the registered redirect URI.',
  'help.python.title': 'Python web application (Authlib)',
  'help.python.intro':
    'The same program in Python, with Authlib and requests: Authlib adds state and PKCE and checks state on return, and the ID token’s signature, issuer and audience are checked with the service’s JWKS.',
  'help.spa.title': 'Single-page application (oidc-client-ts)',
  'help.spa.intro':
    'oidc-client-ts configures itself from the discovery URL, adds PKCE and state, and checks them on return. Public application: no secret in the page.',
  'help.fedcm.title': 'Without a redirect: the browser’s account chooser (FedCM)',
  'help.fedcm.intro':
    'Chrome, Edge and Samsung Internet, on desktop and Android, show their own account chooser (a bottom sheet on Android): the user stays on your page. The service’s script uses it where the browser has it, and falls back to the usual redirect with the same PKCE pair. The code is redeemed as a code of the redirect flow, with the same redirect URI.',
  'help.mobile.title': 'Mobile application (AppAuth)',
  'help.mobile.intro':
    'AppAuth for Android and iOS opens the sign-in pages in the system browser (never a WebView) and adds PKCE and state. On Android, a Custom Tab shown as a sheet at the bottom of the screen keeps the app in view; the service’s pages are laid out for that sheet. Public application: no secret in the app.',
  'help.mobile.android': 'Android (Kotlin)',
  'help.mobile.ios': 'iOS (Swift)',
  'help.curl.title': 'By hand, with curl',
  'help.pkce': '0. New PKCE values and state for every sign-in',
  'help.signOut.title': 'Sign-out',
  'help.signOut.intro':
    'Send the user to the end-session endpoint (end_session_endpoint) with the ID token received at sign-in: the service asks them to confirm, ends their session, then sends them to post_logout_redirect_uri, which must be one of this application’s registered redirect URIs.',
  'help.claims.title': 'What you learn about the user',
  'help.claims.intro':
    'The ID token only says who signed in: sub, a stable identifier of its own for this application. The e‑mail address, the username and the first name come from userinfo, for the requested scopes the user accepted.',
  'help.claims.where': 'Where',
  'help.claims.which': 'Claims',
  'help.claims.idToken': 'ID token (id_token)',
  'help.claims.userinfo': 'userinfo, scope {scope}',
  'mail.rotatedOverlap.intro':
    'A new client_secret was generated on {time} for your application “{name}” (client_id {clientId}), from the developer portal. The old secret keeps working until {until}: every server that uses it must be given the new one by then.',
};
