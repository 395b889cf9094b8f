// Which storage a benchmark runs on: Postgres (and Redis) when their URLs are given, else the embedded store in memory.
import { closeRedis, openRedis } from '../adapters/redis/connect.ts';
import { deleteKeysUnder } from '../test/support/redis-keys.ts';

/** Where the benchmarks that take their stores from the environment keep their Redis keys. */
export const BENCH_KEY_PREFIX = 'bench:';

export function benchStorage() {
  if (!process.env.BENCH_POSTGRES_URL) return { kind: 'embedded' as const, dataDir: 'memory://' };
  return {
    kind: 'postgres' as const,
    postgres: { url: process.env.BENCH_POSTGRES_URL },
    ...(process.env.BENCH_REDIS_URL ? { redis: { url: process.env.BENCH_REDIS_URL, keyPrefix: BENCH_KEY_PREFIX } } : {}),
  };
}

/**
 * Deletes every key under `prefix`, so that a run starts from an empty Redis as it starts from a fresh
 * database. Without it each run's tokens and sessions stay until they expire (days, for a session): after one
 * morning of runs, Redis held 630,000 keys and half a gigabyte. One benchmark at a time on a Redis, then.
 */
export async function clearBenchKeys(url: string, prefix: string): Promise<void> {
  const redis = await openRedis({ url, keyPrefix: prefix, commandTimeoutMs: 10_000 });
  try {
    await deleteKeysUnder(redis, prefix);
  } finally {
    await closeRedis(redis);
  }
}

/** The Redis keys of earlier runs on this storage, deleted (when it has a Redis). */
export async function clearBenchStorageKeys(storage: ReturnType<typeof benchStorage>): Promise<void> {
  if ('redis' in storage && storage.redis) await clearBenchKeys(storage.redis.url, storage.redis.keyPrefix);
}
