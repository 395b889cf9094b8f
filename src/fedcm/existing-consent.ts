// Whether the user already gave this application every scope it asks for, by the rule the engine's consent
// step follows (src/provider/load-existing-grant.ts): the application remembers consent, its latest grant
// from this user is alive, holds every requested scope, and none of them was refused in it (a refused
// scope is asked again, never silently dropped). Then the assertion is a code at once; otherwise, the pop-up.
import type { RegisteredClient } from '../clients/registry.ts';
import { remembersConsent } from '../consents/remembered-consent.ts';
import { findEngineGrant } from '../provider/engine.ts';
import type { FedcmDeps } from './fedcm-deps.ts';

export async function grantCovering(
  deps: Pick<FedcmDeps, 'provider' | 'consents'>,
  accountId: string,
  client: RegisteredClient,
  scope: readonly string[],
): Promise<string | undefined> {
  if (!remembersConsent(client)) return undefined;
  const consent = await deps.consents.latest(accountId, client.clientId);
  if (!consent) return undefined;
  const grant = await findEngineGrant(deps.provider, consent.grantId);
  if (!grant || grant.accountId !== accountId || grant.clientId !== client.clientId) return undefined;
  const rejected = new Set(grant.rejectedScopes());
  if (scope.some((s) => rejected.has(s))) return undefined;
  const held = new Set(grant.scopesHeld(scope.join(' ')));
  return scope.every((s) => held.has(s)) ? consent.grantId : undefined;
}
