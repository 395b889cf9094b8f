// Every endpoint and every field the service reads, one line each: a new endpoint is one more line.
// `kind` says how a refusal must look: RFC 6749 JSON (`api`), or the localized page (`browser`: an
// engine endpoint a browser navigates to; `page`: our own pages). `in` says where the fields travel;
// for `path`, the hostile value replaces `{}` in the path. `base` gives the other fields valid values,
// so that each hostile value reaches the code that reads its field.
import type { Agent, Fixture } from './fixture.ts';

export type Kind = 'api' | 'browser' | 'page';

export interface Endpoint {
  method: 'GET' | 'POST';
  path: (fx: Fixture) => string;
  kind: Kind;
  in: 'query' | 'body' | 'path';
  fields: readonly string[];
  base?: (fx: Fixture) => Record<string, string>;
  agent?: (fx: Fixture) => Agent;
  /** An engine path that is no endpoint: not tried with other methods. */
  noMethods?: true;
  /**
   * Fields whose repetition goes back to the application as `invalid_request` (RFC 6749 §4.1.2.1): the
   * authorization endpoint's, once its client and redirect URI are known good.
   */
  redirectsRepeated?: readonly string[];
}

const creds = (fx: Fixture) => ({ client_id: fx.client.clientId, client_secret: fx.client.clientSecret });
const AUTHORIZE_FIELDS = [
  'client_id',
  'response_type',
  'redirect_uri',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'response_mode',
  'prompt',
  'max_age',
  'ui_locales',
  'login_hint',
  'id_token_hint',
  'request_uri',
];
/** Every authorization field but the two that name the application and its address. */
const REDIRECTED_REPEATS = AUTHORIZE_FIELDS.filter((field) => field !== 'client_id' && field !== 'redirect_uri');
const interactionPath = (step: string) => (fx: Fixture) => `/interaction/${fx.interaction.uid}/${step}`;
const inInteraction = (fx: Fixture) => fx.interaction.agent;
const asVisitor = (fx: Fixture) => fx.visitor.agent;
const asAccount = (fx: Fixture) => fx.account.agent;
const asOwner = (fx: Fixture) => fx.owner.agent;
const at = (path: string) => () => path;

