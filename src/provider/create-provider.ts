// Builds the engine from our config and the service's stores.
import Provider from 'oidc-provider';
import type { AdapterFactory } from '../../adapters/adapter.ts';
import type { AccountStore } from '../accounts/store.ts';
import type { ClientRegistry } from '../clients/registry.ts';
import type { SignInConfig } from '../config/schema.ts';
import type { ConsentStore } from '../consents/store.ts';
import type { PrivateJwk } from '../keys/signing-keys.ts';
import { clientAdapter } from './client-adapter.ts';
import { buildProviderConfiguration } from './configuration.ts';
import { holdUntrustedErrorRedirects } from './error-redirects.ts';
import { clientCache } from '../clients/client-cache.ts';
import {
  acceptSecretsOfPublicClients,
  enforceClientGrants,
  poolSigningKeys,
  rememberClientInstances,
  useHashedClientSecrets,
  useRefreshTokenFamilies,
  withSessionRecords,
  type ClientAuthGate,
  type SessionRecords,
} from './engine.ts';
import { makeFindAccount } from './find-account.ts';
import { makeLoadExistingGrant } from './load-existing-grant.ts';
import { makeLogoutSource, makePostLogoutSuccessSource } from './logout-pages.ts';
import { makeRenderError } from './render-error.ts';
import { trustProxies } from '../http/proxy.ts';
import { rememberIssuedSeconds } from './tokens/issued-refresh-tokens.ts';
import { withTokenCommits, type TokenStorageOptions } from './tokens/token-storage.ts';

export interface ProviderDeps {
  adapters: AdapterFactory;
  accounts: AccountStore;
  clients: ClientRegistry;
  consents: ConsentStore;
  keys: PrivateJwk[];
  /** Asked before each client-secret comparison (the client-authentication limits). */
  clientAuthGate?: ClientAuthGate;
  /** Revokes a grant whose refresh token or code was replayed. */
  tokens: TokenStorageOptions;
  /** Where each signed-in session is recorded for its account, before it is saved. */
  sessions: SessionRecords;
}

export function createProvider(config: SignInConfig, deps: ProviderDeps): Provider {
  const clients = clientAdapter(deps.clients, deps.clientAuthGate);
  const tokens = { ...deps.tokens, rememberIssuedSeconds: rememberIssuedSeconds(config.ttl) };
  const adapters = withSessionRecords(withTokenCommits(deps.adapters, tokens), deps.sessions, config.ttl.sessionAbsolute);
  const configuration = buildProviderConfiguration(config, {
    adapter: (model: string) => (model === 'Client' ? clients : adapters(model)),
    findAccount: makeFindAccount(deps.accounts),
    loadExistingGrant: makeLoadExistingGrant(deps.consents, config.ttl.refreshToken, clientCache(deps.clients)),
    renderError: makeRenderError(config),
    logoutSource: makeLogoutSource(config),
    postLogoutSuccessSource: makePostLogoutSuccessSource(config),
    jwks: { keys: poolSigningKeys(deps.keys) },
  });
  const provider = new Provider(config.issuer, configuration);
  trustProxies(provider, config);
  rememberClientInstances(provider, (clientId) => clients.find(clientId));
  useHashedClientSecrets(
    provider,
    deps.clientAuthGate,
    (clientId, held) => clients.changedSecretHash(clientId, held),
    (clientId) => clients.previousSecretHash(clientId),
  );
  acceptSecretsOfPublicClients(provider);
  enforceClientGrants(provider);
  useRefreshTokenFamilies(provider);
  // No error redirect to an application no operator stands behind, for a visitor not signed in (RFC 9700 §4.11.2).
  holdUntrustedErrorRedirects(provider, clientCache(deps.clients));
  return provider;
}
