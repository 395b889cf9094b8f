// The FedCM face: the config file, the accounts, client metadata, ID assertion and disconnect endpoints,
// the two pop-ups, the well-known file when the issuer's host is a registrable domain, and the small script
// application owners include. Off unless the issuer is https and `fedcm.enabled` (src/config/fedcm-schema.ts).
import { readFileSync } from 'node:fs';
import Router from '@koa/router';
import type Koa from 'koa';
import { fedcmOn } from '../config/fedcm-schema.ts';
import { assetPath, serveAsset } from '../pages/assets.ts';
import { pageViews } from '../pages/views.ts';
import { accountsEndpoint } from './accounts-endpoint.ts';
import { assertionEndpoint } from './assertion-endpoint.ts';
import { clientMetadataEndpoint } from './client-metadata.ts';
import { serveConfigFile, servesWellKnown, serveWellKnown } from './config-file.ts';
import { disconnectEndpoint } from './disconnect-endpoint.ts';
import { fedcmEngineHooks } from './engine-hooks.ts';
import type { FedcmDeps } from './fedcm-deps.ts';
import { FEDCM_ROUTES, WELL_KNOWN_PATH } from './fedcm-urls.ts';
import { continueInPopUp, ensureLoginClient, loginInPopUp, popUps } from './pop-ups.ts';

const CLIENT_SCRIPT = new URL('../../views/static/fedcm-client.js', import.meta.url);

/** The FedCM routes, or a pass-through when FedCM is off; also adds the face's hooks to the engine. */
export async function fedcmRoutes(deps: FedcmDeps): Promise<Koa.Middleware> {
  if (!fedcmOn(deps.config)) return (_ctx, next) => next();
  const store = popUps(deps);
  fedcmEngineHooks(deps.provider, deps.config, store);
  const loginClient = await ensureLoginClient(deps);
  const script = readFileSync(CLIENT_SCRIPT, 'utf8');
  const router = new Router();
  router.get(FEDCM_ROUTES.config, serveConfigFile(deps.config));
  router.get(FEDCM_ROUTES.accounts, accountsEndpoint(deps));
  router.get(FEDCM_ROUTES.clientMetadata, clientMetadataEndpoint(deps));
  router.post(FEDCM_ROUTES.assertion, assertionEndpoint(deps, store));
  router.post(FEDCM_ROUTES.disconnect, disconnectEndpoint(deps));
  router.get(FEDCM_ROUTES.continue, pageViews(), continueInPopUp(deps, store));
  router.get(FEDCM_ROUTES.login, loginInPopUp(deps, store, loginClient));
  // The pop-up's last page hands the code to the browser with this script.
  router.get(assetPath('fedcm-done.js'), serveAsset('fedcm-done.js'));
  router.get(FEDCM_ROUTES.script, (ctx) => {
    // Loaded by the applications' pages, from their own origins.
    ctx.set({ 'Cache-Control': 'public, max-age=3600', 'Cross-Origin-Resource-Policy': 'cross-origin' });
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.body = script;
  });
  if (servesWellKnown(deps.config.issuer)) router.get(WELL_KNOWN_PATH, serveWellKnown(deps.config));
  return router.routes() as unknown as Koa.Middleware;
}