export const ENDPOINTS: readonly Endpoint[] = [
  // The engine: protocol endpoints (JSON).
  {
    method: 'POST',
    path: at('/oauth/token'),
    kind: 'api',
    in: 'body',
    fields: ['grant_type', 'code', 'redirect_uri', 'code_verifier', 'client_id', 'client_secret', 'refresh_token'],
    base: (fx) => ({
      grant_type: 'authorization_code',
      code: 'not-a-code',
      redirect_uri: fx.client.redirectUri,
      code_verifier: 'v'.repeat(43),
      ...creds(fx),
    }),
  },
  {
    method: 'POST',
    path: at('/oauth/token/revoke'),
    kind: 'api',
    in: 'body',
    fields: ['token', 'token_type_hint', 'client_id', 'client_secret'],
    base: (fx) => ({ token: 'not-a-token', ...creds(fx) }),
  },
  {
    method: 'POST',
    path: at('/oauth/token/introspect'),
    kind: 'api',
    in: 'body',
    fields: ['token', 'token_type_hint', 'client_id', 'client_secret'],
    base: (fx) => ({ token: 'not-a-token', ...creds(fx) }),
  },
  {
    method: 'POST',
    path: at('/oauth/par'),
    kind: 'api',
    in: 'body',
    fields: [...AUTHORIZE_FIELDS, 'client_secret'],
    base: (fx) => ({ ...fx.authorize, client_secret: fx.client.clientSecret }),
  },
  { method: 'GET', path: at('/oauth/userinfo'), kind: 'api', in: 'query', fields: ['access_token'] },
  { method: 'POST', path: at('/oauth/userinfo'), kind: 'api', in: 'body', fields: ['access_token'] },
  { method: 'GET', path: at('/oauth/jwks'), kind: 'api', in: 'query', fields: ['x'] },
  { method: 'GET', path: at('/.well-known/openid-configuration'), kind: 'api', in: 'query', fields: ['x'] },
  { method: 'GET', path: at('/oauth/{}'), kind: 'api', in: 'path', fields: ['segment'], noMethods: true },
  // The engine: endpoints a browser navigates to (localized page).
  {
    method: 'GET',
    path: at('/oauth/authorize'),
    kind: 'browser',
    in: 'query',
    fields: AUTHORIZE_FIELDS,
    base: (fx) => fx.authorize,
    redirectsRepeated: REDIRECTED_REPEATS,
  },
  {
    method: 'POST',
    path: at('/oauth/authorize'),
    kind: 'browser',
    in: 'body',
    fields: AUTHORIZE_FIELDS,
    base: (fx) => fx.authorize,
    redirectsRepeated: REDIRECTED_REPEATS,
  },
  { method: 'GET', path: at('/oauth/authorize/{}'), kind: 'browser', in: 'path', fields: ['uid'] },
  {
    method: 'GET',
    path: at('/oauth/logout'),
    kind: 'browser',
    in: 'query',
    fields: ['client_id', 'id_token_hint', 'post_logout_redirect_uri', 'state', 'ui_locales', 'logout_hint'],
    base: (fx) => ({ client_id: fx.client.clientId }),
  },
  { method: 'POST', path: at('/oauth/logout/confirm'), kind: 'browser', in: 'body', fields: ['xsrf', 'logout'] },
  { method: 'GET', path: at('/oauth/logout/success'), kind: 'browser', in: 'query', fields: ['state'] },
  // The sign-in pages.
  { method: 'GET', path: at('/interaction/{}'), kind: 'page', in: 'path', fields: ['uid'], agent: inInteraction },
  {
    method: 'POST',
    path: interactionPath('login'),
    kind: 'page',
    in: 'body',
    fields: ['email', 'password'],
    base: () => ({ email: 'nobody@example.org', password: 'not the password' }),
    agent: inInteraction,
  },
  {
    method: 'POST',
    path: interactionPath('signup'),
    kind: 'page',
    in: 'body',
    fields: ['email', 'username', 'first_name', 'password'],
    base: () => ({ email: 'new@example.org', username: 'new_user', first_name: 'Awa', password: 'une phrase de passe solide' }),
    agent: inInteraction,
  },
  { method: 'POST', path: interactionPath('consent'), kind: 'page', in: 'body', fields: ['scope'], agent: inInteraction },
  // No field: odd bodies and methods only.
  { method: 'POST', path: interactionPath('abort'), kind: 'page', in: 'body', fields: [], agent: inInteraction },
  { method: 'GET', path: at('/password/forgot'), kind: 'page', in: 'query', fields: ['return'] },
  {
    method: 'POST',
    path: at('/password/forgot'),
    kind: 'page',
    in: 'body',
    fields: ['csrf', 'email', 'return'],
    base: (fx) => ({ csrf: fx.visitor.csrf, email: 'nobody@example.org', return: '/account' }),
    agent: asVisitor,
  },
  { method: 'GET', path: at('/password/reset'), kind: 'page', in: 'query', fields: ['token'] },
  {
    method: 'POST',
    path: at('/password/reset'),
    kind: 'page',
    in: 'body',
    fields: ['csrf', 'token', 'password'],
    base: (fx) => ({ csrf: fx.visitor.csrf, token: 'not-a-token', password: 'une phrase de passe solide' }),
    agent: asVisitor,
  },
  { method: 'GET', path: at('/email/verify'), kind: 'page', in: 'query', fields: ['token'] },
  {
    method: 'POST',
    path: at('/email/verify'),
    kind: 'page',
    in: 'body',
    fields: ['csrf', 'token'],
    base: (fx) => ({ csrf: fx.visitor.csrf, token: 'not-a-token' }),
    agent: asVisitor,
  },
  { method: 'GET', path: at('/lang/{}'), kind: 'page', in: 'path', fields: ['locale'] },
  { method: 'GET', path: at('/lang/fr'), kind: 'page', in: 'query', fields: ['return'] },
  // The account page.
  { method: 'GET', path: at('/account'), kind: 'page', in: 'query', fields: ['notice'], agent: asAccount },
  {
    method: 'POST',
    path: at('/account/login'),
    kind: 'page',
    in: 'body',
    fields: ['csrf', 'email', 'password'],
    base: (fx) => ({ csrf: fx.visitor.csrf, email: 'nobody@example.org', password: 'not the password' }),
    agent: asVisitor,
  },
  {
    method: 'POST',
    path: at('/account/revoke'),
    kind: 'page',
    in: 'body',
    fields: ['csrf', 'client_id'],
    base: (fx) => ({ csrf: fx.account.csrf, client_id: 'not-a-client' }),
    agent: asAccount,
  },
  {
    method: 'POST',
    path: at('/account/password'),
    kind: 'page',
    in: 'body',
    fields: ['csrf', 'current_password', 'new_password'],
    base: (fx) => ({ csrf: fx.account.csrf, current_password: 'not the password', new_password: 'une autre phrase de passe' }),
    agent: asAccount,
  },
  // Without its token in the base: a valid post would sign the fixture's user out everywhere.
  { method: 'POST', path: at('/account/sessions/end'), kind: 'page', in: 'body', fields: ['csrf'], agent: asAccount },
  // Likewise: a valid post would sign the fixture's browser out.
  { method: 'POST', path: at('/account/sign-out'), kind: 'page', in: 'body', fields: ['csrf'], agent: asAccount },
  {
    method: 'POST',
    path: at('/account/sessions/end-one'),
    kind: 'page',
    in: 'body',
    fields: ['csrf', 'session'],
    base: (fx) => ({ csrf: fx.account.csrf, session: 'not-a-session' }),
    agent: asAccount,
  },
  // The developer portal.
  { method: 'GET', path: at('/portal/'), kind: 'page', in: 'query', fields: ['x'], agent: asOwner },
  { method: 'GET', path: at('/portal/callback'), kind: 'page', in: 'query', fields: ['code', 'state', 'iss'] },
  { method: 'GET', path: at('/portal/apps/{}'), kind: 'page', in: 'path', fields: ['id'], agent: asOwner },
  {
    method: 'POST',
    path: at('/portal/apps'),
    kind: 'page',
    in: 'body',
    fields: ['csrf', 'name', 'description', 'app_type', 'redirect_uris', 'scope'],
    base: (fx) => ({
      csrf: fx.owner.csrf,
      name: 'Hostile',
      description: 'Une application',
      app_type: 'web',
      redirect_uris: 'https://hostile.example.org/cb',
      scope: 'openid',
    }),
    agent: asOwner,
  },
  { method: 'POST', path: at('/portal/logout'), kind: 'page', in: 'body', fields: ['csrf'], agent: asOwner },
];
