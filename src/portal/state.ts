// Per-request portal state: the page language, the portal session and its owner, and the guards
// every owner route and every form post go through.
import type Koa from 'koa';
import { readFormWithToken } from '../pages/anti-forgery.ts';
import { localeFor } from '../pages/language.ts';
import { PageError } from '../pages/page-errors.ts';
import { findSessionByUid } from '../provider/engine.ts';
import type { PortalDeps } from './portal-deps.ts';
import { rootOf, stateOf, type PortalState } from './portal-request.ts';
import { endSession, readSession, type PortalSession } from './portal-session.ts';

export function portalState(deps: PortalDeps): Koa.Middleware {
  const { config, accounts } = deps;
  return async function loadPortalState(ctx, next) {
    const state: PortalState = {
      locale: localeFor(ctx, config),
      mountPath: (ctx as Koa.Context & { mountPath?: string }).mountPath ?? '',
      portalPath: config.portal.path,
    };
    ctx.state.portal = state;
    // Read by the error pages, should anything fail further on.
    ctx.state.locale = state.locale;
    const session = await readSession(ctx, deps.jar, deps.portalSessions);
    if (session) {
      const signedIn = await serviceSignIn(deps, session);
      const account = signedIn ? await accounts.findById(session.accountId) : undefined;
      if (account) {
        state.session = session;
        state.signedInAt = signedIn?.at;
        state.owner = { id: account.id, email: account.email, firstName: account.firstName };
      } else {
        // The account, or the service session it signed in through, is gone: so is the portal session.
        await endSession(ctx, deps.jar, deps.portalSessions);
      }
    }
    await next();
  };
}

/**
 * The service session the portal session was opened in, while it lives and is still this account's; with
 * when its password was typed (the engine's login time), which an owner's action may ask to be recent.
 */
async function serviceSignIn(deps: PortalDeps, session: PortalSession): Promise<{ at?: number } | undefined> {
  if (!session.serviceSessionUid) return undefined;
  const service = await findSessionByUid(deps.provider, session.serviceSessionUid);
  if (service?.accountId !== session.accountId) return undefined;
  const loginTs = service.authTime();
  return { at: typeof loginTs === 'number' ? loginTs * 1000 : undefined };
}

/** Owner pages: a visitor without a portal session is sent to sign in (a form post is refused). */
export function requireOwner(): Koa.Middleware {
  return async function requirePortalOwner(ctx, next) {
    if (stateOf(ctx).owner) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw new PageError(403, 'formExpired');
    ctx.redirect(`${rootOf(ctx)}/login`);
  };
}

/** Every POST: reads the form and checks its synchronizer token against the portal session. */
export function checkedForm(): Koa.Middleware {
  return async function checkPortalForm(ctx, next) {
    const state = stateOf(ctx);
    state.form = await readFormWithToken(ctx, state.session?.csrf);
    await next();
  };
}
