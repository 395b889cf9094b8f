// Which storage a benchmark runs on: Postgres (and Redis) when their URLs are given, else the embedded store in memory.
export function benchStorage() {
  if (!process.env.BENCH_POSTGRES_URL) return { kind: 'embedded' as const, dataDir: 'memory://' };
  return {
    kind: 'postgres' as const,
    postgres: { url: process.env.BENCH_POSTGRES_URL },
    ...(process.env.BENCH_REDIS_URL ? { redis: { url: process.env.BENCH_REDIS_URL, keyPrefix: `bench:${Date.now()}:` } } : {}),
  };
}
