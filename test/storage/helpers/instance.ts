// A service instance on a loopback port for the storage tests: like test/support/service.ts, but the
// issuer and port are chosen by the test (a restart on the same address, two instances behind one
// origin) and the secrets are shared between the instances of one test.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseConfig } from '../../../src/config/load.ts';
import type { SignInConfig, SignInConfigInput } from '../../../src/config/schema.ts';
import { createSignInService, type SignInService } from '../../../src/service.ts';
import { startTestService, type TestClient, type TestService, type TestUser } from '../../support/service.ts';
import { freshPostgres, freshRedis, type FreshPostgres, type FreshRedis } from '../../support/databases.ts';

export interface Instance {
  url: string;
  port: number;
  service: SignInService;
  stop(): Promise<void>;
}

const secret = () => randomBytes(32).toString('base64url');

/** One config for every instance of a test: same issuer, same cookie keys, same pairwise salt. */
export function sharedConfig(issuer: string, storage: SignInConfigInput['storage'], extra: Partial<SignInConfigInput> = {}): SignInConfig {
  return parseConfig({
    issuer,
    secrets: { cookieKeys: [secret()], pairwiseSalt: secret() },
    storage,
    keys: { algorithms: ['RS256'] },
    ...extra,
  });
}

/** The storage section for a fresh Postgres (and Redis), with short timeouts so outages show fast. */
export function postgresStorage(pgUrl: string, redis?: FreshRedis['config'], timeoutMs = 1000): SignInConfigInput['storage'] {
  return {
    kind: 'postgres',
    postgres: { url: pgUrl, pool: { max: 5, connectionTimeoutMs: timeoutMs, statementTimeoutMs: timeoutMs } },
    ...(redis ? { redis: { ...redis, commandTimeoutMs: timeoutMs } } : {}),
  };
}

/** A free loopback port (listened on, then released), for an issuer known before the server starts. */
export async function freePort(): Promise<number> {
  const s = createServer();
  s.listen(0, '127.0.0.1');
  await once(s, 'listening');
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** Starts `createSignInService(config)` (which opens its own storage) on `port` (0: any). */
export async function startInstance(config: SignInConfig, port = 0): Promise<Instance> {
  return serveInstance(await createSignInService(config, { sweepIntervalSeconds: 0 }), port);
}

/** Serves a service already created on `port` (0: any); stopping the instance closes the service too. */
export async function serveInstance(service: SignInService, port = 0): Promise<Instance> {
  const server: Server = createServer(service.app.callback());
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    service,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await service.close();
    },
  };
}

/** Two instances on one fresh Postgres and one fresh Redis, as behind a load balancer; the first's address is the issuer. */
export interface InstancePair {
  first: Instance;
  second: Instance;
  stop(): Promise<void>;
}

export async function twoInstances(extra: Partial<SignInConfigInput> = {}): Promise<InstancePair> {
  let pg: FreshPostgres | undefined;
  let redis: FreshRedis | undefined;
  const started: Instance[] = [];
  const stop = () =>
    teardown(
      ...started.map((instance) => () => instance.stop()),
      () => redis?.cleanup(),
      () => pg?.drop(),
    );
  try {
    pg = await freshPostgres();
    redis = await freshRedis();
    const port = await freePort();
    const config = sharedConfig(`http://127.0.0.1:${port}`, postgresStorage(pg.url, redis.config, 3000), extra);
    started.push(await startInstance(config, port));
    started.push(await startInstance(config));
    return { first: started[0], second: started[1], stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

let counter = 0;

export async function createUser(service: SignInService): Promise<TestUser & { id: string }> {
  counter += 1;
  const user: TestUser = {
    email: `storage${counter}.${Date.now()}@example.org`,
    password: `pw-${randomBytes(9).toString('base64url')}-horse`,
    username: `storage${counter}_${Date.now()}`,
    firstName: 'Aïcha',
    emailVerified: true,
  };
  const account = await service.context.accounts.create(user);
  return { ...user, id: account.id };
}

export async function createClient(service: SignInService): Promise<TestClient> {
  const { client, clientSecret } = await service.context.clients.create({
    name: 'Application de test',
    description: 'Une application qui sert aux essais',
    appType: 'web',
    redirectUris: ['https://app.example.org/callback'],
    scopes: ['openid', 'email', 'profile'],
  });
  return { clientId: client.clientId, clientSecret, redirectUri: client.redirectUris[0], scopes: client.scopes };
}

/**
 * Drops what a test opened, in order, ignoring what was never opened: a step may be missing, return nothing
 * (`() => cluster?.stop()` before the cluster started) or fail, and the steps after it still run.
 */
export async function teardown(...steps: Array<(() => Promise<unknown> | undefined) | undefined>): Promise<void> {
  for (const step of steps) {
    try {
      await step?.();
    } catch {
      // already gone, or never fully opened
    }
  }
}

export type { FreshPostgres, FreshRedis };

/**
 * A running test service on each store the refresh path runs on: the embedded one (`pglite`) and a
 * fresh Postgres, with a fresh Redis beside it when `redis` (`postgres+redis`, else `postgres`).
 */
export async function servicesOnEachStore(options: {
  redis: boolean;
}): Promise<{ services: Record<string, TestService>; stop(): Promise<void> }> {
  const services: Record<string, TestService> = {};
  const pg = await freshPostgres();
  const redis = options.redis ? await freshRedis() : undefined;
  services.pglite = await startTestService();
  services[redis ? 'postgres+redis' : 'postgres'] = await startTestService({ storage: postgresStorage(pg.url, redis?.config, 3000) });
  return {
    services,
    stop: () =>
      teardown(
        ...Object.values(services).map((s) => () => s.stop()),
        () => redis?.cleanup() ?? Promise.resolve(),
        () => pg.drop(),
      ),
  };
}
