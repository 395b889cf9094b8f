// createSignInService: wires config, storage, stores, the engine and the pages into one Koa app. Every
// store and service is built here, once, and each face is handed only the ones it uses.
import Koa from 'koa';
import compose from 'koa-compose';
import mount from 'koa-mount';
import type Provider from 'oidc-provider';
import { openStorage, pingStorage, type Storage } from '../adapters/storage.ts';
import { assertSchemaCurrent, migrate } from '../adapters/sql/migrate.ts';
import { housekeeping } from '../adapters/sql/sweep.ts';
import { openRevocationRecord } from '../adapters/sql/revocations.ts';
import { interactionRoutes } from '../interactions/interaction-router.ts';
import { accountRoutes } from './account-page/account-router.ts';
import { backfillEmailSkeletons } from './accounts/email-skeleton-backfill.ts';
import { EmailTokenStore } from './accounts/email-tokens.ts';
import { clientAuthFailureWatch, createRateLimits } from './accounts/rate-limits.ts';
import { AccountSessionStore } from './accounts/sessions.ts';
import { AccountStore } from './accounts/store.ts';
import { backfillUsernameSkeletons } from './accounts/username-skeletons.ts';
import { ClientRegistry } from './clients/registry.ts';
import type { SignInConfig } from './config/schema.ts';
import { ConsentStore } from './consents/store.ts';
import { withConsentsFollowingGrants } from './grants/consent-lifetime.ts';
import { withCachedGrants } from './grants/grant-cache.ts';
import { grantRevocation } from './grants/revoke.ts';
import { healthRoutes } from './edge/health.ts';
import { pageNotFound, protocolEdge, requestEdge, responseHeaders } from './edge/http-edge.ts';
import { trustProxies } from './http/proxy.ts';
import { markStorageOutages, storageOutageResponses } from './edge/storage-outage.ts';
import { clientAuthLimits } from './edge/client-auth-limit.ts';
import { logEngineEvents, logTokenReuse } from './edge/engine-log.ts';
import { requestIds } from './edge/request-id.ts';
import { requestLog } from './edge/request-log.ts';
import { releaseContextAfterAnswer } from './edge/release-context.ts';
import { loadMetrics, metricsOn } from './metrics/load-metrics.ts';
import { createLogger, type DestinationStream, type Logger } from './log/logger.ts';
import { routeEngineWarnings } from './log/engine-warnings.ts';
import { engineKeys, keySource, loadSigningKeys, watchSigningKeys, type SigningKey } from './keys/signing-keys.ts';
import { AccountMail } from './mail/account-mail.ts';
import { createMailer } from './mail/mailer.ts';
import { loadBrand, serveLogo, shareBrand } from './pages/branding.ts';
import { serveIcons } from './pages/icon.ts';
import { pageViews } from './pages/views.ts';
import { clientCache, invalidateCachedClients } from './clients/client-cache.ts';
import { accountSessions } from './provider/account-sessions.ts';
import { createProvider } from './provider/create-provider.ts';
import { logoutWithoutSessionPage } from './provider/logout-pages.ts';
import { commitTokenResponses } from './provider/tokens/token-commit.ts';
import { markRevocationRequests, type DurableRevocations } from './provider/tokens/durable-revocations.ts';
import { replaceSigningKeys } from './provider/engine.ts';
import { createPhoneService } from './phone/phone-service.ts';
import { createPasskeys } from './passkeys/passkeys.ts';
import { fedcmRoutes } from './fedcm/fedcm-router.ts';
import { portalRoutes } from './portal/portal-router.ts';
import { PORTAL_SESSION_MODEL } from './portal/portal-session.ts';
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
  /** Where the log lines go (stdout by default); tests pass a stream that keeps them. */
  logDestination?: DestinationStream;
  /** The clock of the signing-key schedule (when a rotated key starts signing); tests move it. */
  clock?: () => Date;
}

export interface SignInService {
  /** The Koa app: mount it (koa-mount) or serve it (`app.callback()`). */
  app: Koa;
  provider: Provider;
  context: ServiceContext;
  storage: Storage;
  /** Reads the signing keys again now (running instances also do so on their own; see src/keys/key-watcher.ts). */
  refreshSigningKeys(): Promise<void>;
  /** The service's logger (security events, unexpected errors), for an embedding server's own lines. */
  logger: Logger;
  close(): Promise<void>;
}

