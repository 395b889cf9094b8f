// English catalog of the developer portal. Typed by the French one: a missing or unknown key does not compile.
import type { portalFr } from './portal-fr.ts';
import { portalIntegrationEn } from './portal-integration-en.ts';

export type PortalMessages = { readonly [K in keyof typeof portalFr]: string };

export const portalEn: PortalMessages = {
  ...portalIntegrationEn,
  'portal.name': 'Developer portal',
  'page.title': '{page} · Developer portal',
  'nav.apps': 'My applications',
  'nav.signOut': 'Sign out of the portal',
  'nav.signedInAs': 'Signed in as {email}',
  'nav.language': 'Language',

  'home.title': 'Developer portal',
  'home.intro': 'Register your applications so that they can sign their users in with the sign-in service.',
  'home.signIn': 'Sign in with my account',
  'home.signInFailed': 'Signing in to the portal did not succeed. Please try again.',

  'apps.title': 'My applications',
  'apps.empty': 'You have not registered any application yet.',
  'apps.new': 'Register an application',
  'apps.clientId': 'client_id',

  'appType.web': 'Website (server-side)',
  'appType.spa': 'Single-page web application',
  'appType.mobile': 'Mobile application',
  'appType.server': 'Server application (machine to machine)',

  'form.newTitle': 'Register an application',
  'form.editTitle': 'Edit {name}',
  'form.errorSummary': 'The form has errors. Please correct the fields marked below.',
  'form.name': 'Name',
  'form.nameHint': 'Shown to users on the consent screen.',
  'form.description': 'Description',
  'form.descriptionHint': 'What the application does, in a sentence or two.',
  'form.appType': 'Application type',
  'form.appTypeFixed': 'The type cannot be changed after registration.',
  'form.redirectUris': 'Redirect URIs',
  'form.redirectUrisHint':
    'One exact URI per line, written in its canonical form (https://app.example.org/callback: lower-case scheme and host, no default port, no backslash). https is required. http only on a loopback address (localhost, 127.0.0.1, [::1]) and only for a single-page or mobile app, during development: a website (server) always uses https. Mobile apps: also a reverse-domain private-use scheme (com.example.app:/callback).',
  'form.fedcmOrigins': 'FedCM origins (optional)',
  'form.fedcmOriginsHint':
    'The sites from which your application may offer sign-in through the browser’s account chooser (FedCM): the https origins of your redirect URIs already may. Add others here, one per line, without a path: https://www.example.org.',
  'error.fedcmOrigins.fedcm_origin.not_origin':
    '“{value}” is not an origin: write https://host or https://host:port, in lower case, without a path or a trailing slash.',
  'error.fedcmOrigins.redirect_uri.https_required': '“{value}” must use https: browsers offer FedCM to secure sites only.',
  'form.scopes': 'Requested information (scopes)',
  'form.scopeRequired': 'Required',
  'form.scope.openid': 'openid: identify the user',
  'form.scope.email': 'email: their e‑mail address',
  'form.scope.profile': 'profile: their username and first name',
  'form.scope.phone': 'phone: their verified phone number',
  'form.create': 'Register the application',
  'form.save': 'Save changes',
  'form.cancel': 'Cancel',

  'error.required': 'This field is required.',
  'error.name.too_long': 'The name must be at most 100 characters long.',
  'error.description.too_long': 'The description must be at most 1,000 characters long.',
  'error.too_long': 'This text is too long.',
  'error.invalid': 'Choose a value from the list.',
  'error.redirectUris.required': 'Enter at least one redirect URI.',
  'error.redirect_uri.not_absolute': '“{value}” is not an absolute URI (it must start with https://).',
  'error.redirect_uri.fragment': '“{value}” must not contain a fragment (#…).',
  'error.redirect_uri.userinfo':
    '“{value}” must not contain a user name or password (user@…): the browser would go to the host after the @.',
  'error.redirect_uri.wildcard': '“{value}” must not contain a wildcard (*): every URI must be exact.',
  'error.redirect_uri.https_required':
    '“{value}” must use https: http is accepted only on a loopback address (localhost, 127.0.0.1, [::1]) and only for a single-page or mobile app, during development.',
  'error.redirect_uri.not_canonical':
    '“{value}” is not written in its canonical form: browsers and libraries would each read it their own way. Write it as {canonical}',
  'error.redirect_uri.backslash': '“{value}” must not contain a backslash (\\): a browser reads it as /, other libraries do not.',
  'error.redirect_uri.mobile_scheme':
    '“{value}”: a mobile app uses https, a reverse-domain private-use scheme (com.example.app:/callback) or a loopback address.',
  'error.unknown': 'The scope “{value}” does not exist.',
  'error.required_scope': 'The scope “{value}” is required.',

  'app.type': 'Type',
  'app.description': 'Description',
  'app.redirectUris': 'Redirect URIs',
  'app.scopes': 'Scopes',
  'app.edit': 'Edit',
  'app.rotate': 'Generate a new secret',
  'app.rotateHint': 'You choose how long the current secret keeps working.',
  'app.delete': 'Delete the application',
  'app.created': 'Application registered.',
  'app.updated': 'Changes saved.',
  'app.rotated': 'New secret generated. The old one no longer works.',
  'app.secretTitle': 'Your credentials',
  'app.secretWarning':
    'Copy the client_secret now and keep it somewhere safe: it will never be shown again. If you lose it, generate a new one.',
  'app.secretNever': 'The client_secret is shown only once, at registration or after generating a new one.',
  'app.copy': 'Copy',
  'app.copied': 'Copied',

  'help.title': 'Integrate this application',
  'help.intro':
    'Any certified OpenID Connect library configures itself from the discovery URL. PKCE (S256) is required; the client_secret is sent in the request body.',
  'help.discovery': 'Discovery URL',
  'help.authorize': '1. Send the user to this URL (replace STATE and CODE_CHALLENGE)',
  'help.token': '2. Exchange the code you received for tokens',
  'help.refresh': 'Refresh the tokens',
  'help.userinfo': '3. Read the user’s information',

  'delete.title': 'Delete {name}?',
  'delete.warning':
    'The application will no longer be able to sign anyone in. Every access users granted it and every token issued to it will be revoked. This cannot be undone.',
  'delete.confirm': 'Yes, delete permanently',
  'delete.deleted': 'The application “{name}” has been deleted.',

  'error.notFound.title': 'Page not found',
  'error.notFound.message': 'This page does not exist, or this application is not yours.',
  'error.forbidden.title': 'Form expired',
  'error.forbidden.message': 'This form is no longer valid. Go back, reload the page and try again.',
  'error.generic.title': 'Something went wrong',
  'error.generic.message': 'The request could not be completed. Please try again in a moment.',
  'error.back': 'Back to my applications',
  'nav.brandLinks': 'About the service',
  'form.appTypeHint':
    'Mobile app and single-page web app: public applications, which authenticate with PKCE alone, without a secret (a secret shipped in an app or a page is no longer secret). Website: a confidential application, which sends its client_secret. Server application (machine to machine): a program calling on its own behalf, with no user; it gets its tokens with the client_credentials grant and its client_secret, with no redirect URI and no scope (neither openid, email nor profile: its tokens name no user).',
  'form.scopesHint':
    'openid and email are always shared: users cannot untick them, they can only refuse the whole request. profile is optional: users may choose not to share it.',
  'form.links': 'Links shown on the consent screen (optional)',
  'form.linksHint': 'Full https addresses. The service does not download them: the user’s browser opens them.',
  'form.logoUri': 'Logo (logo_uri)',
  'form.logoUriHint':
    'Shown only once an administrator of the service has verified the application. A new name or logo ends that verification.',
  'form.policyUri': 'Privacy policy (policy_uri)',
  'form.tosUri': 'Terms of service (tos_uri)',
  'error.link.not_absolute': '“{value}” is not a full address (it must start with https://).',
  'error.link.https_required': '“{value}” must use https.',
  'error.link.userinfo': '“{value}” must not contain a user name or a password.',
  'error.link.fragment': '“{value}” must not contain a fragment (#…).',
  'error.link.unsafe': '“{value}” must not contain a space, quote, comma or semicolon.',
  'app.verified':
    'Application verified by an administrator of the service: the consent screen shows its logo and the domain of your e‑mail address.',
  'app.unverified':
    'Unverified application: the consent screen tells users so and does not show its logo. An administrator of the service can verify it.',
  'app.secretPublic':
    'This application is public: it does not need this secret, PKCE is enough. Do not put it in the app; if it is sent anyway, it is accepted.',
  'help.introPublic':
    'Any certified OpenID Connect library (AppAuth, for example) configures itself from the discovery address. Public application: PKCE (S256) protects the code, no secret is sent (token_endpoint_auth_method: none). Refresh tokens change on every use.',
  'form.userFacing': 'Signing users in',
  'form.userFacingHint': 'Not for a server application: it signs no user in, and has neither redirect URI nor scope.',
  'app.grant': 'Grant',
  'app.grantServer': 'client_credentials: the service asks for tokens for itself, with no user.',
  'help.introServer':
    'Server application (machine to machine): it gets an access token for itself with the client_credentials grant (RFC 6749 §4.4), sending its client_secret in the request body. The token names no user (no sub) and carries no scope: /oauth/userinfo refuses it. Your own APIs can check it by introspection, with this application’s credentials.',
  'help.clientCredentials': '1. Get an access token for the service',
  'help.introspect': '2. Check a token (introspection)',
  'help.revoke': 'Revoke a token',
  'rotate.title': 'Generate a new secret for {name}?',
  'rotate.warning':
    'Once the old secret stops working, every request that sends it will be refused. Every server that uses it must be given the new secret, which is shown only once.',
  'rotate.confirm': 'Yes, generate a new secret',
  'reauth.intro': 'You signed in more than 5 minutes ago: enter your password again to confirm it is you.',
  'reauth.password': 'Password',
  'reauth.required': 'Enter your password to go on. Nothing has been changed.',
  'reauth.wrong': 'Wrong password. Nothing has been changed.',
  'reauth.tooMany':
    'Too many sign-in attempts. Try again in {minutes, plural, one {# minute} other {# minutes}}. Nothing has been changed.',
  'mail.rotated.subject': 'New secret for your application {name}',
  'mail.rotated.intro':
    'A new client_secret was generated on {time} for your application “{name}” (client_id {clientId}), from the developer portal. The old secret no longer works: every server that used it must be given the new one.',
  'mail.rotated.ignore':
    'If this was not you, someone else is using your account: choose a new password right away, then generate a new secret from the portal.',
  'mail.deleted.subject': 'Your application {name} was deleted',
  'mail.deleted.intro':
    'Your application “{name}” (client_id {clientId}) was deleted on {time}, from the developer portal. It can no longer sign anyone in; the access and tokens issued to it are revoked.',
  'mail.deleted.ignore':
    'If this was not you, someone else is using your account: choose a new password right away and check your other applications. A deleted application cannot be restored: register it again if needed.',
  'mail.action.reset': 'Choose a new password',
  'mail.action.apps': 'See my applications',
  'error.redirectUris.not_for_server': 'A server application has no redirect URI: “{value}” cannot be registered.',
  'error.scopes.not_for_server': 'A server application requests no scope: “{value}” cannot be registered.',
};
