// /account: the end user's own page. Signed in (through the engine session), it is an overview of the
// account's tasks: the applications the user shared data with (revoke one), the signed-in devices (sign
// this one out, another one, or every one), the password, the username, first name and address, the
// data download, the deletion. Signed out, it shows its own sign-in form, which opens an engine session
// directly: the account page is the service's own, so it needs no OAuth request, client or consent.
// Every form carries the anti-forgery token (src/pages/anti-forgery.ts).
import Router from '@koa/router';
import type Koa from 'koa';
import { localeFor } from '../pages/language.ts';
import { pageErrors } from '../pages/page-errors.ts';
import { pageHeaders } from '../pages/render.ts';
import {
  changePassword,
  endAllSessions,
  endOneSession,
  resendVerificationLink,
  revokeApplication,
  signOutHere,
} from './account-actions.ts';
import type { AccountPageDeps } from './account-deps.ts';
import { showAccountDeleted } from './account-deleted.ts';
import { deleteOwnAccount } from './account-deletion.ts';
import { downloadData } from './data-download.ts';
import { confirmEmailChange, requestEmailChange, showEmailChange } from './email-change.ts';
import { phoneNumberRoutes } from './phone-number.ts';
import { addPasskey, newPasskeyOptions, removePasskey, renamePasskey } from './passkeys.ts';
import { changeProfile } from './profile-change.ts';
import { renderAccount, renderAccountLogin } from './account-pages.ts';
import { signedInAccount, signInToAccount } from './account-sign-in.ts';
import { ACCOUNT_SIGNED_IN_PATH, accountSignedIn, startAccountSignUp } from './account-sign-up.ts';
import { currentSession } from '../provider/engine-session.ts';

export function accountRoutes(deps: AccountPageDeps): Koa.Middleware {
  const router = new Router();
  const page = [pageHeaders(), pageErrors(deps.config, { face: 'account_page' })];
  router.get('/account', ...page, showAccount(deps));
  router.post('/account/login', ...page, signInToAccount(deps));
  router.get('/account/signup', ...page, startAccountSignUp(deps));
  router.get(ACCOUNT_SIGNED_IN_PATH, ...page, accountSignedIn());
  router.post('/account/revoke', ...page, revokeApplication(deps));
  router.post('/account/password', ...page, changePassword(deps));
  router.post('/account/sign-out', ...page, signOutHere(deps));
  router.post('/account/sessions/end-one', ...page, endOneSession(deps));
  router.post('/account/sessions/end', ...page, endAllSessions(deps));
  router.post('/account/verify-email', ...page, resendVerificationLink(deps));
  router.post('/account/profile', ...page, changeProfile(deps));
  router.post('/account/email', ...page, requestEmailChange(deps));
  // The link of the e-mail sent to the new address: it works in any browser, signed in or not.
  router.get('/account/email/confirm', ...page, showEmailChange(deps));
  router.post('/account/email/confirm', ...page, confirmEmailChange(deps));
  router.post('/account/export', ...page, downloadData(deps));
  router.post('/account/delete', ...page, deleteOwnAccount(deps));
  router.post('/account/passkeys/options', ...page, newPasskeyOptions(deps));
  router.post('/account/passkeys/add', ...page, addPasskey(deps));
  router.post('/account/passkeys/rename', ...page, renamePasskey(deps));
  router.post('/account/passkeys/remove', ...page, removePasskey(deps));
  if (deps.phone) phoneNumberRoutes(router, page, { ...deps, phone: deps.phone });
  router.get('/account/deleted', ...page, showAccountDeleted(deps));
  // The service's home is the user's own page: GET / (under the mount path) leads there.
  router.get('/', (ctx) => {
    ctx.status = 303;
    ctx.redirect(`${ctx.mountPath ?? ''}/account`);
  });
  // The router types its middleware for contexts that already carry `params`; it adds them itself.
  return router.routes() as unknown as Koa.Middleware;
}

/** GET /account: the page of the signed-in account, or the sign-in form. */
function showAccount(deps: AccountPageDeps): Koa.Middleware {
  return async function showAccountPage(ctx) {
    const locale = localeFor(ctx, deps.config);
    const account = await signedInAccount(ctx, deps);
    if (!account) return renderAccountLogin(ctx, deps, { locale });
    // A visit is a use of this browser's session: its device and last use, for the list of devices.
    const session = await currentSession(ctx, deps.provider);
    if (session?.uid) {
      const request = { userAgent: ctx.get('User-Agent'), locale };
      await deps.sessions.seen({ uid: session.uid, accountId: account.id }, request).catch(() => {});
    }
    await renderAccount(ctx, deps, account, { locale });
  };
}
