// The sign-in pages, mounted in front of the engine: login, sign-up, consent, refuse; the e-mail links
// (verification, password reset); the language switch and the stylesheet. Bodies are parsed here only
// (see body.ts); every other request passes through to the engine.
import Router from '@koa/router';
import type Koa from 'koa';
import { pageHeaders } from '../src/pages/render.ts';
import { STYLESHEET_PATH } from '../src/pages/stylesheet.ts';
import type { ServiceContext } from '../src/service-context.ts';
import { abortInteraction } from './abort.ts';
import { submitConsent } from './consent.ts';
import { endUserServices } from './end-user.ts';
import { interactionErrors } from './errors.ts';
import { switchLanguage } from './language.ts';
import { submitLogin } from './login.ts';
import { showForgotRoute, submitForgot } from './password/forgot.ts';
import { showResetRoute, submitReset } from './password/reset.ts';
import { showInteraction } from './show.ts';
import { showSignupRoute, submitSignup } from './signup.ts';
import { serveStylesheet } from './stylesheet.ts';
import { showVerifyEmail, verifyEmail } from './verify-email.ts';

export function interactionRoutes(context: ServiceContext): Koa.Middleware {
  // Built now rather than on the first request, so that the engine's session events are followed from the start.
  endUserServices(context);
  const router = new Router();
  const page = [pageHeaders(), interactionErrors(context.config)];

  router.get('/interaction/:uid', ...page, showInteraction(context));
  router.post('/interaction/:uid/login', ...page, submitLogin(context));
  router.get('/interaction/:uid/signup', ...page, showSignupRoute(context));
  router.post('/interaction/:uid/signup', ...page, submitSignup(context));
  router.post('/interaction/:uid/consent', ...page, submitConsent(context));
  router.get('/interaction/:uid/abort', ...page, abortInteraction(context));
  router.post('/interaction/:uid/abort', ...page, abortInteraction(context));

  router.get('/email/verify', ...page, showVerifyEmail(context));
  router.post('/email/verify', ...page, verifyEmail(context));
  router.get('/password/forgot', ...page, showForgotRoute(context));
  router.post('/password/forgot', ...page, submitForgot(context));
  router.get('/password/reset', ...page, showResetRoute(context));
  router.post('/password/reset', ...page, submitReset(context));

  router.get('/lang/:locale', switchLanguage(context));
  router.get(STYLESHEET_PATH, serveStylesheet());

  // The router types its middleware for contexts that already carry `params`; it adds them itself.
  return router.routes() as unknown as Koa.Middleware;
}
