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
import { useHashedClientSecrets, withRefreshTokenLineage } from './engine.ts';
import { makeFindAccount } from './find-account.ts';
import { makeLoadExistingGrant } from './load-existing-grant.ts';
import { makeLogoutSource, makePostLogoutSuccessSource } from './logout-pages.ts';
import { makeRenderError } from './render-error.ts';
import { trustProxies } from '../http/proxy.ts';

export interface ProviderDeps {
  adapters: AdapterFactory;
  accounts: AccountStore;
  clients: ClientRegistry;
  consents: ConsentStore;
  keys: PrivateJwk[];
}

export function createProvider(config: SignInConfig, deps: ProviderDeps): Provider {
  const clients = clientAdapter(deps.clients);
  const adapters = withRefreshTokenLineage(deps.adapters);
  const configuration = buildProviderConfiguration(config, {
    adapter: (model: string) => (model === 'Client' ? clients : adapters(model)),
    findAccount: makeFindAccount(deps.accounts),
    loadExistingGrant: makeLoadExistingGrant(deps.consents, config.ttl.refreshToken),
    renderError: makeRenderError(config),
    logoutSource: makeLogoutSource(config),
    postLogoutSuccessSource: makePostLogoutSuccessSource(config),
    jwks: { keys: deps.keys },
  });
  const provider = new Provider(config.issuer, configuration);
  trustProxies(provider, config);
  useHashedClientSecrets(provider);
  return provider;
}
