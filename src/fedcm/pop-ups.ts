// The two pop-ups the browser opens for FedCM, both through the engine's own authorization endpoint so
// that the user sees the service's ordinary pages and every rule of the redirect flow applies:
//  - the continuation (`continue_on`), when the application has not been given the scopes it asks for: the
//    same consent page as the redirect flow (and the login page first, should the browser have no session),
//    for the application's own request (its client_id, redirect URI, scopes and PKCE challenge);
//  - the login URL, when the browser knows the user is signed out: the ordinary login page, for the
//    service's own FedCM client (first-party: no consent).
// Each is recorded under a random id carried as the request's `state`; the engine's answer to that state is
// taken back by engine-hooks.ts, which ends the pop-up with the code (IdentityProvider.resolve) or without.
import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { RegisteredClient } from '../clients/registry.ts';
import type { SignInConfig } from '../config/schema.ts';
import { renderErrorPage } from '../pages/error-page.ts';
import { localeFor } from '../pages/language.ts';
import { ROUTES } from '../provider/paths.ts';
import type { AssertionRequest } from './assertion-request.ts';
import type { FedcmDeps } from './fedcm-deps.ts';
import { FEDCM_ROUTES } from './fedcm-urls.ts';

export const POPUP_MODEL = 'FedcmPopup';
export const STATE_PREFIX = 'fedcm.';

export interface PopUp {
  kind: 'consent' | 'login';
  clientId: string;
  redirectUri: string;
  scope: string;
  codeChallenge: string;
  origin?: string;
  nonce?: string;
}

export interface PopUps {
  open(popUp: PopUp): Promise<string>;
  /** The pop-up, once: a second answer with the same state is not taken back. */
  take(id: string): Promise<PopUp | undefined>;
  peek(id: string): Promise<PopUp | undefined>;
}

export function popUps(deps: Pick<FedcmDeps, 'adapters' | 'config'>): PopUps {
  const store = deps.adapters(POPUP_MODEL);
  return {
    async open(popUp) {
      const id = randomBytes(18).toString('base64url');
      await store.upsert(id, { ...popUp }, deps.config.ttl.interaction);
      return id;
    },
    async peek(id) {
      return (await store.find(id)) as PopUp | undefined;
    },
    async take(id) {
      const popUp = (await store.find(id)) as PopUp | undefined;
      if (popUp) await store.destroy(id);
      return popUp;
    },
  };
}

/** The consent pop-up of an assertion request: its `continue_on` URL. */
export async function continuationUrl(config: Pick<SignInConfig, 'issuer'>, store: PopUps, request: AssertionRequest): Promise<string> {
  const id = await store.open({
    kind: 'consent',
    clientId: request.client.clientId,
    redirectUri: request.redirectUri,
    scope: request.scope.join(' '),
    codeChallenge: request.codeChallenge,
    origin: request.origin,
    ...(request.nonce ? { nonce: request.nonce } : {}),
  });
  return `${config.issuer}${FEDCM_ROUTES.continue}?id=${encodeURIComponent(id)}`;
}

function authorizeUrl(config: Pick<SignInConfig, 'issuer'>, id: string, popUp: PopUp): string {
  const url = new URL(config.issuer + ROUTES.authorization);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: popUp.clientId,
    redirect_uri: popUp.redirectUri,
    scope: popUp.scope,
    state: STATE_PREFIX + id,
    code_challenge: popUp.codeChallenge,
    code_challenge_method: 'S256',
    // The pages already fit a pop-up (the narrow layout of a phone); `popup` says where they are shown.
    display: 'popup',
    ...(popUp.nonce ? { nonce: popUp.nonce } : {}),
  }).toString();
  return url.href;
}

/** GET /fedcm/continue?id=…: the pop-up of a continuation, on to the authorization endpoint. */
export function continueInPopUp(deps: FedcmDeps, store: PopUps): Koa.Middleware {
  return async function fedcmContinue(ctx) {
    const id = typeof ctx.query.id === 'string' ? ctx.query.id : '';
    const popUp = id ? await store.peek(id) : undefined;
    if (!popUp || popUp.kind !== 'consent') {
      return renderErrorPage(ctx, { reason: 'sessionExpired', status: 400, locale: localeFor(ctx, deps.config) });
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(authorizeUrl(deps.config, id, popUp));
  };
}

/** The service's own client for the login pop-up: first-party, its codes never leave the pop-up. */
export interface LoginClient {
  clientId: string;
  redirectUri: string;
}

export async function ensureLoginClient(deps: Pick<FedcmDeps, 'config' | 'clients'>): Promise<LoginClient> {
  const clientId = createHash('sha256').update(`signin-fedcm\0${deps.config.issuer}`).digest('hex').slice(0, 32);
  const redirectUri = `${deps.config.issuer}${FEDCM_ROUTES.signedIn}`;
  const registered: RegisteredClient = await deps.clients.ensureFirstPartyClient({
    clientId,
    name: 'FedCM',
    description: "Sign-in from the browser's account chooser",
    redirectUris: [redirectUri],
    scopes: ['openid'],
  });
  return { clientId: registered.clientId, redirectUri };
}

/** GET /fedcm/login: the login pop-up the browser opens for a user signed out here. */
export function loginInPopUp(deps: FedcmDeps, store: PopUps, client: LoginClient): Koa.Middleware {
  return async function fedcmLogin(ctx) {
    // The code of this sign-in is never redeemed: the verifier is not even kept.
    const verifier = randomBytes(32).toString('base64url');
    const popUp: PopUp = {
      kind: 'login',
      clientId: client.clientId,
      redirectUri: client.redirectUri,
      scope: 'openid',
      codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    };
    const id = await store.open(popUp);
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(authorizeUrl(deps.config, id, popUp));
  };
}
