// Brute-force and abuse limits, with rate-limiter-flexible. Counters live in Redis when the storage has
// it (RateLimiterRedis), else in SQL (RateLimiterSql): in both cases every instance shares them.
// Keys are hashed, so the counter store holds no e-mail address.
import { hash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Queryable } from '../../adapters/sql/database.ts';
import { rethrowClassified, type StorageBackend } from '../../adapters/unavailable.ts';
import type { SignInConfig } from '../config/schema.ts';
import { watchFailures, type FailureWatch } from './failure-watch.ts';
import { RateLimiterSql } from './sql-rate-limiter.ts';
import type { Account } from './store.ts';

type Limit = { points: number; windowSeconds: number };

export interface RateLimitStores {
  db: Queryable;
  redis?: Redis | Cluster;
  /** Prefix of our Redis keys (the storage section's keyPrefix). */
  redisKeyPrefix?: string;
  /** Every instance's failed client authentications per IP, heard as they happen (failure-watch.ts). */
  clientAuthFailures?: FailureWatch;
}

/** A counter of events per key, counted up front: each event is counted before the work it limits. */
export class Limiter {
  // Where the counters live: a failure to reach it is that store's outage (a 503), not a bug.
  private readonly backend: StorageBackend;

  constructor(
    private readonly limiter: RateLimiterAbstract,
    // The Redis client of a RateLimiterRedis (for `counted`'s one-command read); without it, SQL.
    private readonly redis?: Redis | Cluster,
    // For a limit on failures: which keys hold one, known without a read (failure-watch.ts).
    private readonly failures?: FailureWatch,
  ) {
    this.backend = redis ? 'redis' : 'postgres';
  }

  /** Counts one event and says whether it was allowed (for actions limited up front, such as e-mails). */
  async take(key: string): Promise<boolean> {
    return (await this.consume(key)) === 0;
  }

  /**
   * Counts one event up front and says how long the key must wait: 0 when this event is within the limit.
   * Counting before the work (one atomic increment) is what keeps parallel requests from all passing a check.
   */
  async consume(key: string): Promise<number> {
    const hashed = hashKey(key);
    // A failure is told to every instance in the same tick as it is counted: one write to Redis for both.
    const [count, told] = await Promise.allSettled([this.limiter.consume(hashed), this.failures?.failed(hashed)]);
    if (told.status === 'rejected') return rethrowClassified(this.backend, told.reason);
    if (count.status === 'fulfilled') return 0;
    if (count.reason instanceof RateLimiterRes) return Math.max(1, Math.ceil(count.reason.msBeforeNext / 1000));
    return rethrowClassified(this.backend, count.reason);
  }

  /**
   * How long the key must still wait, without counting anything: 0 while fewer events than the limit
   * were counted. For limits on failures, which are counted (`consume`) only once they have happened.
   */
  async blockedFor(key: string): Promise<number> {
    return (await this.counted(key)).retryAfter;
  }

  /** The events counted for the key in its window, and how long it must still wait (as `blockedFor`). */
  async counted(key: string): Promise<{ count: number; retryAfter: number }> {
    const hashed = hashKey(key);
    // A key no instance has reported a failure for: nothing to read.
    if (this.failures?.clean(hashed)) return { count: 0, retryAfter: 0 };
    let res: RateLimiterRes | null;
    try {
      if (this.redis) {
        // The counter is a plain integer under the limiter's key: one GET, where the library's own read
        // sends MULTI, GET, PTTL and EXEC. The count alone settles a key under its limit (every request
        // at the token endpoint from an address without failures); only a key at its limit needs the
        // time left, read below.
        const raw = await this.redis.get(this.limiter.getKey(hashed));
        const count = raw === null ? 0 : Number(raw);
        if (count < this.limiter.points) return { count, retryAfter: 0 };
      }
      res = await this.limiter.get(hashed);
    } catch (error) {
      return rethrowClassified(this.backend, error);
    }
    if (!res) return { count: 0, retryAfter: 0 };
    const retryAfter = res.consumedPoints < this.limiter.points ? 0 : Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    return { count: res.consumedPoints, retryAfter };
  }

  /** The length of the counting window, in seconds. */
  get windowSeconds(): number {
    return this.limiter.duration;
  }

  /** Gives back one event counted by `consume` (an attempt that turned out not to be a failure). */
  async refund(key: string): Promise<void> {
    await this.limiter.reward(hashKey(key), 1).catch((error: unknown) => rethrowClassified(this.backend, error));
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(hashKey(key)).catch((error: unknown) => rethrowClassified(this.backend, error));
  }
}

export interface RateLimits {
  loginPerAccount: Limiter;
  loginPerIp: Limiter;
  mailPerIp: Limiter;
  mailPerAddress: Limiter;
  /** Failed client authentications per (client_id, IP) pair: see src/edge/client-auth-limit.ts. */
  clientAuthPerClient: Limiter;
  /** Failed client authentications per IP, whatever the client_id. */
  clientAuthPerIp: Limiter;
}

const CLIENT_AUTH_IP = 'client-auth-ip';

/** Where every instance learns of failed client authentications per IP (Redis only; see failure-watch.ts). */
export function clientAuthFailureWatch(
  config: SignInConfig['rateLimit'],
  redis: Redis | Cluster,
  redisKeyPrefix = '',
): Promise<FailureWatch> {
  return watchFailures(redis, {
    name: `${redisKeyPrefix}rl:${CLIENT_AUTH_IP}:failing`,
    windowSeconds: config.clientAuthPerIp.windowSeconds,
  });
}

export function createRateLimits(config: SignInConfig['rateLimit'], stores: RateLimitStores): RateLimits {
  const make = (name: string, limit: Limit) => {
    // The window is also the block: once over the limit, a key waits out the rest of its window.
    const options = { keyPrefix: `rl:${name}`, points: limit.points, duration: limit.windowSeconds };
    const limiter = stores.redis
      ? new RateLimiterRedis({ ...options, keyPrefix: `${stores.redisKeyPrefix ?? ''}${options.keyPrefix}`, storeClient: stores.redis })
      : new RateLimiterSql(stores.db, options);
    return new Limiter(limiter, stores.redis, name === CLIENT_AUTH_IP ? stores.clientAuthFailures : undefined);
  };
  return {
    loginPerAccount: make('login-account', config.loginPerAccount),
    loginPerIp: make('login-ip', config.loginPerIp),
    mailPerIp: make('mail-ip', config.mailPerIp),
    mailPerAddress: make('mail-address', config.mailPerAddress),
    clientAuthPerClient: make('client-auth-client', config.clientAuthPerClient),
    clientAuthPerIp: make(CLIENT_AUTH_IP, config.clientAuthPerIp),
  };
}

/** The per-account key of an account (what a successful sign-in or a reset clears). */
export function accountLimitKey(accountId: string): string {
  return `account:${accountId}`;
}

/**
 * The per-account key for an address as typed, given what looking it up found. A registered address is
 * keyed on its account, found the way sign-in finds it (SQL lower()), so no spelling that reaches the
 * account gets a counter of its own: JavaScript and SQL do not lowercase alike (`İ` is `i` for Postgres,
 * `i̇` for JavaScript). Any other address is keyed on its normalised text. Both cases run the same lookup
 * and count alike, so the limit still tells nobody whether an address is registered.
 */
export function limitKeyFor(account: Pick<Account, 'id'> | undefined, typed: string): string {
  return account ? accountLimitKey(account.id) : `address:${typed.normalize('NFKC').trim().toLowerCase()}`;
}

function hashKey(key: string): string {
  return hash('sha256', key, 'base64url').slice(0, 32);
}
