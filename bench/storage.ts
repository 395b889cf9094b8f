// Which storage a benchmark runs on: Postgres (and Redis) when their URLs are given, else the embedded store in memory.
import { Redis } from 'ioredis';

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
  const redis = new Redis(url, { lazyConnect: true });
  await redis.connect();
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

/** The Redis keys of benchStorage's earlier runs, deleted (when the environment names a Redis). */
export async function clearBenchStorageKeys(): Promise<void> {
  if (process.env.BENCH_POSTGRES_URL && process.env.BENCH_REDIS_URL) await clearBenchKeys(process.env.BENCH_REDIS_URL, BENCH_KEY_PREFIX);
}
