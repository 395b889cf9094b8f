// The Redis client of the service: fail fast while Redis is down, reconnect in the background.
// One server (`url`) or a Redis Cluster (`cluster`): both clients speak the same commands.
import { Cluster, Redis } from 'ioredis';
import type { RedisConfig } from '../storage-config.ts';

/** The client the adapters and rate limits use, whichever deployment the config names. */
export type RedisClient = Redis | Cluster;

export interface OpenRedisOptions {
  /** Called with connection errors; the default ignores them (readiness checks report the outage). */
  onError?: (error: Error) => void;
}

/** Connects, or rejects when Redis does not answer at startup (a misconfiguration should be seen). */
export async function openRedis(config: RedisConfig & { url: string; cluster?: undefined }, options?: OpenRedisOptions): Promise<Redis>;
export async function openRedis(config: RedisConfig, options?: OpenRedisOptions): Promise<RedisClient>;
export async function openRedis(config: RedisConfig, options: OpenRedisOptions = {}): Promise<RedisClient> {
  const redis = createClient(config);
  // An EventEmitter 'error' without a listener crashes the process; an outage must not.
  redis.on('error', options.onError ?? (() => {}));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect(); // stops the background reconnection of a client nobody will use
    throw new Error(`Redis is not reachable at ${describeTarget(config)}: ${(error as Error).message}`, { cause: error });
  }
  return redis;
}

/** The longest wait between two reconnection attempts. */
export const RECONNECT_MAX_MS = 2000;

// With the offline queue off, a command sent during an outage fails at once instead of waiting
// for a reconnect that may never come: the request gets an error page, not a hung socket.
// Keep reconnecting forever, at most every RECONNECT_MAX_MS, so the service heals when Redis is back.
// Auto-pipelining sends the commands issued in one tick of the event loop (by concurrent requests) in
// one write: under load, one system call instead of one per command, on the server and on Redis.
const retry = (times: number) => Math.min(times * 200, RECONNECT_MAX_MS);

function createClient(config: RedisConfig): RedisClient {
  if (config.cluster) {
    return new Cluster(config.cluster.map(clusterNode), {
      lazyConnect: true,
      enableOfflineQueue: false,
      enableAutoPipelining: true,
      clusterRetryStrategy: retry,
      redisOptions: { commandTimeout: config.commandTimeoutMs, maxRetriesPerRequest: 1, ...credentials(config.cluster) },
    });
  }
  if (!config.url) throw new Error('storage.redis needs `url` or `cluster`');
  return new Redis(config.url, {
    lazyConnect: true,
    commandTimeout: config.commandTimeoutMs,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    retryStrategy: retry,
  });
}

/** `host:port` or `redis://[user:password@]host:port`, as a Cluster seed node. */
export function clusterNode(node: string): { host: string; port: number } {
  const url = new URL(node.includes('://') ? node : `redis://${node}`);
  return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 6379) };
}

/** Every node of a cluster shares its credentials: take them from the first node URL that has some. */
function credentials(nodes: string[]): { username?: string; password?: string } {
  for (const node of nodes) {
    if (!node.includes('://')) continue;
    const url = new URL(node);
    if (url.password)
      return { ...(url.username ? { username: decodeURIComponent(url.username) } : {}), password: decodeURIComponent(url.password) };
  }
  return {};
}

/** Where the config points, without passwords, for error messages and logs. */
function describeTarget(config: RedisConfig): string {
  if (config.cluster) return `cluster ${config.cluster.map((node) => (node.includes('://') ? redactUrl(node) : node)).join(', ')}`;
  return redactUrl(config.url ?? '');
}

/** Closes gracefully when connected; during an outage QUIT cannot be sent, so just drop the socket. */
export async function closeRedis(redis: RedisClient): Promise<void> {
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
