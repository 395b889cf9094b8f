// The limits on codes asked for (phone.limits): per number, per client IP, per range of numbers (all but
// the last four digits, where SMS pumping walks). Each request is counted up front, whether or not its
// number is on an account, so that the limits reveal nothing either. The counters live where the
// sign-in limits' do (Redis when configured, else SQL), shared by every instance.
import type { Cluster, Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { Queryable } from '../../adapters/sql/database.ts';
import { Limiter } from '../accounts/rate-limits.ts';
import { RateLimiterSql } from '../accounts/sql-rate-limiter.ts';
import type { PhoneConfig } from '../config/phone-schema.ts';
import { numberPrefix } from './phone-number.ts';

export interface PhoneLimits {
  perNumber: Limiter;
  perIp: Limiter;
  perPrefix: Limiter;
}

export function createPhoneLimits(
  config: PhoneConfig['limits'],
  stores: { db: Queryable; redis?: Redis | Cluster; redisKeyPrefix?: string },
): PhoneLimits {
  const make = (name: string, limit: { points: number; windowSeconds: number }) => {
    const options = { keyPrefix: `rl:${name}`, points: limit.points, duration: limit.windowSeconds };
    const limiter = stores.redis
      ? new RateLimiterRedis({ ...options, keyPrefix: `${stores.redisKeyPrefix ?? ''}${options.keyPrefix}`, storeClient: stores.redis })
      : new RateLimiterSql(stores.db, options);
    return new Limiter(limiter, stores.redis);
  };
  return {
    perNumber: make('phone-number', config.perNumber),
    perIp: make('phone-ip', config.perIp),
    perPrefix: make('phone-prefix', config.perPrefix),
  };
}

export type PhoneLimitName = 'number' | 'ip' | 'prefix';

/** Counts one code asked for `e164` from `ip`; the first limit it is over, with the wait, or undefined. */
export async function takePhoneLimits(
  limits: PhoneLimits,
  e164: string,
  ip: string,
): Promise<{ limit: PhoneLimitName; retryAfterSeconds: number } | undefined> {
  // All three counted, in parallel: a request over one limit still counts against the others.
  const [ipWait, numberWait, prefixWait] = await Promise.all([
    limits.perIp.consume(ip),
    limits.perNumber.consume(e164),
    limits.perPrefix.consume(numberPrefix(e164)),
  ]);
  if (ipWait > 0) return { limit: 'ip', retryAfterSeconds: ipWait };
  if (numberWait > 0) return { limit: 'number', retryAfterSeconds: numberWait };
  if (prefixWait > 0) return { limit: 'prefix', retryAfterSeconds: prefixWait };
  return undefined;
}
