// The developer portal, under `config.portal.path`: owners sign in with their service account and
// register and manage their applications. Mounted in front of the interaction pages (see
// first-party-consent.ts for why it must come first).
import Router from '@koa/router';
import type Koa from 'koa';
import type { ServiceContext } from '../service-context.ts';
import { createApp, deleteApp, rotateSecret, updateApp } from './apps-write.ts';
import { confirmDelete, editAppForm, home, newAppForm, showApp } from './apps-read.ts';
import { ASSET_PATHS, serveAsset } from './assets.ts';
import { chain } from './chain.ts';
import { cookieJar } from './cookies.ts';
import type { PortalDeps } from './deps.ts';
import { notFound, portalErrors } from './errors.ts';
import { firstPartyConsent } from './first-party-consent.ts';
import { flashStore } from './flash.ts';
import { chooseLanguage } from './language.ts';
import { ensurePortalClient } from './portal-client.ts';
import { finishSignIn, signOut, startSignIn } from './sign-in.ts';
import { checkedForm, portalState, requireOwner } from './state.ts';

export async function portalRoutes(context: ServiceContext): Promise<Koa.Middleware> {
  const jar = cookieJar(context.config);
  const deps: PortalDeps = { context, client: await ensurePortalClient(context), jar, flash: flashStore(context.config, jar) };
  const path = context.config.portal.path;

  const router = new Router({ prefix: path });
  const owner = requireOwner();
  const post = [owner, checkedForm()];
  router.get(ASSET_PATHS.css, serveAsset('css'));
  router.get(ASSET_PATHS.js, serveAsset('js'));
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
  router.post('/apps/:id/rotate-secret', ...post, rotateSecret(deps));
  router.get('/apps/:id/delete', owner, confirmDelete(deps));
  router.post('/apps/:id/delete', ...post, deleteApp(deps));

  // The router types its middleware for contexts that already carry `params`; it adds them itself.
  const portal = chain([
    portalErrors(),
    portalState(deps),
    router.routes() as unknown as Koa.Middleware,
    router.allowedMethods() as unknown as Koa.Middleware,
  ]);
  const inPortal = (p: string): boolean => p === path || p.startsWith(`${path}/`);
  const consent = firstPartyConsent(deps);

  return async function portalMiddleware(ctx, next) {
    if (!inPortal(ctx.path)) return consent(ctx, next);
    // Nothing under the portal's path belongs to anyone else: what no route matches is a portal 404.
    await portal(ctx, async () => {
      throw notFound();
    });
  };
}
