// Issues an authorization code outside the authorization endpoint, for the FedCM ID assertion endpoint:
// the browser's account chooser stands in for the redirect, but the code must be the engine's own, so
// that /oauth/token redeems it exactly as a code of the redirect flow (client, redirect URI, PKCE S256,
// single use, the grant's scopes, the pairwise `sub` of the client, refresh-token families). Built as the
// authorization endpoint builds it, from a grant the user already gave this client.
//
// Relies on oidc-provider 9.13:
// - lib/helpers/process_response_types.js (codeHandler): `new provider.AuthorizationCode({ accountId,
//   acr, amr, authTime, claims, client, codeChallenge, codeChallengeMethod, grantId, nonce, redirectUri,
//   resource, scope, sessionUid, dpopJkt })`, then `save()` resolving to the code; `expiresWithSession`
//   and `sid` left out, as the service's `expiresWithSession` hook answers false;
// - lib/models/authorization_code.js (via base_token.js): the lifetime comes from `ttl.AuthorizationCode`
//   (a number in src/provider/configuration.ts, so no request context is needed);
// - lib/actions/grants/authorization_code.js: the token endpoint's checks on what is stored here;
// - lib/models/grant.js: static `find(id)`, `accountId`, `clientId`, `getOIDCScopeFiltered(scopes)`,
//   `getRejectedOIDCScope()`.
import type Provider from 'oidc-provider';

export interface CodeToIssue {
  clientId: string;
  accountId: string;
  grantId: string;
  /** The scopes asked for; the code carries those of them the grant holds (as the engine's combinedScope). */
  scope: string;
  redirectUri: string;
  /** S256 only: the caller refuses any other method before. */
  codeChallenge: string;
  nonce?: string;
  /** When the user signed in (seconds since the epoch) and how, for the ID token's `auth_time` and `amr`. */
  authTime?: number;
  amr?: string[];
}

export interface EngineGrant {
  accountId: string | undefined;
  clientId: string | undefined;
  /** The requested scopes this grant holds, space-separated. */
  scopesHeld(requested: string): string[];
  rejectedScopes(): string[];
}

/** The grant with this id, as the token endpoint will read it; undefined when unknown or expired. */
export async function findEngineGrant(provider: Provider, grantId: string): Promise<EngineGrant | undefined> {
  const grant = await provider.Grant.find(grantId);
  if (!grant) return undefined;
  return {
    accountId: grant.accountId,
    clientId: grant.clientId,
    scopesHeld: (requested) => (grant.getOIDCScopeFiltered(new Set(requested.split(' ').filter(Boolean))) ?? '').split(' ').filter(Boolean),
    rejectedScopes: () => (grant.getRejectedOIDCScope() ?? '').split(' ').filter(Boolean),
  };
}

/** A new authorization code for the client, under the grant; undefined when the client is unknown to the engine. */
export async function issueAuthorizationCode(provider: Provider, input: CodeToIssue): Promise<string | undefined> {
  const client = await provider.Client.find(input.clientId);
  if (!client) return undefined;
  const grant = await findEngineGrant(provider, input.grantId);
  if (!grant || grant.accountId !== input.accountId || grant.clientId !== input.clientId) return undefined;
  // The type declarations ask for a `gty`, which the engine's own codeHandler does not give a code.
  type CodeFields = ConstructorParameters<Provider['AuthorizationCode']>[0];
  const code = new provider.AuthorizationCode({
    accountId: input.accountId,
    client,
    grantId: input.grantId,
    scope: grant.scopesHeld(input.scope).join(' '),
    redirectUri: input.redirectUri,
    codeChallenge: input.codeChallenge,
    codeChallengeMethod: 'S256',
    ...(input.nonce ? { nonce: input.nonce } : {}),
    ...(input.authTime ? { authTime: input.authTime } : {}),
    ...(input.amr?.length ? { amr: input.amr } : {}),
  } as Omit<CodeFields, 'gty'> as CodeFields);
  return code.save();
}