export async function createSignInService(config: SignInConfig, options: SignInServiceOptions = {}): Promise<SignInService> {
  // The logo is read first: a wrong branding.logo stops the start before anything is opened.
  const brand = await loadBrand(config.branding);
  const storage = options.storage ?? (await openStorage(config.storage));
  const { db } = storage;
  let keys: SigningKey[];
  let revocations: DurableRevocations | undefined;
  try {
    const mode = options.migrations ?? (config.storage.kind === 'embedded' ? 'auto' : 'check');
    if (mode === 'auto') await migrate(db);
    else await assertSchemaCurrent(db);
    // Accounts created before migration 008 get the skeleton of their username (username-skeletons.ts),
    // and those created before migration 017 that of their address (email-skeleton-backfill.ts).
    await backfillUsernameSkeletons(db);
    await backfillEmailSkeletons(db);
    keys = await loadSigningKeys(config, db);
    // With Redis, codes and access tokens live there, and an older state of Redis (a lagging replica, a
    // restore) would bring back what was redeemed or revoked since: their ends are also recorded in SQL
    // (durable-revocations.ts). Without Redis their own SQL rows are that record already.
    if (storage.redis) {
      const record = await openRevocationRecord(db);
      revocations = { record, accessTokenSeconds: config.ttl.accessToken, codeSeconds: config.ttl.authorizationCode };
    }
  } catch (error) {
    // A service that cannot start leaves no connection or lock behind.
    if (!options.storage) await storage.close();
    throw error;
  }

  const accounts = new AccountStore(db);
  const clients = new ClientRegistry(db);
  const consents = new ConsentStore(db);
  // One view of the engine's storage for the engine and for us alike: a consent follows its grant, and
  // grants are kept in memory for a few seconds (grant-cache.ts explains why that stays safe).
  const grantCache = withCachedGrants(
    withConsentsFollowingGrants(
      storage.adapterFactory({
        refreshTokenReuseGrace: config.ttl.refreshTokenReuseGrace,
        refreshTokenAbsolute: config.ttl.refreshTokenAbsolute,
      }),
      consents,
    ),
  );
  const adapters = grantCache.adapters;
  const grants = grantRevocation(adapters, consents);
  // Every signed-in session is recorded for "sign out everywhere" before the engine saves it.
  const sessionRecords = new AccountSessionStore(db);

  const logger = createLogger({
    level: config.log.level,
    pretty: config.log.pretty ?? !config.production,
    destination: options.logDestination,
  });
  // The engine's console warnings as log lines, so that a JSON log stays JSON (log/engine-warnings.ts).
  const stopEngineWarnings = routeEngineWarnings(logger);
  const redisKeyPrefix = config.storage.redis?.keyPrefix;
  // With Redis, an address without failed client authentications is known as such without a read.
  const clientAuthFailures = storage.redis && (await clientAuthFailureWatch(config.rateLimit, storage.redis, redisKeyPrefix));
  const limits = createRateLimits(config.rateLimit, { db, redis: storage.redis, redisKeyPrefix, clientAuthFailures });
  const clientAuth = clientAuthLimits(limits);

  const clock = options.clock ?? (() => new Date());
  const provider = createProvider(config, {
    adapters,
    accounts,
    clients,
    consents,
    keys: engineKeys(keys, clock()),
    tokens: { revokeGrant: grants.revokeGrant, onReuse: logTokenReuse, revocations },
    sessions: sessionRecords,
    clientAuthGate: clientAuth.gate,
  });
  const context: ServiceContext = { config, db, accounts, clients, consents, provider, adapters, redis: storage.redis };
  markStorageOutages(provider);
  clientAuth.watch(provider);
  logEngineEvents(provider);
  // prom-client and its process metrics only for a service that turns metrics on (load-metrics.ts).
  const counted = metricsOn(config) ? await loadMetrics() : undefined;
  if (counted) {
    counted.countEngineEvents(provider);
    counted.countSecurityEvents();
  }

  const tokens = new EmailTokenStore(db);
  // Passkeys: their table, and their challenges and pending offers beside the interactions (src/passkeys/).
  const passkeys = createPasskeys(config, db, adapters);
  const mail = new AccountMail(config, tokens, createMailer(config.mail), brand);
  // Sign-in by phone code, when the config turns it on; a number's change reaches the account caches.
  const phone = createPhoneService(config, {
    db,
    redis: storage.redis,
    redisKeyPrefix,
    keys: config.secrets.cookieKeys,
    accountChanged: (id) => accounts.changed(id),
  });
  // Each session's device and last use for the account page; a sign-in from a new device told by e-mail when on.
  const sessions = accountSessions(provider, sessionRecords, { config, accounts, mail });

  // Other instances (and the CLI) change clients too: migration 003 announces every change on this
  // channel, so the client cache drops it at once instead of serving an old secret for its TTL.
  // Postgres LISTEN/NOTIFY rather than Redis pub/sub: the clients live in Postgres, the trigger fires
  // for every writer whether Redis is configured or not, and the notice is sent only on commit.
  // On PGlite the same NOTIFYs reach the process's own listeners (adapters/sql/pglite.ts).
  const clientChanges = db.listen?.('signin_clients', {
    message: (clientId) => invalidateCachedClients(clients, clientId),
    reset: () => invalidateCachedClients(clients), // notices sent while disconnected are lost
  });
  await clientChanges?.ready;
  // The same for grants (migration 011), so that a grant given again elsewhere is read anew here.
  const grantChanges = db.listen?.('signin_grants', {
    message: (idHash) => grantCache.invalidate(idHash),
    reset: () => grantCache.invalidate(),
  });
  await grantChanges?.ready;
  // A rotation (by the CLI or another instance) reaches this engine without a restart: on the channel
  // migration 006 announces key changes on, at a waiting key's activation time, and every minute.
  const signingKeys = watchSigningKeys(keys, {
    read: () => keySource(config, db).read(),
    apply: (jwks) => replaceSigningKeys(provider, jwks),
    now: clock,
    listen: (changed) => db.listen?.('signin_keys', { message: changed, reset: changed }),
  });
  await signingKeys.ready;

  // A deleted application loses every grant and token it was given.
  clients.onChange(async (clientId) => {
    if (!(await clients.get(clientId))) await grants.revokeClientGrants(clientId);
  });

  const app = new Koa();
  // Signed cookies: the engine's signer (cookie-keys.ts, given to it in configuration.ts), one for both apps.
  app.keys = provider.keys;
  trustProxies(app, config);
  // Every line of a request carries its id; an error that escapes every face is logged there, once.
  app.silent = true;
  app.use(requestIds(logger));
  // One line per request (request-log.ts), and its count and latency when metrics are on.
  app.use(requestLog(logger));
  if (counted) app.use(counted.httpMetrics());
  // Every page, the engine's included, shows the deployment's name, logo and links.
  app.use(shareBrand(brand));
  // Pages render through koa-views (ctx.render). The engine's own app installs it too, for its error and
  // logout pages and, on the way out of the engine, the outage page: protocol requests pay for it once.
  provider.use(pageViews());
  // A sign-out from a browser with no session: the service's page instead of the engine's scripted one.
  provider.use(logoutWithoutSessionPage(config));
  // The browser's account chooser (FedCM). Built before the engine is mounted: it adds to the engine's answers.
  const cachedClients = clientCache(clients);
  const fedcm = await fedcmRoutes({
    config,
    provider,
    accounts,
    clients: { get: (id) => cachedClients.get(id), ensureFirstPartyClient: (client) => clients.ensureFirstPartyClient(client) },
    consents,
    grants,
    adapters,
  });
  const pages = compose([
    pageViews(),
    await portalRoutes({ config, provider, accounts, clients, limits, mail, portalSessions: adapters(PORTAL_SESSION_MODEL) }),
    interactionRoutes({
      config,
      provider,
      accounts,
      clients: clientCache(clients),
      consents,
      limits,
      mail,
      tokens,
      sessions,
      grants,
      phone,
      passkeys,
    }),
    accountRoutes({ config, provider, db, accounts, clients, consents, limits, mail, tokens, sessions, grants, phone, passkeys }),
  ]);
  // Redemptions commit once the engine's answer is complete (token-commit.ts); any failure on the way
  // out of the engine, its own or a commit's, is turned into a 503 or a generic error by the outer one.
  // Failed client authentications are limited before the engine runs (client-auth-limit.ts). Once its
  // answer is out, a request the service's own app took lets go of what it holds (release-context.ts).
  const engine = compose([
    releaseContextAfterAnswer(app),
    storageOutageResponses(config),
    protocolEdge(config, clients),
    clientAuth.middleware,
    commitTokenResponses({ revokeGrant: grants.revokeGrant, onReuse: logTokenReuse }),
    ...(revocations ? [markRevocationRequests()] : []),
    mount(provider),
  ]);
  // Headers on every response, then malformed or misdirected requests refused before any route (http-edge.ts).
  app.use(responseHeaders(config));
  app.use(healthRoutes(() => pingStorage(storage)));
  // /metrics on this port only behind its token; with a port of its own, the server listens there (server.ts).
  const { metrics } = config;
  if (counted && metrics.port === undefined && metrics.bearerToken) app.use(counted.metricsRoute(metrics.bearerToken));
  app.use(requestEdge(config));
  app.use(serveLogo(brand));
  app.use(serveIcons(brand));
  // The browser's account chooser (FedCM): its endpoints, pop-ups and well-known file, before the engine's paths.
  app.use(fedcm);
  // Protocol requests go straight to the engine: none of the pages' routers has anything to say about
  // them, and token, userinfo and discovery are the hot paths.
  const notFound = pageNotFound(config);
  app.use((ctx, next) => (isEnginePath(ctx.path) ? engine(ctx, next) : pages(ctx, () => notFound(ctx, next))));

  const sweepSeconds = options.sweepIntervalSeconds ?? 600;
  // A sweep that fails (a store briefly unreachable, a vacuum refused) is tried again at the next one.
  const sweepFailed = (error: unknown) =>
    logger.warn({
      msg: 'housekeeping failed',
      err: error instanceof Error ? { type: error.name, message: error.message } : { message: String(error) },
    });
  const sweep = sweepSeconds > 0 ? setInterval(() => void housekeeping(db).catch(sweepFailed), sweepSeconds * 1000) : undefined;
  sweep?.unref();

  return {
    app,
    provider,
    context,
    storage,
    logger,
    refreshSigningKeys: () => signingKeys.refresh(),
    async close() {
      if (sweep) clearInterval(sweep);
      stopEngineWarnings();
      await clientChanges?.close();
      await grantChanges?.close();
      await revocations?.record.close();
      await clientAuthFailures?.close();
      await signingKeys.close();
      if (!options.storage) await storage.close();
    },
  };
}
