// What the HTTP faces (interactions, portal, account page) are given to do their work.
import type Provider from 'oidc-provider';
import type { Database } from '../adapters/sql/database.ts';
import type { AccountStore } from './accounts/store.ts';
import type { ClientRegistry } from './clients/registry.ts';
import type { SignInConfig } from './config/schema.ts';
import type { ConsentStore } from './consents/store.ts';

export interface ServiceContext {
  config: SignInConfig;
  db: Database;
  accounts: AccountStore;
  clients: ClientRegistry;
  consents: ConsentStore;
  provider: Provider;
}
