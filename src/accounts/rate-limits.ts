// Brute-force and abuse limits, with rate-limiter-flexible. Counters live in Redis when the storage has
// it (RateLimiterRedis), else in SQL (RateLimiterSql): in both cases every instance shares them.
// Keys are hashed, so the counter store holds no e-mail address.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Queryable } from '../../adapters/sql/database.ts';
import type { SignInConfig } from '../config/schema.ts';
import { RateLimiterSql } from './sql-rate-limiter.ts';
import type { Account, AccountStore } from './store.ts';

type Limit = { points: number; windowSeconds: number };

export interface RateLimitStores {
  db: Queryable;
  redis?: Redis;
  /** Prefix of our Redis keys (the storage section's keyPrefix). */
  redisKeyPrefix?: string;
}

/** A counter of events per key, counted up front: each event is counted before the work it limits. */
export class Limiter {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  /** Counts one event and says whether it was allowed (for actions limited up front, such as e-mails). */
  async take(key: string): Promise<boolean> {
    return (await this.consume(key)) === 0;
  }

  /**
   * Counts one event up front and says how long the key must wait: 0 when this event is within the limit.
   * Counting before the work (one atomic increment) is what keeps parallel requests from all passing a check.
   */
  async consume(key: string): Promise<number> {
    try {
      await this.limiter.consume(hashKey(key));
      return 0;
    } catch (error) {
      if (error instanceof RateLimiterRes) return Math.max(1, Math.ceil(error.msBeforeNext / 1000));
      throw error;
    }
  }

  /** Gives back one event counted by `consume` (an attempt that turned out not to be a failure). */
  async refund(key: string): Promise<void> {
    await this.limiter.reward(hashKey(key), 1);
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

/** The per-account key of an account (what a successful sign-in or a reset clears). */
export function accountLimitKey(accountId: string): string {
  return `account:${accountId}`;
}

/**
 * The per-account key for an address as typed. A registered address is keyed on its account, found the
 * way sign-in finds it (SQL lower()), so no spelling that reaches the account gets a counter of its own:
 * JavaScript and SQL do not lowercase alike (`İ` is `i` for Postgres, `i̇` for JavaScript). Any other
 * address is keyed on its normalised text. Both cases run the same lookup and count alike, so the limit
 * still tells nobody whether an address is registered.
 */
export async function addressLimitKey(accounts: Pick<AccountStore, 'findByEmail'>, typed: string): Promise<string> {
  return limitKeyFor(await accounts.findByEmail(typed), typed);
}

/** addressLimitKey for a caller that has already looked the address up (`account` is what it found). */
export function limitKeyFor(account: Pick<Account, 'id'> | undefined, typed: string): string {
  return account ? accountLimitKey(account.id) : `address:${typed.normalize('NFKC').trim().toLowerCase()}`;
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}
