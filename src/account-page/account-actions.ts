// What a signed-in user does on the account page: revoke an application, change the password, sign out
// of this device, of another one, or of every session. Each one answers with a redirect to the page and
// a notice (post/redirect/get). The changes of address, profile and the account's deletion and data
// download have files of their own.
//
// A session is not a grant. Signing out of this device or ending another one leaves the applications
// their refresh tokens: the user allowed those applications, not the browser. "Se déconnecter partout"
// is for a lost or shared device, so it also ends every application's grant (as a password change does),
// and each application asks for consent again.
import type Koa from 'koa';
import { checkPassword } from '../accounts/password-policy.ts';
import { securityEvent } from '../log/security-log.ts';
import { logMailFailure } from '../mail/account-mail.ts';
import { resendVerification } from '../mail/verification-resend.ts';
import { PASSWORD_MESSAGES } from '../accounts/rule-messages.ts';
import { localeFor } from '../pages/language.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { rememberRevoked, renderAccount } from './account-pages.ts';
import { backToAccount, readAccountForm, signedInAccount } from './account-sign-in.ts';
import { confirmPassword } from './password-confirmation.ts';
import { clearSessionCookie, currentSession, endCurrentSession, startSession } from '../provider/engine-session.ts';

/** POST /account/revoke: the application loses its grant, and every code and token issued under it. */
export function revokeApplication(deps: AccountPageDeps): Koa.Middleware {
  return async function revokeApplicationRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    const clientId = body.get('client_id') ?? '';
    const consents = (await deps.consents.listForAccount(account.id)).filter((c) => c.clientId === clientId);
    // The grant and every code and token issued under it, wherever each is stored; then the memory of the consent.
    for (const consent of consents) await deps.grants.revokeGrant(consent.grantId);
    await deps.consents.forget({ accountId: account.id, clientId });
    // Only an application this user had shared data with is named on the next page.
    if (consents.length > 0) rememberRevoked(ctx, deps, account.id, clientId);
    if (consents.length > 0) securityEvent('consent.revoked', { account_id: account.id, client_id: clientId, source: 'account_page' });
    backToAccount(ctx, '?notice=revoked');
  };
}

/** POST /account/password: only with the current password, under the password rules. */
export function changePassword(deps: AccountPageDeps): Koa.Middleware {
  return async function changePasswordRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const locale = localeFor(ctx, deps.config);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    const next = body.get('new_password') ?? '';
    if (!(await confirmPassword(ctx, deps, account, body.get('current_password') ?? '', { form: 'password', locale }))) return;
    // The fresh session keeps the choice this browser's sign-in made ("Rester connecté" or not).
    const remember = !(await currentSession(ctx, deps.provider))?.transient;
    const problem = checkPassword(next, account);
    if (problem)
      return renderAccount(ctx, deps, account, { locale, status: 400, error: { form: 'password', message: PASSWORD_MESSAGES[problem] } });
    await deps.accounts.setPassword(account.id, next);
    // Every other session ends; this browser gets a fresh one.
    await deps.sessions.endAll(account.id);
    // Applications lose their grants too: their refresh tokens would otherwise outlive the old password.
    await deps.grants.revokeAccountGrants(account.id);
    await startSession(ctx, deps.provider, deps.config, account.id, { remember });
    securityEvent('password.changed', { account_id: account.id, source: 'account_page' });
    // The owner hears of it at the account's address, with no link that signs in: if it was not them,
    // they choose a new password from the usual reset page.
    await deps.mail.sendPasswordChanged(account, locale).catch(logMailFailure);
    backToAccount(ctx, '?notice=password');
  };
}

/** POST /account/verify-email: a new verification link for an address not verified yet, within the mail limits. */
export function resendVerificationLink(deps: AccountPageDeps): Koa.Middleware {
  return async function resendVerificationLinkRoute(ctx) {
    await readAccountForm(ctx, deps);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    const { outcome, send } = await resendVerification(deps, account, {
      locale: localeFor(ctx, deps.config),
      ip: ctx.ip,
      source: 'account_page',
    });
    // The user is signed in and the address is theirs: waiting for the mail server tells nobody anything.
    await send?.catch(logMailFailure);
    backToAccount(ctx, outcome === 'throttled' ? '?notice=verification-throttled' : '?notice=verification-sent');
  };
}

/** POST /account/sign-out: this browser signs out; the account's other sessions and the applications stay. */
export function signOutHere(deps: AccountPageDeps): Koa.Middleware {
  return async function signOutHereRoute(ctx) {
    await readAccountForm(ctx, deps);
    await endThisDevice(ctx, deps);
  };
}

async function endThisDevice(ctx: Koa.Context, deps: AccountPageDeps): Promise<void> {
  const session = await currentSession(ctx, deps.provider);
  await endCurrentSession(ctx, deps.provider, deps.config);
  if (session) securityEvent('session.ended', { account_id: session.accountId, source: 'account_page', reason: 'this_device' });
  backToAccount(ctx, '?notice=signed-out-here');
}

/** POST /account/sessions/end-one: one of the account's other devices is signed out, wherever its session is stored. */
export function endOneSession(deps: AccountPageDeps): Koa.Middleware {
  return async function endOneSessionRoute(ctx) {
    const body = await readAccountForm(ctx, deps);
    const account = await signedInAccount(ctx, deps);
    if (!account) return backToAccount(ctx);
    const uid = body.get('session') ?? '';
    const current = await currentSession(ctx, deps.provider);
    // This browser's own entry is "Se déconnecter": its cookie goes too.
    if (current?.uid === uid) return endThisDevice(ctx, deps);
    // Only a session of this account: another's uid ends nothing, and says nothing of it either.
    if (await deps.sessions.endOne(account.id, uid)) {
      securityEvent('session.ended', { account_id: account.id, source: 'account_page', reason: 'other_device' });
    }
    backToAccount(ctx, '?notice=device-ended');
  };
}

/** POST /account/sessions/end: every session of the account ends, this browser's included, and every application's grant. */
export function endAllSessions(deps: AccountPageDeps): Koa.Middleware {
  return async function endAllSessionsRoute(ctx) {
    await readAccountForm(ctx, deps);
    const account = await signedInAccount(ctx, deps);
    if (account) {
      await deps.sessions.endAll(account.id);
      // For a lost or shared device: the applications signed in there lose their refresh tokens too.
      await deps.grants.revokeAccountGrants(account.id);
    }
    // Also ends a session this browser had before tracking began.
    const session = await currentSession(ctx, deps.provider);
    if (session) await session.destroy();
    clearSessionCookie(ctx, deps.provider, deps.config);
    securityEvent('session.ended_everywhere', { account_id: account?.id ?? session?.accountId, source: 'account_page' });
    backToAccount(ctx, '?notice=signed-out');
  };
}
