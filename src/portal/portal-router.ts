// The developer portal, under `config.portal.path`: owners sign in with their service account and
// register and manage their applications. Everything under that path is the portal's: what no route
// matches is a portal 404.
import Router from '@koa/router';
import type Koa from 'koa';
import compose from 'koa-compose';
import { assetPath, serveAsset } from '../pages/assets.ts';
import { issuerPath } from '../config/issuer-path.ts';
import { cookieJar } from '../pages/cookies.ts';
import { rememberLanguage } from '../pages/language.ts';
import { notFound, pageErrors } from '../pages/page-errors.ts';
import { createApp, deleteApp, rotateSecret, updateApp } from './apps-write.ts';
import { confirmDelete, confirmRotate, editAppForm, home, newAppForm, showApp } from './apps-read.ts';
import { flashStore } from './flash.ts';
import { ensurePortalClient } from './portal-client.ts';
import type { PortalDeps, PortalServices } from './portal-deps.ts';
import { showPortalError } from './portal-page.ts';
import { rootOf } from './portal-request.ts';
import { finishSignIn, signOut, startSignIn } from './portal-sign-in.ts';
import { checkedForm, portalState, requireOwner } from './state.ts';

export async function portalRoutes(services: PortalServices): Promise<Koa.Middleware> {
  const { config } = services;
  // The portal's cookies stay under its own path, below the service's prefix.
  const jar = cookieJar({ issuer: config.issuer, path: issuerPath(config.issuer) + config.portal.path });
  const deps: PortalDeps = { ...services, client: await ensurePortalClient(config, services.clients), jar, flash: flashStore(config, jar) };
  const path = config.portal.path;

  const router = new Router({ prefix: path });
  const owner = requireOwner();
  const post = [owner, checkedForm()];
  router.get(assetPath('portal.css'), serveAsset('portal.css'));
  router.get(assetPath('copy.js'), serveAsset('copy.js'));
  router.get('/', home(deps));
  router.get('/login', startSignIn(deps));
  router.get('/callback', finishSignIn(deps));
  router.post('/logout', ...post, signOut(deps));
  router.get('/lang/:locale', chooseLanguage(deps));
  router.get('/apps/new', owner, newAppForm());
  router.post('/apps', ...post, createApp(deps));
  router.get('/apps/:id', owner, showApp(deps));
  router.get('/apps/:id/edit', owner, editAppForm(deps));
  router.post('/apps/:id', ...post, updateApp(deps));
  router.get('/apps/:id/rotate-secret', owner, confirmRotate(deps));
  router.post('/apps/:id/rotate-secret', ...post, rotateSecret(deps));
  router.get('/apps/:id/delete', owner, confirmDelete(deps));
  router.post('/apps/:id/delete', ...post, deleteApp(deps));

  // The router types its middleware for contexts that already carry `params`; it adds them itself.
  const portal = compose([
    pageErrors(config, { face: 'portal', show: showPortalError }),
    portalState(deps),
    router.routes() as unknown as Koa.Middleware,
    router.allowedMethods() as unknown as Koa.Middleware,
  ]);
  const inPortal = (p: string): boolean => p === path || p.startsWith(`${path}/`);

  return async function portalMiddleware(ctx, next) {
    if (!inPortal(ctx.path)) return next();
    await portal(ctx, async () => {
      throw notFound();
    });
  };
}

/**
 * GET {portal}/lang/:locale: the language links of the portal's header. The choice goes into the
 * service-wide `lang` cookie, so the login page that follows speaks the same language.
 */
function chooseLanguage(deps: PortalDeps): Koa.Middleware {
  return async function choosePortalLanguage(ctx) {
    const locale = (ctx as Koa.Context & { params?: Record<string, string> }).params?.locale;
    if (!rememberLanguage(ctx, deps.config, locale)) throw notFound();
    ctx.status = 303;
    ctx.redirect(`${rootOf(ctx)}/`);
  };
}
