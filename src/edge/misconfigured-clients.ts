// An application registered before a redirect URI rule existed (src/clients/redirect-uris.ts) may still
// hold a URI that breaks it, e.g. `https://rp.example@evil.test/cb`, whose host is evil.test. Its
// authorization requests are refused with a page that says so, before the engine could send a code or
// an error to that URI. `signin client list` names these applications; an update with valid URIs lifts
// the refusal. The service's own applications (the portal) are not concerned: their URI is the
// issuer's own address.
import type Koa from 'koa';
import type { ClientRegistry } from '../clients/registry.ts';
import { invalidRedirectUris } from '../clients/redirect-uris.ts';
import type { SignInConfig } from '../config/schema.ts';
import { refuse } from './edge-answers.ts';
import { requestParams } from './input-guard.ts';
import { isEnginePath, protocolEndpoint } from './protocol-endpoints.ts';

export function refuseMisconfiguredClients(config: Pick<SignInConfig, 'languages'>, clients: Pick<ClientRegistry, 'get'>): Koa.Middleware {
  const check = async (ctx: Koa.Context, next: Koa.Next, clientId: string) => {
    const client = await clients.get(clientId);
    if (!client || client.firstParty || invalidRedirectUris(client).length === 0) return next();
    await refuse(ctx, config, 'browser', {
      status: 400,
      error: 'invalid_client',
      description: 'a registered redirect URI of this application breaks the redirect URI rules',
      reason: 'clientMisconfigured',
    });
  };
  return function checkRegisteredRedirects(ctx, next) {
    const endpoint = isEnginePath(ctx.path) ? protocolEndpoint(ctx.path) : undefined;
    const clientId = endpoint?.name === 'authorization' ? requestParams(ctx).get('client_id') : undefined;
    return clientId ? check(ctx, next, clientId) : next();
  };
}
