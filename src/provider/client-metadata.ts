// A registered application as the engine's client metadata.
import type { ClientMetadata } from 'oidc-provider';
import type { Payload } from '../../adapters/adapter.ts';
import { redirectUriProblem } from '../clients/redirect-uris.ts';
import type { RegisteredClient } from '../clients/registry.ts';
import type { KnownKeys } from './configuration-types.ts';

/** The engine's client metadata, plus our extra metadata (`extraClientMetadata` in configuration.ts). */
type Metadata = KnownKeys<ClientMetadata> & { description: string; app_type: RegisteredClient['appType'] };

/**
 * Pairwise `sub` is computed per client_id (see policy/pairwise.ts), never per host. The engine still
 * wants a sector_identifier_uri when redirect URIs span several hosts, so each client gets a synthetic
 * one that is never fetched (sectorIdentifierUriValidate returns false).
 */
export const syntheticSectorUri = (clientId: string): string => `https://sector.invalid/${clientId}`;

/**
 * Mobile apps and single-page apps are public clients (RFC 8252, OAuth 2.0 for Browser-Based Apps): a
 * secret compiled into an app or a bundle is no secret, PKCE is what protects their codes. They
 * authenticate with `none`; the secret they were still given at registration is accepted too when sent
 * (engine/public-clients.ts). Web and server applications keep their secret.
 */
export const isPublicClient = (client: Pick<RegisteredClient, 'appType' | 'firstParty'>): boolean =>
  !client.firstParty && (client.appType === 'mobile' || client.appType === 'spa');

/**
 * A server application is a confidential backend calling for itself (RFC 6749 §4.4): no user, so no
 * redirect URI, no response type, no scope; its one grant is client_credentials, with its secret in the body.
 */
export const isMachineClient = (client: Pick<RegisteredClient, 'appType' | 'firstParty'>): boolean =>
  !client.firstParty && client.appType === 'server';

/** What the Client model's adapter returns; a misspelt metadata key fails the typecheck. */
export function toClientMetadata(client: RegisteredClient): Payload {
  if (isMachineClient(client)) return toMachineClientMetadata(client);
  const metadata = {
    client_id: client.clientId,
    // The hash, compared by engine/client-secrets.ts; the engine never sees the secret itself.
    client_secret: client.secretHash,
    client_name: client.name,
    description: client.description,
    app_type: client.appType,
    application_type: client.appType === 'mobile' ? 'native' : 'web',
    redirect_uris: client.redirectUris,
    // Never an address that breaks the redirect URI rules (one registered before a rule existed).
    post_logout_redirect_uris: client.firstParty
      ? client.redirectUris
      : client.redirectUris.filter((uri) => !redirectUriProblem(uri, client.appType)),
    response_types: ['code'],
    grant_types: ['authorization_code', 'refresh_token'],
    scope: client.scopes.join(' '),
    token_endpoint_auth_method: isPublicClient(client) ? 'none' : 'client_secret_post',
    // Standard metadata, for the record: the consent screen reads them from the registry.
    ...(client.logoUri ? { logo_uri: client.logoUri } : {}),
    ...(client.policyUri ? { policy_uri: client.policyUri } : {}),
    ...(client.tosUri ? { tos_uri: client.tosUri } : {}),
    subject_type: 'pairwise',
    sector_identifier_uri: syntheticSectorUri(client.clientId),
    id_token_signed_response_alg: 'RS256',
  } satisfies Metadata;
  return metadata;
}

/** A server application's metadata: client_credentials only, never a user-facing flow. */
function toMachineClientMetadata(client: RegisteredClient): Payload {
  const metadata = {
    client_id: client.clientId,
    client_secret: client.secretHash,
    client_name: client.name,
    description: client.description,
    app_type: client.appType,
    application_type: 'web',
    // No redirect URI and no response type: the authorization endpoint refuses it, nobody signs in to it.
    redirect_uris: [],
    response_types: [],
    grant_types: ['client_credentials'],
    token_endpoint_auth_method: 'client_secret_post',
    id_token_signed_response_alg: 'RS256',
  } satisfies Metadata;
  return metadata;
}
