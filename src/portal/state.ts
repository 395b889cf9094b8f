// Per-request portal state: the page language, the portal session and its owner, and the guards
// every owner route and every form post go through.
import type Koa from 'koa';
import { readFormBody } from '../../interactions/body.ts';
import { localeFor } from '../pages/render.ts';
import type { PortalDeps } from './deps.ts';
import { forbidden } from './errors.ts';
import { rootOf, stateOf, type PortalState } from './request.ts';
import { csrfMatches, endSession, readSession, type PortalSession } from './session.ts';

export function portalState(deps: PortalDeps): Koa.Middleware {
  const { config, accounts } = deps.context;
  return async function loadPortalState(ctx, next) {
    const state: PortalState = {
      locale: localeFor(ctx, config),
      mountPath: (ctx as Koa.Context & { mountPath?: string }).mountPath ?? '',
      portalPath: config.portal.path,
    };
    ctx.state.portal = state;
    const session = readSession(ctx, deps.jar);
    if (session) {
      const account = (await serviceSessionAlive(deps, session)) ? await accounts.findById(session.accountId) : undefined;
      if (account) {
        state.session = session;
        state.owner = { id: account.id, email: account.email };
      } else {
        // The account, or the service session it signed in through, is gone: so is the portal session.
        endSession(ctx, deps.jar);
      }
    }
    await next();
  };
}

async function serviceSessionAlive(deps: PortalDeps, session: PortalSession): Promise<boolean> {
  if (!session.serviceSessionUid) return false;
  const service = await deps.context.provider.Session.findByUid(session.serviceSessionUid);
  return service?.accountId === session.accountId;
}

/** Owner pages: a visitor without a portal session is sent to sign in (a form post is refused). */
export function requireOwner(): Koa.Middleware {
  return async function requirePortalOwner(ctx, next) {
    if (stateOf(ctx).owner) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') throw forbidden();
    ctx.redirect(`${rootOf(ctx)}/login`);
  };
}

/** Every POST: reads the form and checks its synchronizer token against the portal session. */
export function checkedForm(): Koa.Middleware {
  return async function checkPortalForm(ctx, next) {
    const state = stateOf(ctx);
    const form = await readFormBody(ctx);
    if (!state.session || !csrfMatches(state.session, form.get('csrf'))) throw forbidden();
    state.form = form;
    await next();
  };
}
