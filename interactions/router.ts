// The sign-in pages, mounted in front of the engine: login, consent, refuse, and their stylesheet.
// Bodies are parsed here only (see body.ts); every other request passes through to the engine.
import Router from '@koa/router';
import type Koa from 'koa';
import { pageHeaders } from '../src/pages/render.ts';
import { STYLESHEET_PATH } from '../src/pages/stylesheet.ts';
import type { ServiceContext } from '../src/service-context.ts';
import { abortInteraction } from './abort.ts';
import { submitConsent } from './consent.ts';
import { interactionErrors } from './errors.ts';
import { submitLogin } from './login.ts';
import { showInteraction } from './show.ts';
import { serveStylesheet } from './stylesheet.ts';

export function interactionRoutes(context: ServiceContext): Koa.Middleware {
  const router = new Router();
  const page = [pageHeaders(), interactionErrors(context.config)];

  router.get('/interaction/:uid', ...page, showInteraction(context));
  router.post('/interaction/:uid/login', ...page, submitLogin(context));
  router.post('/interaction/:uid/consent', ...page, submitConsent(context));
  router.get('/interaction/:uid/abort', ...page, abortInteraction(context));
  router.post('/interaction/:uid/abort', ...page, abortInteraction(context));
  router.get(STYLESHEET_PATH, serveStylesheet());

  // The router types its middleware for contexts that already carry `params`; it adds them itself.
  return router.routes() as unknown as Koa.Middleware;
}
