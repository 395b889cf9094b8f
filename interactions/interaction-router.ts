// The sign-in pages, mounted in front of the engine: login, sign-up, consent, refuse; the e-mail links
// (verification, password reset); the language switch and the stylesheet. Bodies are parsed here only
// (see src/pages/form-body.ts); every other request passes through to the engine.
import Router from '@koa/router';
import type Koa from 'koa';
import { assetPath, serveAsset } from '../src/pages/assets.ts';
import { languageSwitch } from '../src/pages/language.ts';
import { pageErrors } from '../src/pages/page-errors.ts';
import { pageHeaders } from '../src/pages/render.ts';
import { abortInteraction } from './abort.ts';
import { submitConsent } from './consent.ts';
import type { InteractionDeps } from './interaction-deps.ts';
import { submitLogin } from './login.ts';
import { answerPasskeyOffer, passkeyOfferOptions } from './passkey-offer-routes.ts';
import { withPasskeys } from './passkey-pages.ts';
import { passkeySignInOptions, submitPasskeySignIn } from './passkey-sign-in.ts';
import { phoneLoginRoutes } from './phone-login.ts';
import { showForgotRoute, submitForgot } from './password/forgot.ts';
import { showResetRoute, submitReset } from './password/reset.ts';
import { showInteraction } from './show.ts';
import { showSignupRoute, submitSignup } from './signup.ts';
import { switchAccount } from './switch-account.ts';
import { showVerifyEmail, verifyEmail } from './verify-email.ts';
import { RESEND_PATH, resendFromExpiredLink } from './verify-resend.ts';

export function interactionRoutes(deps: InteractionDeps): Koa.Middleware {
  const router = new Router();
  const page = [pageHeaders(), pageErrors(deps.config, { face: 'interaction' }), withPasskeys(deps.passkeys)];

  router.get('/interaction/:uid', ...page, showInteraction(deps));
  router.post('/interaction/:uid/login', ...page, submitLogin(deps));
  router.post('/interaction/:uid/passkey/options', ...page, passkeySignInOptions(deps));
  router.post('/interaction/:uid/passkey', ...page, submitPasskeySignIn(deps));
  router.post('/interaction/:uid/passkey-offer/options', ...page, passkeyOfferOptions(deps));
  router.post('/interaction/:uid/passkey-offer', ...page, answerPasskeyOffer(deps));
  router.get('/interaction/:uid/signup', ...page, showSignupRoute(deps));
  router.post('/interaction/:uid/signup', ...page, submitSignup(deps));
  router.post('/interaction/:uid/consent', ...page, submitConsent(deps));
  router.post('/interaction/:uid/switch-account', ...page, switchAccount(deps));
  router.get('/interaction/:uid/abort', ...page, abortInteraction(deps));
  if (deps.phone) phoneLoginRoutes(router, page, { ...deps, phone: deps.phone });
  router.post('/interaction/:uid/abort', ...page, abortInteraction(deps));

  router.get('/email/verify', ...page, showVerifyEmail(deps));
  router.post('/email/verify', ...page, verifyEmail(deps));
  router.post(RESEND_PATH, ...page, resendFromExpiredLink(deps));
  router.get('/password/forgot', ...page, showForgotRoute(deps));
  router.post('/password/forgot', ...page, submitForgot(deps));
  router.get('/password/reset', ...page, showResetRoute(deps));
  router.post('/password/reset', ...page, submitReset(deps));

  router.get('/lang/:locale', languageSwitch(deps.config));
  router.get(assetPath('app.css'), serveAsset('app.css'));
  router.get(assetPath('show-password.js'), serveAsset('show-password.js'));
  router.get(assetPath('passkeys.js'), serveAsset('passkeys.js'));

  // The router types its middleware for contexts that already carry `params`; it adds them itself.
  return router.routes() as unknown as Koa.Middleware;
}
