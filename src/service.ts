// createSignInService: wires config, storage, stores, the engine and the pages into one Koa app. Every
// store and service is built here, once, and each face is handed only the ones it uses.
import Koa from 'koa';
import compose from 'koa-compose';
import mount from 'koa-mount';
import type Provider from 'oidc-provider';
import { openStorage, pingStorage, type Storage } from '../adapters/storage.ts';
import { assertSchemaCurrent, migrate } from '../adapters/sql/migrate.ts';
import { sweepExpired } from '../adapters/sql/sweep.ts';
import { interactionRoutes } from '../interactions/interaction-router.ts';
import { accountRoutes } from './account-page/account-router.ts';
import { EmailTokenStore } from './accounts/email-tokens.ts';
import { createRateLimits } from './accounts/rate-limits.ts';
import { AccountSessions } from './accounts/sessions.ts';
import { AccountStore } from './accounts/store.ts';
import { ClientRegistry } from './clients/registry.ts';
import type { SignInConfig } from './config/schema.ts';
import { ConsentStore } from './consents/store.ts';
import { grantRevocation } from './grants/revoke.ts';
import { healthRoutes } from './http/health.ts';
import { trustProxies } from './http/proxy.ts';
import { markStorageOutages, storageOutageResponses } from './http/storage-outage.ts';
import { loadKeysFromDatabase, loadKeysFromFile, type PrivateJwk } from './keys/signing-keys.ts';
import { AccountMail } from './mail/account-mail.ts';
import { createMailer } from './mail/mailer.ts';
import { pageViews } from './pages/views.ts';
import { invalidateCachedClients } from './provider/client-adapter.ts';
import { createProvider } from './provider/create-provider.ts';
import { portalRoutes } from './portal/portal-router.ts';
import type { ServiceContext } from './service-context.ts';

const isEnginePath = (path: string): boolean => path.startsWith('/oauth/') || path.startsWith('/.well-known/');

export interface SignInServiceOptions {
  /** Storage already opened by the caller (tests, several services on one pool); closed by the caller. */
  storage?: Storage;
  /**
   * `auto` applies pending migrations at start; `check` refuses to start on a schema that is not
   * current. Default: `auto` for the embedded store (it belongs to this process), `check` otherwise.
   */
  migrations?: 'auto' | 'check';
  /** Seconds between sweeps of expired rows; 0 turns the sweep off. Default 600. */
  sweepIntervalSeconds?: number;
}

export interface SignInService {
  /** The Koa app: mount it (koa-mount) or serve it (`app.callback()`). */
  app: Koa;
  provider: Provider;
  context: ServiceContext;
  storage: Storage;
  close(): Promise<void>;
}

export async function createSignInService(config: SignInConfig, options: SignInServiceOptions = {}): Promise<SignInService> {
  const storage = options.storage ?? (await openStorage(config.storage));
  const { db } = storage;
  let keys: PrivateJwk[];
  try {
    const mode = options.migrations ?? (config.storage.kind === 'embedded' ? 'auto' : 'check');
    if (mode === 'auto') await migrate(db);
    else await assertSchemaCurrent(db);
    keys =
      config.keys.source === 'file'
        ? await loadKeysFromFile(config.keys.file!, config.keys.algorithms)
        : await loadKeysFromDatabase(db, config.keys.algorithms, config.secrets.keyEncryptionKey);
  } catch (error) {
    // A service that cannot start leaves no connection or lock behind.
    if (!options.storage) await storage.close();
    throw error;
  }

  const adapters = storage.adapterFactory({ refreshTokenReuseGrace: config.ttl.refreshTokenReuseGrace });
  const accounts = new AccountStore(db);
  const clients = new ClientRegistry(db);
  const consents = new ConsentStore(db);

  const provider = createProvider(config, { adapters, accounts, clients, consents, keys });
  const context: ServiceContext = { config, db, accounts, clients, consents, provider, adapters, redis: storage.redis };
  markStorageOutages(provider);

  const grants = grantRevocation(adapters, consents);
  const tokens = new EmailTokenStore(db);
  const mail = new AccountMail(config, tokens, createMailer(config.mail));
  const limits = createRateLimits(config.rateLimit, { db, redis: storage.redis, redisKeyPrefix: config.storage.redis?.keyPrefix });
  // Follows the engine's session events from the start, exactly once, for "sign out everywhere".
  const sessions = new AccountSessions(db, provider);
  sessions.track();

  // Other instances (and the CLI) change clients too: migration 003 announces every change on this
  // channel, so the client cache drops it at once instead of serving an old secret for its TTL.
  // Postgres LISTEN/NOTIFY rather than Redis pub/sub: the clients live in Postgres, the trigger fires
  // for every writer whether Redis is configured or not, and the notice is sent only on commit.
  // On PGlite there is one process, which sees its own changes; the short TTL covers the rest.
  const clientChanges = db.listen?.('signin_clients', {
    message: (clientId) => invalidateCachedClients(clients, clientId),
    reset: () => invalidateCachedClients(clients), // notices sent while disconnected are lost
  });
  await clientChanges?.ready;

  // A deleted application loses every grant and token it was given.
  clients.onChange(async (clientId) => {
    if (!(await clients.get(clientId))) await grants.revokeClientGrants(clientId);
  });

  const app = new Koa();
  app.keys = config.secrets.cookieKeys;
  trustProxies(app, config);
  // Pages render through koa-views (ctx.render). The engine's own app installs it too, for its error and
  // logout pages and, on the way out of the engine, the outage page: protocol requests pay for it once.
  provider.use(pageViews());
  const pages = compose([
    pageViews(),
    await portalRoutes({ config, provider, accounts, clients }),
    interactionRoutes({ config, provider, accounts, clients, consents, limits, mail, tokens, sessions, grants }),
    accountRoutes({ config, provider, accounts, clients, consents, limits, sessions, grants }),
  ]);
  const engine = compose([storageOutageResponses(config), mount(provider)]);
  app.use(healthRoutes(() => pingStorage(storage)));
  // Protocol requests go straight to the engine: none of the pages' routers has anything to say about
  // them, and token, userinfo and discovery are the hot paths.
  app.use((ctx, next) => (isEnginePath(ctx.path) ? engine(ctx, next) : pages(ctx, () => engine(ctx, next))));

  const sweepSeconds = options.sweepIntervalSeconds ?? 600;
  const sweep = sweepSeconds > 0 ? setInterval(() => void sweepExpired(db).catch(() => {}), sweepSeconds * 1000) : undefined;
  sweep?.unref();

  return {
    app,
    provider,
    context,
    storage,
    async close() {
      if (sweep) clearInterval(sweep);
      await clientChanges?.close();
      if (!options.storage) await storage.close();
    },
  };
}
