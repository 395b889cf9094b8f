// What a running service exposes to the code that created it (an embedding server, tests, tools):
// its configuration, stores and engine. The pages are not given this: each face receives only the
// services it uses (interactions/interaction-deps.ts, src/account-page/account-deps.ts,
// src/portal/portal-deps.ts).
import type { Cluster, Redis } from 'ioredis';
import type Provider from 'oidc-provider';
import type { AdapterFactory } from '../adapters/adapter.ts';
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
  /** The engine's storage per model: revoking a grant reaches its tokens wherever they live. */
  adapters: AdapterFactory;
  /** Present when the config has a Redis section: shared counters (rate limits) live there. */
  redis?: Redis | Cluster;
}
