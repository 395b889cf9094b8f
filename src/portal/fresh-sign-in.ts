// Generating a new client secret and deleting an application are an owner's actions that a stolen or
// forgotten session must not be enough for: they ask for a sign-in at most RECENT_SIGN_IN_SECONDS old (the
// password typed at the service's sign-in page, the engine session's login time) or for the password again,
// checked by the accounts as the account page checks it (src/accounts/current-password.ts: the sign-in
// limits, the security log). A password typed here counts as a fresh sign-in for the rest of the window,
// kept in the portal session's server record.
import type Koa from 'koa';
import { confirmCurrentPassword, signedInRecently } from '../accounts/current-password.ts';
import type { RegisteredClient } from '../clients/registry.ts';
import type { MessageVars } from '../i18n/index.ts';
import { PageError } from '../pages/page-errors.ts';
import { answerTooManyAttempts } from '../pages/too-many-attempts.ts';
import type { PortalDeps } from './portal-deps.ts';
import type { PortalKey } from './portal-messages.ts';
import { renderPortal } from './portal-page.ts';
import { pageOf, stateOf } from './portal-request.ts';
import { markPasswordConfirmed } from './portal-session.ts';

/** The owner's actions that ask for a recent sign-in, by the view that confirms each one. */
export type OwnerAction = 'rotate' | 'delete';

interface Refusal {
  key: PortalKey;
  vars?: MessageVars;
}

/** Whether the owner of this request signed in, or typed their password in the portal, recently enough. */
export function recentlySignedIn(ctx: Koa.Context): boolean {
  const { session, signedInAt } = stateOf(ctx);
  return signedInRecently([signedInAt, session?.confirmedAt]);
}

/** The page that confirms an action: with the password field when the sign-in is not recent. */
export async function renderConfirmation(
  ctx: Koa.Context,
  action: OwnerAction,
  app: RegisteredClient,
  refusal?: Refusal,
  status = 200,
): Promise<void> {
  await renderPortal(
    ctx,
    pageOf(ctx),
    action,
    { app, askPassword: refusal !== undefined || !recentlySignedIn(ctx), error: refusal ?? null },
    status,
  );
}

/**
 * For the POST of an action: true when it may go on (a recent sign-in, or the right password in the form);
 * otherwise the confirmation page has been answered with the password field and why (403 without a
 * password, 400 for a wrong one, 429 over the sign-in limits), and nothing was done.
 */
export async function freshSignIn(ctx: Koa.Context, deps: PortalDeps, action: OwnerAction, app: RegisteredClient): Promise<boolean> {
  const { owner, session, form } = stateOf(ctx);
  // Behind requireOwner(): a post without a portal session never gets here.
  if (!owner || !session) throw new PageError(403, 'formExpired');
  if (recentlySignedIn(ctx)) return true;
  const password = form?.get('password') ?? '';
  if (!password) {
    await renderConfirmation(ctx, action, app, { key: 'reauth.required' }, 403);
    return false;
  }
  const check = await confirmCurrentPassword(deps, owner, password, ctx.ip, 'portal');
  if (!check.ok && check.reason === 'tooMany') {
    await answerTooManyAttempts(ctx, check.retryAfterSeconds, (message, status) =>
      renderConfirmation(ctx, action, app, { key: 'reauth.tooMany', vars: message.vars }, status),
    );
    return false;
  }
  if (!check.ok) {
    await renderConfirmation(ctx, action, app, { key: 'reauth.wrong' }, 400);
    return false;
  }
  await markPasswordConfirmed(deps.portalSessions, session);
  return true;
}
