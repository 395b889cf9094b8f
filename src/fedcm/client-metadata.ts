// GET /fedcm/client_metadata?client_id=…: the application's privacy-policy and terms links, which the
// browser shows under its chooser the first time an application asks (no cookie comes with it).
import type Koa from 'koa';
import type { FedcmDeps } from './fedcm-deps.ts';
import { fedcmError, json } from './webidentity.ts';

export function clientMetadataEndpoint(deps: Pick<FedcmDeps, 'clients'>): Koa.Middleware {
  return async function fedcmClientMetadata(ctx) {
    const clientId = typeof ctx.query.client_id === 'string' ? ctx.query.client_id : '';
    const client = clientId ? await deps.clients.get(clientId) : undefined;
    if (!client || client.firstParty || client.appType === 'server') return fedcmError(ctx, 404, 'invalid_request');
    json(ctx, 200, {
      ...(client.policyUri ? { privacy_policy_url: client.policyUri } : {}),
      ...(client.tosUri ? { terms_of_service_url: client.tosUri } : {}),
    });
  };
}
