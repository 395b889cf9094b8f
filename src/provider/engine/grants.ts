// Grants (remembered consents) built for the engine. Relies on oidc-provider 9.13
// `lib/models/grant.js`: `new Grant({ accountId, clientId })`, `addOIDCScope`/`rejectOIDCScope` (space-
// separated scopes) and `addOIDCClaims`/`rejectOIDCClaims` (arrays), then `save()` resolving to the id.
import type Provider from 'oidc-provider';

export interface GrantInput {
  accountId: string;
  clientId: string;
  scopes: readonly string[];
  rejectedScopes?: readonly string[];
  claims?: readonly string[];
  rejectedClaims?: readonly string[];
}

/** Saves a new Grant for the consent the user gave; returns its id. */
export async function saveGrant(provider: Provider, input: GrantInput): Promise<string> {
  // Always a fresh Grant: the engine cannot re-add a scope once it is rejected in a Grant.
  const grant = new provider.Grant({ accountId: input.accountId, clientId: input.clientId });
  if (input.scopes.length) grant.addOIDCScope(input.scopes.join(' '));
  if (input.rejectedScopes?.length) grant.rejectOIDCScope(input.rejectedScopes.join(' '));
  if (input.claims?.length) grant.addOIDCClaims([...input.claims]);
  if (input.rejectedClaims?.length) grant.rejectOIDCClaims([...input.rejectedClaims]);
  return grant.save();
}
