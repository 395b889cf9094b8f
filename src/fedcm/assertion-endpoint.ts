// POST /fedcm/assertion: the browser asks for the application's credential once the user chose an account
// in its chooser. The answer is an OAuth authorization code ("FedCM for OAuth"), bound to the application's
// PKCE challenge, which the application redeems at /oauth/token with its verifier exactly as a code of the
// redirect flow. A code is given at once only under a grant the user already gave; otherwise the answer is
// the consent pop-up (`continue_on`). Every refusal is logged and answered with FedCM's error shape, with
// CORS only for an origin registered for the application.
import type Koa from 'koa';
import { securityEvent } from '../log/security-log.ts';
import { readFormBody } from '../pages/form-body.ts';
import { issueAuthorizationCode } from '../provider/engine.ts';
import { checkAssertionRequest, isRefusal, type Refusal } from './assertion-request.ts';
import { grantCovering } from './existing-consent.ts';
import type { FedcmDeps } from './fedcm-deps.ts';
import { FEDCM_ROUTES } from './fedcm-urls.ts';
import { continuationUrl, type PopUps } from './pop-ups.ts';
import { chooserSignIn } from './signed-in.ts';
import { allowOrigin, fedcmError, fromBrowserChooser, json } from './webidentity.ts';

const endpoint = FEDCM_ROUTES.assertion;

function refuse(ctx: Koa.Context, refusal: Refusal, clientId: string | undefined, status = 400): void {
  securityEvent('fedcm.refused', { reason: refusal.reason, source: 'fedcm', endpoint, ...(clientId ? { client_id: clientId } : {}) });
  fedcmError(ctx, status, refusal.code);
}

export function assertionEndpoint(deps: FedcmDeps, store: PopUps): Koa.Middleware {
  return async function fedcmAssertion(ctx) {
    // Only the browser's own FedCM request: a page's form post with the user's cookies is a forgery.
    if (!fromBrowserChooser(ctx)) return refuse(ctx, { reason: 'sec_fetch_dest', code: 'invalid_request' }, undefined);
    const form = await readFormBody(ctx);
    const clientId = form.get('client_id') ?? '';
    const client = clientId ? await deps.clients.get(clientId) : undefined;
    const request = checkAssertionRequest(client, ctx.get('Origin') || undefined, form);
    if (isRefusal(request)) {
      // The page may read the error only from an origin the application registered.
      if (client && request.reason !== 'unknown_origin' && request.reason !== 'client_type') allowOrigin(ctx, ctx.get('Origin'));
      return refuse(ctx, request, client?.clientId);
    }
    allowOrigin(ctx, request.origin);
    const signedIn = await chooserSignIn(ctx, deps);
    if (!signedIn || signedIn.account.id !== request.accountId) {
      return refuse(ctx, { reason: 'not_signed_in', code: 'access_denied' }, clientId, 401);
    }
    const accountId = signedIn.account.id;
    const grantId = await grantCovering(deps, accountId, request.client, request.scope);
    if (!grantId) {
      securityEvent('fedcm.continued', { client_id: clientId, account_id: accountId, source: 'fedcm', endpoint, scopes: request.scope });
      return json(ctx, 200, { continue_on: await continuationUrl(deps.config, store, request) });
    }
    const code = await issueAuthorizationCode(deps.provider, {
      clientId,
      accountId,
      grantId,
      scope: request.scope.join(' '),
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      ...(request.nonce ? { nonce: request.nonce } : {}),
      ...(signedIn.authTime ? { authTime: signedIn.authTime } : {}),
      ...(signedIn.amr ? { amr: signedIn.amr } : {}),
    });
    if (!code) return refuse(ctx, { reason: 'unknown_client', code: 'invalid_request' }, clientId);
    securityEvent('fedcm.assertion', {
      client_id: clientId,
      account_id: accountId,
      grant_id: grantId,
      source: 'fedcm',
      endpoint,
      scopes: request.scope,
    });
    json(ctx, 200, { token: code });
  };
}
