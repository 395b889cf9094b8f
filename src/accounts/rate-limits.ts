// Brute-force and abuse limits, with rate-limiter-flexible. Counters live in Redis when the storage has
// it (RateLimiterRedis), else in SQL (RateLimiterSql): in both cases every instance shares them.
// Keys are hashed, so the counter store holds no e-mail address.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Queryable } from '../../adapters/sql/database.ts';
import type { SignInConfig } from '../config/schema.ts';
import { RateLimiterSql } from './sql-rate-limiter.ts';

type Limit = { points: number; windowSeconds: number };

export interface RateLimitStores {
  db: Queryable;
  redis?: Redis;
  /** Prefix of our Redis keys (the storage section's keyPrefix). */
  redisKeyPrefix?: string;
}

/** A counter of events per key; `blockedFor` says how long the key must wait, 0 when it may go on. */
export class Limiter {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  /** Seconds before the next try is allowed (0 when allowed now). Nothing is counted. */
  async blockedFor(key: string): Promise<number> {
    const res = await this.limiter.get(hashKey(key));
    if (!res || res.remainingPoints > 0) return 0;
    return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  }

  /** Counts one event. Resolves whether or not the limit is now reached. */
  async hit(key: string): Promise<void> {
    try {
      await this.limiter.consume(hashKey(key));
    } catch (error) {
      // Over the limit: the library rejects with the counter state, which is what we wanted to record.
      if (!(error instanceof RateLimiterRes)) throw error;
    }
  }

  /** Counts one event and says whether it was allowed (for actions limited up front, such as e-mails). */
  async take(key: string): Promise<boolean> {
    try {
      await this.limiter.consume(hashKey(key));
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }

  async reset(key: string): Promise<void> {
    await this.limiter.delete(hashKey(key));
  }
}

export interface RateLimits {
  loginPerAccount: Limiter;
  loginPerIp: Limiter;
  mailPerIp: Limiter;
  mailPerAddress: Limiter;
}

export function createRateLimits(config: SignInConfig['rateLimit'], stores: RateLimitStores): RateLimits {
  const make = (name: string, limit: Limit) => {
    // The window is also the block: once over the limit, a key waits out the rest of its window.
    const options = { keyPrefix: `rl:${name}`, points: limit.points, duration: limit.windowSeconds };
    const limiter = stores.redis
      ? new RateLimiterRedis({ ...options, keyPrefix: `${stores.redisKeyPrefix ?? ''}${options.keyPrefix}`, storeClient: stores.redis })
      : new RateLimiterSql(stores.db, options);
    return new Limiter(limiter);
  };
  return {
    loginPerAccount: make('login-account', config.loginPerAccount),
    loginPerIp: make('login-ip', config.loginPerIp),
    mailPerIp: make('mail-ip', config.mailPerIp),
    mailPerAddress: make('mail-address', config.mailPerAddress),
  };
}

function hashKey(key: string): string {
  return createHash('sha256').update(key.trim().toLowerCase()).digest('base64url').slice(0, 32);
}
