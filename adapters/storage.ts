// Opens the configured storage and picks, per engine model, where it lives.
import type { RedisClient } from './redis/connect.ts';
import type { SignInStorageConfig } from './storage-config.ts';
import type { AdapterFactory, AdapterOptions } from './adapter.ts';
import { guardAdapter } from './guard.ts';
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
  'ReplayDetection',
  'PushedAuthorizationRequest',
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
    return openPostgres({ url, ...pool });
  }
  return openPglite(storage.dataDir);
}

/** Resolves when every backend of `storage` answers; rejects (StorageUnavailableError) otherwise. */
export async function pingStorage(storage: Pick<Storage, 'db' | 'redis'>): Promise<void> {
  await Promise.all([
    storage.db.query('SELECT 1'),
    storage.redis?.ping().catch((error: unknown) => rethrowClassified('redis', error)),
  ]);
}

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
      HOT.has(model) ? guardAdapter('redis', redisAdapter(redis, model, { keyPrefix })) : sqlAdapter(db, model, options),
    async close() {
      // Close both even if one fails, then report the first failure.
      const results = await Promise.allSettled([closeRedis(redis), db.close()]);
      const failed = results.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
    },
  };
}
