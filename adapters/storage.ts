// Opens the configured storage and picks, per engine model, where it lives.
import type { Cluster } from 'ioredis';
import type { RedisClient } from './redis/connect.ts';
import type { SignInStorageConfig } from './storage-config.ts';
import type { AdapterFactory, AdapterOptions } from './adapter.ts';
import { guardAdapter, guardDatabase, refusedWritesRecently } from './guard.ts';
import type { Database } from './sql/database.ts';
import { sqlAdapter } from './sql/adapter.ts';
import { openPglite } from './sql/pglite.ts';
import { openPostgres } from './sql/postgres.ts';
import { redisAdapter } from './redis/adapter.ts';
import { closeRedis, openRedis } from './redis/connect.ts';
import { rethrowClassified } from './unavailable.ts';

/**
 * The short-lived, write-heavy models that go to Redis when it is configured: one durable SQL commit
 * per upsert costs 26-45 % of flow throughput (design.md). Everything else (Grant, RefreshToken...)
 * stays in SQL, where it survives a Redis restart and keeps the refresh-token reuse grace.
 */
export const HOT_MODELS: readonly string[] = Object.freeze([
  'Session',
  'Interaction',
  'AuthorizationCode',
  'AccessToken',
  // A server application's access token (client_credentials): as short-lived as a user's, and looked up
  // by every revocation or introspection of a token not found as an access token.
  'ClientCredentials',
  'ReplayDetection',
  'PushedAuthorizationRequest',
  // A passkey ceremony's challenge, and the password sign-in waiting on the offer of a passkey (src/passkeys/).
  'PasskeyChallenge',
  'PasskeyOffer',
]);
const HOT = new Set(HOT_MODELS);

export interface Storage {
  db: Database;
  /** Present when the config has a `redis` section: the client holding the hot models. */
  redis?: RedisClient;
  adapterFactory(options: AdapterOptions): AdapterFactory;
  close(): Promise<void>;
}

export async function openDatabase(storage: SignInStorageConfig): Promise<Database> {
  if (storage.kind === 'postgres') {
    const { url, pool } = storage.postgres;
    return guardDatabase(await openPostgres({ url, ...pool }));
  }
  return guardDatabase(await openPglite(storage.dataDir));
}

/**
 * Resolves when every backend of `storage` answers and none refused a write lately (a full disk, a read-only
 * server: guard.ts); rejects otherwise.
 */
export async function pingStorage(storage: Pick<Storage, 'db' | 'redis'>): Promise<void> {
  const refusing = [storage.db, storage.redis].find((store) => store !== undefined && refusedWritesRecently(store));
  if (refusing) throw new Error(`${refusing === storage.db ? storage.db.kind : 'redis'} refused a write lately`);
  await Promise.all([
    storage.db.query('SELECT 1'),
    storage.redis && pingRedis(storage.redis).catch((error: unknown) => rethrowClassified('redis', error)),
  ]);
}

/**
 * The one server, or the master of every slot of a cluster: a cluster's own PING reaches one node,
 * which answers while another master (and every key of its slots) is down. The client drops a node
 * whose connection closed from its list at once, so the masters are read off the slot table.
 */
export async function pingRedis(redis: RedisClient): Promise<void> {
  if (!redis.isCluster) {
    await redis.ping();
    return;
  }
  const cluster = redis as Cluster;
  const connected = new Map(cluster.nodes('master').map((node) => [`${node.options.host}:${node.options.port}`, node]));
  const masters = new Set<string>();
  for (let slot = 0; slot < CLUSTER_SLOTS; slot++) {
    const master = cluster.slots[slot]?.[0];
    if (!master) throw new Error(`no Redis Cluster master serves slot ${slot}`);
    masters.add(master);
  }
  await Promise.all(
    [...masters].map((key) => {
      const node = connected.get(key);
      if (!node) throw new Error(`the Redis Cluster master ${key} is not connected`);
      return node.ping();
    }),
  );
}

const CLUSTER_SLOTS = 16384;

export async function openStorage(storage: SignInStorageConfig): Promise<Storage> {
  const db = await openDatabase(storage);
  if (!storage.redis) {
    return {
      db,
      adapterFactory: (options) => (model) => sqlAdapter(db, model, options),
      close: () => db.close(),
    };
  }

  const { keyPrefix } = storage.redis;
  let redis: RedisClient;
  try {
    redis = await openRedis(storage.redis);
  } catch (error) {
    await db.close().catch(() => {}); // do not leak the pool of a storage that never opened
    throw error;
  }
  return {
    db,
    redis,
    adapterFactory: (options) => (model) =>
      HOT.has(model) ? guardAdapter('redis', redisAdapter(redis, model, { keyPrefix }), redis) : sqlAdapter(db, model, options),
    async close() {
      // Close both even if one fails, then report the first failure.
      const results = await Promise.allSettled([closeRedis(redis), db.close()]);
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
