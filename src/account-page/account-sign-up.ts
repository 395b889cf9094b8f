// "Créer un compte" from the account page. Sign-up lives inside an authorization (interactions/signup.ts:
// the verification link, the limits, the same answer for a registered address), so the account page starts
// one, for a first-party client of its own, on the sign-up form (`screen_hint=signup`, as Auth0 names it).
// Once the new account signs in, the engine session is open and the authorization comes back here: the code
// is not needed (the account page reads the engine session itself), so its verifier is not even kept, and
// the browser goes on to /account.
import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { ClientRegistry } from '../clients/registry.ts';
import type { SignInConfig } from '../config/schema.ts';
import { localeFor } from '../pages/language.ts';
import { ROUTES } from '../provider/paths.ts';

export const ACCOUNT_SIGNED_IN_PATH = '/account/signed-in';

interface SignUpDeps {
  config: SignInConfig;
  clients: Pick<ClientRegistry, 'ensureFirstPartyClient'>;
}

/** GET /account/signup: an authorization of the account page's own client, opened on the sign-up form. */
export function startAccountSignUp(deps: SignUpDeps): Koa.Middleware {
  let client: Promise<{ clientId: string; redirectUri: string }> | undefined;
  const accountClient = () =>
    (client ??= ensureAccountClient(deps).catch((error: unknown) => {
      client = undefined; // a store briefly away: the next visit tries again
      throw error;
    }));
  return async function startAccountSignUpRoute(ctx) {
    const { clientId, redirectUri } = await accountClient();
    const url = new URL(deps.config.issuer + ROUTES.authorization);
    url.search = new URLSearchParams({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid',
      state: randomBytes(16).toString('base64url'),
      code_challenge: createHash('sha256').update(randomBytes(32)).digest('base64url'),
      code_challenge_method: 'S256',
      screen_hint: 'signup',
      ui_locales: localeFor(ctx, deps.config),
    }).toString();
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(url.href);
  };
}

/** GET /account/signed-in: where that authorization ends; the account page itself is next. */
export function accountSignedIn(): Koa.Middleware {
  return function accountSignedInRoute(ctx) {
    ctx.set('Cache-Control', 'no-store');
    ctx.status = 303;
    ctx.redirect(`${ctx.mountPath ?? ''}/account`);
  };
}

async function ensureAccountClient(deps: SignUpDeps): Promise<{ clientId: string; redirectUri: string }> {
  // One id per issuer, the same on every instance and at every start.
  const clientId = createHash('sha256').update(`signin-account\0${deps.config.issuer}`).digest('hex').slice(0, 32);
  const redirectUri = deps.config.issuer + ACCOUNT_SIGNED_IN_PATH;
  await deps.clients.ensureFirstPartyClient({
    clientId,
    name: 'Mon compte · My account',
    description: 'The account page of this service',
    redirectUris: [redirectUri],
    scopes: ['openid'],
  });
  return { clientId, redirectUri };
}
