// Owners sign in to the portal as users of a first-party client of this service: an authorization
// code flow with PKCE through the ordinary login page, then a portal session of our own.
import { createHash, randomBytes } from 'node:crypto';
import type Koa from 'koa';
import { ROUTES } from '../provider/paths.ts';
import { redeemPortalCode } from './code-exchange.ts';
import type { PortalDeps } from './portal-deps.ts';
import { renderPortal } from './portal-page.ts';
import { pageOf, rootOf, stateOf } from './portal-request.ts';
import { endSession, startSession } from './portal-session.ts';

const AUTH_COOKIE = 'portal_auth';
/** As long as an interaction may last: the login page itself expires after that. */
const AUTH_SECONDS = 3600;

interface PendingSignIn {
  s: string;
  v: string;
}

/** GET {portal}/login: to the authorize endpoint, with state and a PKCE challenge kept in a cookie. */
export function startSignIn(deps: PortalDeps): Koa.Middleware {
  const { config } = deps;
  return async function startPortalSignIn(ctx) {
    const pending: PendingSignIn = { s: randomBytes(24).toString('base64url'), v: randomBytes(48).toString('base64url') };
    deps.jar.write(ctx, AUTH_COOKIE, pending, AUTH_SECONDS);
    const url = new URL(config.issuer + ROUTES.authorization);
    url.search = new URLSearchParams({
      client_id: deps.client.clientId,
      response_type: 'code',
      redirect_uri: deps.client.redirectUri,
      scope: deps.client.scopes.join(' '),
      state: pending.s,
      code_challenge: createHash('sha256').update(pending.v).digest('base64url'),
      code_challenge_method: 'S256',
      // The login page then speaks the language the portal was just shown in.
      ui_locales: stateOf(ctx).locale,
    }).toString();
    ctx.redirect(url.href);
  };
}

/** GET {portal}/callback: checks state and issuer, redeems the code, opens the portal session. */
export function finishSignIn(deps: PortalDeps): Koa.Middleware {
  const { config, provider } = deps;
  return async function finishPortalSignIn(ctx) {
    const pending = deps.jar.read<PendingSignIn>(ctx, AUTH_COOKIE);
    deps.jar.clear(ctx, AUTH_COOKIE);
    const { code, state, iss } = ctx.query;
    const redeemed =
      pending &&
      typeof code === 'string' &&
      typeof pending.v === 'string' &&
      state === pending.s &&
      (iss === undefined || iss === config.issuer)
        ? await redeemPortalCode(provider, {
            code,
            verifier: pending.v,
            clientId: deps.client.clientId,
            redirectUri: deps.client.redirectUri,
          })
        : undefined;
    if (!redeemed) {
      // Refused at the login page (access_denied), a stale tab, or a forged callback: start again.
      return renderPortal(ctx, pageOf(ctx), 'home', { failed: true }, 400);
    }
    await startSession(ctx, deps.jar, deps.portalSessions, redeemed.accountId, redeemed.sessionUid);
    ctx.status = 303;
    ctx.redirect(`${rootOf(ctx)}/`);
  };
}

/** POST {portal}/logout: ends the portal session, on the server too; the service session stays (single sign-on). */
export function signOut(deps: PortalDeps): Koa.Middleware {
  return async function signOutOfPortal(ctx) {
    await endSession(ctx, deps.jar, deps.portalSessions);
    ctx.status = 303;
    ctx.redirect(`${rootOf(ctx)}/`);
  };
}
