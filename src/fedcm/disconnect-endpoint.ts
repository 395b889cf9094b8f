// POST /fedcm/disconnect: the application's `IdentityCredential.disconnect()`. It ends the user's grant to
// that application, and every code and token under it, as "revoke access" on the account page does; the
// browser forgets the pairing when it reads the account id back.
import type Koa from 'koa';
import { fedcmOriginsOf } from '../clients/fedcm-origins.ts';
import { securityEvent } from '../log/security-log.ts';
import { readFormBody } from '../pages/form-body.ts';
import type { FedcmDeps } from './fedcm-deps.ts';
import { FEDCM_ROUTES } from './fedcm-urls.ts';
import { chooserSignIn } from './signed-in.ts';
import { allowOrigin, fedcmError, fromBrowserChooser, json } from './webidentity.ts';

const endpoint = FEDCM_ROUTES.disconnect;

export function disconnectEndpoint(deps: FedcmDeps): Koa.Middleware {
  return async function fedcmDisconnect(ctx) {
    const refuse = (reason: string, status: number, clientId?: string) => {
      securityEvent('fedcm.refused', { reason, source: 'fedcm', endpoint, ...(clientId ? { client_id: clientId } : {}) });
      fedcmError(ctx, status, 'invalid_request');
    };
    if (!fromBrowserChooser(ctx)) return refuse('sec_fetch_dest', 400);
    const form = await readFormBody(ctx);
    const clientId = form.get('client_id') ?? '';
    const client = clientId ? await deps.clients.get(clientId) : undefined;
    const origin = ctx.get('Origin');
    if (!client || client.firstParty || !fedcmOriginsOf(client).includes(origin)) return refuse('unknown_origin', 400, client?.clientId);
    allowOrigin(ctx, origin);
    const signedIn = await chooserSignIn(ctx, deps);
    const hint = form.get('account_hint') ?? '';
    const account = signedIn?.account;
    if (!account || (hint !== account.id && hint !== account.email && hint !== account.username)) {
      return refuse('not_signed_in', 401, clientId);
    }
    const consents = (await deps.consents.listForAccount(account.id)).filter((consent) => consent.clientId === clientId);
    for (const consent of consents) await deps.grants.revokeGrant(consent.grantId);
    await deps.consents.forget({ accountId: account.id, clientId });
    securityEvent('fedcm.disconnected', { client_id: clientId, account_id: account.id, source: 'fedcm', endpoint });
    json(ctx, 200, { account_id: account.id });
  };
}
