// What the FedCM face is given by the service: the stores and services its endpoints use, nothing more.
import type Provider from 'oidc-provider';
import type { AdapterFactory } from '../../adapters/adapter.ts';
import type { AccountStore } from '../accounts/store.ts';
import type { ClientRegistry, RegisteredClient } from '../clients/registry.ts';
import type { SignInConfig } from '../config/schema.ts';
import type { ConsentStore } from '../consents/store.ts';
import type { GrantRevocation } from '../grants/revoke.ts';

export interface FedcmDeps {
  config: SignInConfig;
  /** The engine: its sessions (who is signed in), grants and authorization codes, through the door. */
  provider: Provider;
  accounts: Pick<AccountStore, 'findById' | 'details'>;
  /** The shared client cache for `get`; `ensureFirstPartyClient` registers the login pop-up's client at start. */
  clients: { get(clientId: string): Promise<RegisteredClient | undefined> } & Pick<ClientRegistry, 'ensureFirstPartyClient'>;
  consents: Pick<ConsentStore, 'latest' | 'listForAccount' | 'forget'>;
  grants: Pick<GrantRevocation, 'revokeGrant'>;
  /** Where pending pop-ups are kept, so that any instance may finish one. */
  adapters: AdapterFactory;
}
