// The Redis client of the service: fail fast while Redis is down, reconnect in the background.
import { Redis } from 'ioredis';
import type { RedisConfig } from '../storage-config.ts';

export interface OpenRedisOptions {
  /** Called with connection errors; the default ignores them (readiness checks report the outage). */
  onError?: (error: Error) => void;
}

/** Connects, or rejects when Redis does not answer at startup (a misconfiguration should be seen). */
export async function openRedis(config: RedisConfig, options: OpenRedisOptions = {}): Promise<Redis> {
  const redis = new Redis(config.url, {
    lazyConnect: true,
    commandTimeout: config.commandTimeoutMs,
    // With the offline queue off, a command sent during an outage fails at once instead of waiting
    // for a reconnect that may never come: the request gets an error page, not a hung socket.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // Keep reconnecting forever, at most every 2 s, so the service heals when Redis is back.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  // An EventEmitter 'error' without a listener crashes the process; an outage must not.
  redis.on('error', options.onError ?? (() => {}));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect(); // stops the background reconnection of a client nobody will use
    throw new Error(`Redis is not reachable at ${redactUrl(config.url)}: ${(error as Error).message}`, { cause: error });
  }
  return redis;
}

/** Closes gracefully when connected; during an outage QUIT cannot be sent, so just drop the socket. */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') {
    try {
      await redis.quit();
      return;
    } catch {
      // fall through: the connection broke while quitting
    }
  }
  redis.disconnect();
}

/** The URL without its password, for error messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}
