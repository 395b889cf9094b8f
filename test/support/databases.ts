// Real databases for tests: an in-memory PGlite, a throwaway database on the local Postgres, and a
// Redis client confined to a unique key prefix. A missing server makes the test fail with a message
// saying what to start; it never skips, so CI cannot go green without having run the tests.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import pg from 'pg';
import type { Redis } from 'ioredis';
import type { Database } from '../../adapters/sql/database.ts';
import type { RedisConfig } from '../../adapters/storage-config.ts';
import { migrate } from '../../adapters/sql/migrate.ts';
import { openPglite } from '../../adapters/sql/pglite.ts';
import { openPostgres } from '../../adapters/sql/postgres.ts';
import { closeRedis, openRedis, redactUrl } from '../../adapters/redis/connect.ts';
import { deleteKeysUnder, keysUnder } from './redis-keys.ts';

export const TEST_POSTGRES_URL = process.env.SIGNIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.SIGNIN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A fresh, migrated, in-memory PGlite. Close it with `db.close()`. */
export async function freshPglite(): Promise<Database> {
  const db = await openPglite('memory://');
  await migrate(db);
  return db;
}

export interface FreshPostgres {
  db: Database;
  /** The URL of the new database, for code that opens its own pool (openStorage, a second instance). */
  url: string;
  /** Closes `db` and drops the database. */
  drop(): Promise<void>;
}

/**
 * Creates a uniquely named database on the test server, migrates it (unless `migrated: false`, for
 * tests of the schema check), and opens a pool on it.
 */
export async function freshPostgres(options: { migrated?: boolean } = {}): Promise<FreshPostgres> {
  const name = `signin_test_${uniqueSuffix('_')}`;
  await withAdmin((admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const db = await openPostgres({ url: url.toString(), max: 10 });
  try {
    if (options.migrated !== false) await migrate(db);
  } catch (error) {
    await db.close();
    await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    throw error;
  }
  return {
    db,
    url: url.toString(),
    async drop() {
      await db.close();
      // FORCE: a pool opened elsewhere by the test must not keep the database alive.
      await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

export type SqlStoresPerFile = Record<'postgres' | 'pglite', () => Database> & {
  /** The Postgres database's URL, for a test that opens its own pool on it. */
  postgresUrl(): string;
};

/**
 * A fresh Postgres database and a fresh PGlite for the calling test file, made before its tests and
 * dropped after them: `sqlStores[backend]()` is the open one.
 */
export function freshSqlStoresPerFile(): SqlStoresPerFile {
  let pg: FreshPostgres | undefined;
  let lite: Database | undefined;
  beforeAll(async () => {
    pg = await freshPostgres();
    lite = await freshPglite();
  }, 60_000);
  afterAll(async () => {
    await pg?.drop();
    await lite?.close();
  });
  return { postgres: () => pg!.db, pglite: () => lite!, postgresUrl: () => pg!.url };
}

export interface FreshRedis {
  redis: Redis;
  /** Unique to this call (one per test file): give it to the adapter, as the config file would. */
  keyPrefix: string;
  /** The same server and prefix as a config section, for `openStorage`. */
  config: RedisConfig;
  /** Every key under the prefix with its value as text (hashes and sets flattened), for at-rest checks. */
  dump(): Promise<Record<string, string>>;
  /** Deletes every key under the prefix and closes the client. */
  cleanup(): Promise<void>;
}

/**
 * The client itself has no ioredis `keyPrefix`: the adapters prefix their keys (as in production),
 * and SCAN, which ioredis never prefixes, then sees the same names that DEL is given.
 */
export async function freshRedis(): Promise<FreshRedis> {
  // Only [a-z0-9:-], so the prefix needs no escaping in a SCAN MATCH pattern.
  const keyPrefix = `signin-test:${uniqueSuffix('-')}:`;
  const config = { url: TEST_REDIS_URL, keyPrefix, commandTimeoutMs: 2000 } satisfies RedisConfig;
  let redis: Redis;
  try {
    redis = await openRedis(config);
  } catch (error) {
    // openRedis already says "not reachable"; keep its underlying cause rather than repeat it.
    throw unreachable('Redis', TEST_REDIS_URL, 'SIGNIN_TEST_REDIS_URL', (error as Error).cause ?? error);
  }
  return {
    redis,
    keyPrefix,
    config,
    async dump() {
      const out: Record<string, string> = {};
      for (const key of await keysUnder(redis, keyPrefix)) out[key] = await valueAsText(redis, key);
      return out;
    },
    async cleanup() {
      await deleteKeysUnder(redis, keyPrefix);
      await closeRedis(redis);
    },
  };
}

async function valueAsText(redis: Redis, key: string): Promise<string> {
  switch (await redis.type(key)) {
    case 'string':
      return (await redis.get(key)) ?? '';
    case 'hash':
      return JSON.stringify(await redis.hgetall(key));
    case 'set':
      return JSON.stringify(await redis.smembers(key));
    default:
      return ''; // expired between SCAN and TYPE, or a type the adapters never write
  }
}

async function withAdmin<T>(fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
  admin.on('error', () => {}); // a dropped idle connection must not crash the test worker
  try {
    await admin.connect();
  } catch (error) {
    throw unreachable('Postgres', TEST_POSTGRES_URL, 'SIGNIN_TEST_POSTGRES_URL', error);
  }
  try {
    return await fn(admin);
  } finally {
    await admin.end().catch(() => {});
  }
}

function unreachable(service: string, url: string, envVar: string, cause: unknown): Error {
  const detail = cause instanceof Error ? cause.message : String(cause);
  const ci = process.env.CI ? ' (CI: these tests must run, so this is a failure, not a skip)' : '';
  return new Error(`${service} is not reachable at ${redactUrl(url)}; start it or set ${envVar}${ci}. Cause: ${detail}`, { cause });
}

function uniqueSuffix(separator: string): string {
  return `${process.pid}${separator}${randomBytes(6).toString('hex')}`;
}
