// Consent is remembered per user and application, not only per browser session: the engine asks us for
// an existing Grant and, when it covers the requested scopes, skips the consent screen. A single-page app
// that is not verified with https redirect URIs gets no remembered Grant, so its users are asked at every
// authorization, as the engine asks for mobile apps (src/consents/remembered-consent.ts).
import type { Client } from 'oidc-provider';
import type Provider from 'oidc-provider';
import { remembersConsent, type ConsentClient } from '../consents/remembered-consent.ts';
import type { ConsentStore } from '../consents/store.ts';
import { keepGrantAlive } from './tokens/refresh-lifetimes.ts';

/** What the hook reads of the authorization request (`ctx.oidc`), and the engine to load grants with. */
export interface GrantRequest {
  oidc: {
    client?: Pick<Client, 'clientId'> | undefined;
    session?: { accountId?: string | undefined; grantIdFor(clientId: string): string | undefined } | undefined;
    /** The interaction's result: a consent just given names its new grant. */
    result?: { consent?: { grantId?: string | undefined } | undefined } | undefined;
    params?: { scope?: unknown } | undefined;
    provider: Pick<Provider, 'Grant'>;
  };
}

/** The registered applications, as the hook reads them (the shared client cache). */
export interface ConsentClients {
  get(clientId: string): Promise<ConsentClient | undefined>;
}

export function makeLoadExistingGrant(consents: Pick<ConsentStore, 'latest'>, refreshTokenTtl: number, clients: ConsentClients) {
  return async function loadExistingGrant(ctx: GrantRequest) {
    const { oidc } = ctx;
    if (!oidc.client || !oidc.session?.accountId) return undefined;
    const clientId = oidc.client.clientId;
    const fresh = oidc.result?.consent?.grantId;
    if (!fresh) {
      // Without a Grant the engine asks for consent; the one just given (fresh) always counts.
      const registered = await clients.get(clientId);
      if (!registered || !remembersConsent(registered)) return undefined;
    }
    const grantId = fresh ?? oidc.session.grantIdFor(clientId) ?? (await consents.latest(oidc.session.accountId, clientId))?.grantId;
    if (!grantId) return undefined;
    const grant = await oidc.provider.Grant.find(grantId);
    if (!grant || grant.accountId !== oidc.session.accountId || grant.clientId !== clientId) return undefined;
    if (!fresh) {
      // A scope the user refused before is asked again when requested, rather than silently dropped.
      const rejected = new Set((grant.getRejectedOIDCScope() ?? '').split(' ').filter(Boolean));
      const requested = String(oidc.params?.scope ?? '').split(' ');
      if (requested.some((scope) => rejected.has(scope))) return undefined;
      // A returning user: the consent is remembered from this sign-in on.
      await keepGrantAlive(grant, refreshTokenTtl);
    }
    return grant;
  };
}
