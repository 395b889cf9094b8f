// Consent is remembered per user and application, not only per browser session: the engine asks us for
// an existing Grant and, when it covers the requested scopes, skips the consent screen.
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { ConsentStore } from '../consents/store.ts';
import { keepGrantAlive } from './refresh-tokens.ts';

export function makeLoadExistingGrant(consents: Pick<ConsentStore, 'latest'>, refreshTokenTtl: number) {
  return async function loadExistingGrant(ctx: KoaContextWithOIDC) {
    const { oidc } = ctx;
    if (!oidc.client || !oidc.session?.accountId) return undefined;
    const clientId = oidc.client.clientId;
    const fresh = oidc.result?.consent?.grantId;
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
